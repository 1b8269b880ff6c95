//! The browser and the state the components share: browser facts ([`browser`]), the catalogs'
//! loading ([`catalogs`]), the crash notice ([`crash`]), the page's events for course pages
//! ([`events`]) and their data stream ([`stream`]), the reactive lab ([`lab`]) and its hooks ([`hooks`]), the language's choice
//! ([`lang`]), where the lesson is drawn and the contexts it requires ([`place`]), the search worker's pool ([`search`], in the browser), the student's progress ([`progress`]) and the storage it is kept in
//! ([`storage`]). No component lives here.

pub mod browser;
pub mod catalogs;
pub mod crash;
pub mod events;
pub mod exercise;
pub mod hooks;
pub mod lab;
pub mod lang;
pub mod place;
pub mod progress;
pub mod search;
pub mod storage;
pub mod stream;
