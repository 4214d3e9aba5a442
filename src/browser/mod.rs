//! Browser glue, used by the page and the lessons' module: every call into web-sys, gloo and js-sys outside
//! the components (the address, storage, files, DEFLATE, `postMessage` and window events, the pointer and
//! the viewport), and the runner of the model's effects. Nothing here decides what the app does: that is
//! the model's, which is pure and tested natively.

pub mod compress;
pub mod effect_runner;
pub mod import_file;
pub mod listeners;
pub mod panic;
pub mod pointer_drag;
pub mod storage;
pub mod viewport;
pub mod web;

/// The one way to change the model.
pub type Dispatch = yew::Callback<crate::model::Action>;
