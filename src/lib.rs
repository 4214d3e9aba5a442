//! Epochlab's web app: a thin Yew shell over [`epochlab_core`]. Three programs compile from this crate:
//!
//! - the page ([`page`], `main.rs`): the first download;
//! - the lessons' module ([`lessons`], `lessons_main.rs`): loaded when first used, it runs the lessons and
//!   draws the panels of [`components::panels`] and [`components::lessons`];
//! - the checker's worker ([`checker`], `worker_main.rs`): the model checker, in a Web Worker.
//!
//! The model ([`model`]) is a pure reducer over the scenario, tested natively: it returns the next model and
//! the effects the action causes ([`model::Effect`]), which [`browser::effect_runner`] runs. [`formats`]
//! holds the pure text and bytes (snapshots, links, imports, exports); [`browser`] every call into the
//! browser. `docs/architecture.md` draws the programs and what passes between them.

pub mod browser;
pub mod checker;
pub mod components;
pub mod formats;
pub mod lessons;
pub mod model;
pub mod page;

pub use page::app::App;

/// Mounts [`App`] on the document body. Call once from `main`.
pub fn start() {
    browser::panic::install();
    // A compressed share link is unpacked by the browser, which answers asynchronously: the page starts
    // once it has (at once when there is no such link).
    wasm_bindgen_futures::spawn_local(async {
        let unpacked = browser::compress::unpack(&browser::web::hash()).await;
        if let Some(boot) = gloo::utils::document().get_element_by_id("boot") {
            boot.remove();
        }
        yew::Renderer::<App>::with_props(page::app::AppProps { unpacked: std::rc::Rc::new(unpacked) }).render();
    });
}
