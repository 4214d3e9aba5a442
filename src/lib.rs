//! Epochlab's web app: a thin Yew shell over [`epochlab_core`].
//!
//! The model ([`model`]) is a pure reducer over the scenario, tested natively; components turn the core's
//! trace and view model into markup; side effects (storage, timers, keyboard, pointer listeners) live in
//! [`app`] and [`pointer_drag`].

pub mod app;
pub mod components;
pub mod drag;
pub mod effects;
pub mod embed;
pub mod export;
pub mod icons;
pub mod import;
pub mod link;
pub mod model;
pub mod panic;
pub mod pointer_drag;
pub mod storage;
pub mod viewport;
pub mod web;

pub use app::App;

/// Mounts [`App`] on the document body. Call once from `main`.
pub fn start() {
    panic::install();
    yew::Renderer::<App>::new().render();
}
