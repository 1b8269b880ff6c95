//! Where the lesson is drawn: the whole page or a widget. One `Copy` context, provided by
//! [`App`](crate::view::app::App) and [`Widget`](crate::view::embed::Widget) before any part,
//! so a part asks one question instead of guessing from which other contexts happen to be
//! there. What only the page has (its slices, the student's marks, the state that outlives a
//! change of language, the compare mode's right side) rides on the page's variant, so a part
//! cannot read it in a widget by accident, and a widget never pretends to have it.

use leptos::prelude::*;

use crate::platform::lab::Lab;
use crate::platform::progress::Progress;
use crate::platform::provided::expect_provided;
use crate::view::slices::{Later, Slice};
use idem_core::{Report, Scenario};
use idem_lesson::geometry::Layout;

/// Where the lesson is drawn (see the module's doc).
#[derive(Clone, Copy)]
pub enum DrawnIn {
    /// The lesson's page: parts come slice by slice, its narration links terms into its
    /// glossary, and it keeps the state below (held in the page's arena: the context stays
    /// a small `Copy` handle, however much the page keeps).
    Page(StoredValue<Page>),
    /// A widget (`?embed` or `mount`): every part drawn at once, no glossary to link to, no
    /// marks kept, each part's state its own.
    Widget,
}

/// What the page holds for its parts: made once by the page, so it outlives a change of
/// language (the parts are drawn again, these stay) and a change of mode.
#[derive(Clone, Copy)]
pub struct Page {
    /// Which of the page's slices are drawn (slices.rs).
    pub slices: Later,
    /// The student's marks (progress.rs).
    pub progress: Progress,
    /// The last finished search, shared by "Try every failure" and the challenges.
    pub last_search: LastSearch,
    /// The student's guess in the recap.
    pub guess: Guess,
    /// The lab seen from the right side of a comparison ([`Lab::side`]).
    pub compare_right: Lab,
    /// The layout both sides of a comparison are drawn in (tall: half the width each).
    pub compare_layout: ReadSignal<Layout>,
}

/// A finished search, shared with the challenges: the scenario searched, its bound and report.
#[derive(Clone, Copy)]
pub struct LastSearch(pub RwSignal<Option<(Scenario, u32, Report)>>);

/// The student's guess: (scenario id, chosen value); a guess belongs to the scenario it was
/// made for.
#[derive(Clone, Copy)]
pub struct Guess(pub RwSignal<Option<(String, String)>>);

impl DrawnIn {
    /// The page's state, `None` in a widget.
    pub fn page(self) -> Option<Page> {
        match self {
            DrawnIn::Page(page) => Some(page.get_value()),
            DrawnIn::Widget => None,
        }
    }

    /// Whether `slice` of the page is drawn (tracked); a widget draws everything at once.
    pub fn slice_drawn(self, slice: Slice) -> bool {
        match self {
            DrawnIn::Page(page) => page.with_value(|page| page.slices).drawn(slice),
            DrawnIn::Widget => true,
        }
    }

    /// Whether the narration links terms into a glossary (only the page shows one).
    pub fn links_terms(self) -> bool {
        matches!(self, DrawnIn::Page(_))
    }

    /// The student's marks, which only the page keeps.
    pub fn progress(self) -> Option<Progress> {
        self.page().map(|page| page.progress)
    }

    /// The last finished search, which only the page shares between its parts.
    pub fn last_search(self) -> Option<LastSearch> {
        self.page().map(|page| page.last_search)
    }
}

/// Says that the lesson below is drawn in the page, which keeps `page`.
pub fn provide_page(page: Page) {
    provide_context(DrawnIn::Page(StoredValue::new(page)));
}

/// Says that the lesson below is drawn in a widget.
pub fn provide_widget() {
    provide_context(DrawnIn::Widget);
}

/// Where the enclosing lesson is drawn.
///
/// # Panics
/// Outside the page or a widget: every part is drawn inside one of them.
#[track_caller]
pub fn use_drawn_in() -> DrawnIn {
    expect_provided(
        "DrawnIn",
        "provide_page (the page's App) or provide_widget (a Widget)",
    )
}

/// The page's state, for a part only the page draws (the compare mode).
///
/// # Panics
/// In a widget, or outside the page.
#[track_caller]
pub fn use_page() -> Page {
    match use_drawn_in() {
        DrawnIn::Page(page) => page.get_value(),
        DrawnIn::Widget => {
            panic!("a part of the page only drawn in a widget: the page's App provides its Page")
        }
    }
}
