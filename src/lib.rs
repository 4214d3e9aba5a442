//! Epochlab's web app: a thin Yew shell over [`epochlab_core`].
//!
//! The model ([`model`]) is a pure reducer over the scenario, tested natively: it returns the next model and
//! the effects the action causes ([`model::Effect`]), which [`effect_runner`] runs. One [`snapshot`] type
//! carries the working state in links, storage and imports. Components turn the core's trace and view model
//! into markup; listeners (keyboard, timers, messages, dropped files) live in [`listeners`], pointer dragging
//! in [`pointer_drag`], and [`app`] wires them together.

pub mod app;
pub mod checker;
pub mod components;
pub mod compress;
pub mod drag;
pub mod effect_runner;
pub mod embed;
pub mod export;
pub mod icons;
pub mod import;
pub mod import_file;
pub mod lazy_panels;
pub mod lesson_paint;
pub mod lessons_app;
pub mod library;
pub mod link;
pub mod listeners;
pub mod model;
pub mod panic;
pub mod pointer_drag;
pub mod sequence_svg;
pub mod snapshot;
pub mod startup;
pub mod storage;
pub mod viewport;
pub mod web;

pub use app::App;

/// Mounts [`App`] on the document body. Call once from `main`.
pub fn start() {
    panic::install();
    // A compressed share link is unpacked by the browser, which answers asynchronously: the page starts
    // once it has (at once when there is no such link).
    wasm_bindgen_futures::spawn_local(async {
        let unpacked = link::unpack(&web::hash()).await;
        yew::Renderer::<App>::with_props(app::AppProps { unpacked: std::rc::Rc::new(unpacked) }).render();
    });
}
