//! Commands from the host (issue 43, item 2): `getState()`, `setState(state)`, `freeze(on)`
//! and `picture()` on a mounted widget's handle, and the same commands posted into an `?embed`
//! frame whose link names the host's origin (`host=`, embed/host.rs).
//!
//! Their code is in the lesson's bundle: the handle's methods in the first screen's module
//! only queue the call, as `record()` and `replay()` do (`platform/stream.rs`, `request`),
//! and the widget's stream, once started, answers it with [`run_code`]. Pure parts (the state
//! as a link) are the core's and the lesson's.

use idem_core::DeepLink;
use leptos::prelude::*;
use leptos::wasm_bindgen::closure::Closure;
use leptos::wasm_bindgen::{JsCast, JsValue};
use leptos::web_sys::{js_sys, Element};

use crate::platform::lab::Lab;

/// A command of the host.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Command {
    /// The run as a link: `{ query, link }` (the link's parameters as an object).
    GetState,
    /// Opens the run a link (a string, or an object of its parameters) describes.
    SetState,
    /// Freezes the widget (a truthy argument) or thaws it.
    Freeze,
    /// An SVG of the stage and the sequence diagram as they are now.
    Picture,
    /// A mounted widget's `ready()` with an exercise: its check, then the promise given.
    Ready,
}

impl Command {
    /// The command a message's `type` names (an `?embed` frame's commands).
    pub fn from_name(name: &str) -> Option<Command> {
        match name {
            "getState" => Some(Command::GetState),
            "setState" => Some(Command::SetState),
            "freeze" => Some(Command::Freeze),
            "picture" => Some(Command::Picture),
            _ => None,
        }
    }
}

/// A queued handle call's command (its number less `platform::stream::COMMAND`: the order of
/// the handle's methods in `api.rs`), carried out with [`run`]; the `Commands` the widget's
/// stream answers the queue with.
pub fn run_code(
    lab: Option<Lab>,
    host: Element,
    code: u8,
    arg: JsValue,
) -> Result<JsValue, JsValue> {
    let command = match code {
        0 => Command::GetState,
        1 => Command::SetState,
        2 => Command::Freeze,
        3 => Command::Picture,
        _ => Command::Ready,
    };
    run(lab, host, command, arg)
}

fn error(message: &str) -> JsValue {
    leptos::wasm_bindgen::JsError::new(&format!("Idempotency Lab: {message}")).into()
}

/// `target[name]` (undefined when it cannot be read). The DOM is read through `Reflect` here,
/// not through web-sys's bindings: each binding is an import of the first screen's module
/// (its glue and shim are there whoever calls it), `Reflect` is imported already.
pub fn get(target: &JsValue, name: &str) -> JsValue {
    js_sys::Reflect::get(target, &name.into()).unwrap_or_default()
}

/// The items of an array-like (`HTMLCollection`) as an array.
fn items(list: &JsValue) -> js_sys::Array {
    js_sys::Array::from(list)
}

/// Carries out `command` on the widget whose lab is `lab`, in the element `host`.
pub fn run(
    lab: Option<Lab>,
    host: Element,
    command: Command,
    arg: JsValue,
) -> Result<JsValue, JsValue> {
    if command == Command::Ready {
        // The exercise's check; a good one resolves as the widget's own `ready()` (`arg`).
        let entries = crate::view::embed::given::get(&host).unwrap_or_default();
        return idem_lesson::exercise::from_entries(entries)
            .map(|_| arg)
            .map_err(|e| leptos::wasm_bindgen::JsError::new(&e.message()).into());
    }
    let root = get(&host, "firstElementChild");
    let (Some(lab), Some(root)) = (
        lab,
        root.is_object().then(|| root.unchecked_into::<Element>()),
    ) else {
        return Err(error("the widget is not shown yet (await ready())"));
    };
    match command {
        Command::GetState => Ok(state(lab)),
        Command::SetState => set_state(lab, &arg).map(|()| JsValue::TRUE),
        Command::Freeze => {
            let on = arg.is_truthy();
            freeze(lab, &root, on);
            Ok(on.into())
        }
        Command::Picture => picture(&root).map(JsValue::from),
        Command::Ready => Ok(arg),
    }
}

/// `{ query: "scenario=key&step=3", link: { scenario: "key", step: "3" } }`.
fn state(lab: Lab) -> JsValue {
    let query = lab.run.with_untracked(|r| r.link().to_query());
    let link = js_sys::Object::new();
    for pair in query.split('&').filter(|p| !p.is_empty()) {
        let (name, value) = pair.split_once('=').unwrap_or((pair, ""));
        let _ = js_sys::Reflect::set(&link, &name.into(), &value.into());
    }
    let out = js_sys::Object::new();
    let _ = js_sys::Reflect::set(&out, &"query".into(), &query.into());
    let _ = js_sys::Reflect::set(&out, &"link".into(), &link);
    out.into()
}

/// The query a state names: a string (with or without `?`), `{ query }`, or the link's
/// parameters as an object (what `getState().link` gives).
fn state_query(arg: &JsValue) -> Option<String> {
    if let Some(query) = arg.as_string() {
        return Some(query);
    }
    if !arg.is_object() {
        return None;
    }
    let query = js_sys::Reflect::get(arg, &"query".into()).ok();
    if let Some(query) = query.and_then(|q| q.as_string()) {
        return Some(query);
    }
    let entries = js_sys::Object::entries(arg.unchecked_ref());
    Some(
        entries
            .iter()
            .map(|pair| {
                let pair = pair.unchecked_into::<js_sys::Array>();
                let name = pair.get(0).as_string().unwrap_or_default();
                let value = pair.get(1);
                let value = value
                    .as_string()
                    .or_else(|| value.as_f64().map(|n| format!("{}", n as i64)))
                    .unwrap_or_default();
                if value.is_empty() {
                    name
                } else {
                    format!("{name}={value}")
                }
            })
            .collect::<Vec<_>>()
            .join("&"),
    )
}

/// Opens the run `arg` describes; a bad one is refused with each problem in the link notice's
/// words, and the run on screen stays.
fn set_state(lab: Lab, arg: &JsValue) -> Result<(), JsValue> {
    let Some(query) = state_query(arg) else {
        return Err(error(
            "setState(state): state must be a link's query (a string) or getState()'s object",
        ));
    };
    let catalog = idem_lesson::i18n::Lang::En.catalog();
    let link = DeepLink::parse(&query).map_err(|errors| {
        let said: Vec<String> = errors
            .iter()
            .map(|e| idem_lesson::text::link_error(e, catalog))
            .collect();
        error(&format!("bad state: {}", said.join(" ")))
    })?;
    if lab.open(&link) {
        Ok(())
    } else {
        Err(error("bad state: this run cannot be built"))
    }
}

/// Frozen, the widget shows its run and takes no input (`inert`: no click, key or focus, and
/// playback paused), for a question about a fixed run.
fn freeze(lab: Lab, root: &Element, on: bool) {
    if on && lab.clock.playing.get_untracked() {
        lab.toggle_play();
    }
    if on {
        let _ = root.set_attribute("inert", "");
    } else {
        call(root, "removeAttribute", &"inert".into());
    }
    let _ = root.set_attribute("data-frozen", if on { "true" } else { "false" });
}

/// The presentation attributes a picture keeps from each element's computed style (as
/// attributes, not `style`: the picture can be inlined in a page under a strict CSP).
const KEPT: [&str; 14] = [
    "fill",
    "fill-opacity",
    "stroke",
    "stroke-width",
    "stroke-dasharray",
    "stroke-opacity",
    "opacity",
    "font-family",
    "font-size",
    "font-weight",
    "font-style",
    "text-anchor",
    "dominant-baseline",
    "visibility",
];

/// `target[name](arg)` when it is a function. (`Function.call`, not `Reflect.apply`: the
/// first screen's module has that one, and a caller here would take it out of line there.)
fn call(target: &JsValue, name: &str, arg: &JsValue) -> Option<JsValue> {
    let f = js_sys::Reflect::get(target, &name.into())
        .ok()?
        .dyn_into::<js_sys::Function>()
        .ok()?;
    f.call1(target, arg).ok()
}

/// Copies `from`'s computed style (the [`KEPT`] properties) onto `to`, its clone, and so on
/// down both trees.
fn inline_styles(window: &JsValue, from: &Element, to: &Element) {
    if let Some(style) = call(window, "getComputedStyle", from) {
        for name in KEPT {
            let value = call(&style, "getPropertyValue", &name.into())
                .and_then(|v| v.as_string())
                .unwrap_or_default();
            if !value.is_empty() {
                let _ = to.set_attribute(name, &value);
            }
        }
    }
    call(to, "removeAttribute", &"class".into());
    let (a, b) = (items(&get(from, "children")), items(&get(to, "children")));
    for i in 0..a.length().min(b.length()) {
        inline_styles(window, a.get(i).unchecked_ref(), b.get(i).unchecked_ref());
    }
}

/// One self-contained SVG of the widget's stage and sequence diagram as they are now, one
/// under the other, with the page's fonts and colours (computed styles as attributes) on its
/// background colour.
pub fn picture(root: &Element) -> Result<String, JsValue> {
    picture_at(root, 1)
}

/// [`picture`] at `scale` times its size (the same drawing: only the outer width and height
/// grow, the view box stays).
fn picture_at(root: &Element, scale: u32) -> Result<String, JsValue> {
    let window: JsValue = leptos::prelude::window().into();
    let svgs = call(root, "getElementsByTagName", &"svg".into())
        .map(|list| items(&list))
        .unwrap_or_default();
    let mut parts = String::new();
    let (mut width, mut height) = (0.0_f64, 0.0_f64);
    for i in 0..svgs.length() {
        let svg: Element = svgs.get(i).unchecked_into();
        let class = svg.get_attribute("class").unwrap_or_default();
        if !matches!(class.as_str(), "topology" | "sequence-svg") {
            continue;
        }
        let rect = svg.get_bounding_client_rect();
        let size = |name| get(&rect, name).as_f64().unwrap_or(0.0);
        let (rect_width, rect_height) = (size("width"), size("height"));
        if rect_width <= 0.0 {
            continue;
        }
        let Some(clone) = call(&svg, "cloneNode", &JsValue::TRUE) else {
            continue;
        };
        let clone: Element = clone.unchecked_into();
        inline_styles(&window, &svg, &clone);
        for (name, value) in [
            ("x", "0".to_owned()),
            ("y", format!("{}", height as u32)),
            ("width", format!("{}", rect_width.ceil() as u32)),
            ("height", format!("{}", rect_height.ceil() as u32)),
        ] {
            let _ = clone.set_attribute(name, &value);
        }
        let serializer = js_sys::Reflect::get(&window, &"XMLSerializer".into())
            .ok()
            .and_then(|c| {
                js_sys::Reflect::construct(
                    c.unchecked_ref::<js_sys::Function>(),
                    &js_sys::Array::new(),
                )
                .ok()
            });
        let text = serializer
            .and_then(|s| call(&s, "serializeToString", &clone))
            .and_then(|t| t.as_string())
            .ok_or_else(|| error("picture(): this browser cannot serialise SVG"))?;
        parts.push_str(&text);
        width = width.max(rect_width);
        height += rect_height.ceil() + 16.0;
    }
    if parts.is_empty() {
        return Err(error("picture(): the widget shows no stage yet"));
    }
    let background = call(&window, "getComputedStyle", root)
        .and_then(|s| call(&s, "getPropertyValue", &"background-color".into()))
        .and_then(|v| v.as_string())
        .filter(|c| !c.is_empty() && c != "rgba(0, 0, 0, 0)")
        .unwrap_or_else(|| "#ffffff".to_owned());
    let (w, h) = (width.ceil() as u32, height as u32);
    let (outer_w, outer_h) = (w * scale, h * scale);
    Ok(format!(
        "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"{outer_w}\" height=\"{outer_h}\" viewBox=\"0 0 {w} {h}\"><rect width=\"{w}\" height=\"{h}\" fill=\"{background}\"/>{parts}</svg>"
    ))
}

/// The picture (at `scale`) as a `data:` URL.
fn picture_url(root: &Element, scale: u32) -> Option<String> {
    let svg = picture_at(root, scale).ok()?;
    let window: JsValue = leptos::prelude::window().into();
    let encoded = call(&window, "encodeURIComponent", &svg.into())?.as_string()?;
    Some(format!("data:image/svg+xml;charset=utf-8,{encoded}"))
}

/// Saves `href` as the file `name` (a click on a link with `download`).
fn save(href: &str, name: &str) {
    let Ok(a) = document().create_element("a") else {
        return;
    };
    let _ = a.set_attribute("href", href);
    let _ = a.set_attribute("download", name);
    call(&a, "click", &JsValue::UNDEFINED);
}

/// "Download picture": the picture of the widget whose root is `root`, saved as an SVG file.
pub fn download_picture(root: &Element) {
    if let Some(href) = picture_url(root, 1) {
        save(&href, "idempotency-lab.svg");
    }
}

/// "Download picture (PNG)", for slides: the same picture at twice its size, decoded as an
/// image, put into a canvas (`bitmaprenderer`) and saved with `toBlob` (PNG, its default
/// type). Only one-argument calls (`call`): see its note.
pub fn download_picture_png(root: &Element) {
    let Some(href) = picture_url(root, 2) else {
        return;
    };
    let Ok(image) = document().create_element("img") else {
        return;
    };
    let _ = image.set_attribute("src", &href);
    let image: JsValue = image.into();
    let decoded = image.clone();
    // Each callback takes one value and returns nothing: the first screen's module has that
    // closure's shim already (one returning a value would add one there).
    let to_bitmap = Closure::once_into_js(move |_: JsValue| {
        let window: JsValue = leptos::prelude::window().into();
        let to_png = Closure::once_into_js(move |bitmap: JsValue| png_from(bitmap));
        if let Some(promise) = call(&window, "createImageBitmap", &decoded) {
            call(&promise, "then", &to_png);
        }
    });
    if let Some(promise) = call(&image, "decode", &JsValue::UNDEFINED) {
        call(&promise, "then", &to_bitmap);
    }
}

/// Draws `bitmap` into a canvas of its size and saves it as a PNG file.
fn png_from(bitmap: JsValue) {
    let Ok(canvas) = document().create_element("canvas") else {
        return;
    };
    for name in ["width", "height"] {
        let size = get(&bitmap, name).as_f64().unwrap_or(0.0) as u32;
        let _ = canvas.set_attribute(name, &size.to_string());
    }
    let Some(context) = call(&canvas, "getContext", &"bitmaprenderer".into()) else {
        return;
    };
    call(&context, "transferFromImageBitmap", &bitmap);
    let on_blob = Closure::once_into_js(move |blob: JsValue| {
        let url = get(&leptos::prelude::window().into(), "URL");
        if let Some(href) = call(&url, "createObjectURL", &blob).and_then(|h| h.as_string()) {
            save(&href, "idempotency-lab.png");
        }
    });
    call(&canvas, "toBlob", &on_blob);
}
