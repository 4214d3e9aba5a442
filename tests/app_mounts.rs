//! Mounts the app in a real browser (headless Chromium via `wasm-bindgen-test-runner`).
#![cfg(target_arch = "wasm32")]

use epochlab::App;
use wasm_bindgen_test::{wasm_bindgen_test, wasm_bindgen_test_configure};

wasm_bindgen_test_configure!(run_in_browser);

#[wasm_bindgen_test]
async fn app_mounts_and_shows_every_broker() {
    let document = web_sys::window().unwrap().document().unwrap();
    let root = document.create_element("div").unwrap();
    document.body().unwrap().append_child(&root).unwrap();

    yew::Renderer::<App>::with_root(root.clone()).render();
    // Yew renders on the next turn of the event loop.
    yew::platform::time::sleep(std::time::Duration::from_millis(50)).await;

    let text = root.text_content().unwrap_or_default();
    assert!(text.contains("Epochlab"), "no heading in {text:?}");
    for name in ["A", "B"] {
        let broker = root.query_selector(&format!("[data-testid='broker-{name}']")).unwrap();
        let broker = broker.unwrap_or_else(|| panic!("broker {name} not rendered in {text:?}"));
        let shown = broker.text_content().unwrap_or_default();
        assert!(shown.starts_with(name), "broker {name} shows {shown:?}");
    }
}
