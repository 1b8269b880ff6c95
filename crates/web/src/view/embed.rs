//! Embedding for course authors: the compact widget (`?embed` in an iframe, or mounted from
//! JavaScript with [`mount`]), the options of the JS API with their validation, and the
//! "Embed" snippet of the full page.

pub mod api;
pub mod commands;
pub mod exercise;
pub mod given;
pub mod host;
pub mod record;
pub mod share;
pub mod widget;

pub use api::{manual_mount, mount, MountHandle};
pub use idem_lesson::options::{
    embed_param, query_lang, query_theme, validate, OptionError, Options, RawOptions, Value, FIELDS,
};
pub use widget::Widget;
