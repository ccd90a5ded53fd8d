//! The glue between the app and the browser: the query string ([`url`]), fetching a language's
//! texts ([`lang`]), the service worker ([`offline`]), waiting for a worker's message
//! ([`message`]), `window.vramfit` ([`js_api`]), a panic as a visible panel ([`panic_panel`]),
//! what waits for the rest of the split wasm ([`later`]), what waits for the first frame
//! ([`first_frame`]) and the timing marks ([`timing`]).
//! Uses the core only (no other folder of the crate).

pub mod first_frame;
pub mod js_api;
pub mod lang;
pub mod later;
pub mod message;
pub mod offline;
pub mod panic_panel;
pub mod timing;
pub mod url;
