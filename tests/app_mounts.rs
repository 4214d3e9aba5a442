//! The app in a real browser (headless Chromium via `wasm-bindgen-test-runner`): it mounts, shows the landing
//! comparison, and its components respond to clicks and keys.
#![cfg(target_arch = "wasm32")]

use std::time::Duration;

use epochlab::model::learn::LessonsModel;
use epochlab::model::{Action, Model};
use epochlab::App;
use wasm_bindgen::JsCast;
use wasm_bindgen_test::{wasm_bindgen_test, wasm_bindgen_test_configure};
use web_sys::{Element, HtmlElement};

wasm_bindgen_test_configure!(run_in_browser);

/// Mount a fresh app (with empty storage) and wait for Yew to render.
async fn mount() -> Element {
    let window = web_sys::window().unwrap();
    window.local_storage().unwrap().unwrap().clear().unwrap();
    // Every app writes its scenario into the address from its first render: start without that link.
    let path = window.location().pathname().unwrap();
    window.history().unwrap().replace_state_with_url(&wasm_bindgen::JsValue::NULL, "", Some(&path)).unwrap();
    let document = window.document().unwrap();
    let root = document.create_element("div").unwrap();
    document.body().unwrap().append_child(&root).unwrap();
    yew::Renderer::<App>::with_root(root.clone()).render();
    for _ in 0..150 {
        if root.query_selector("[data-testid='headline']").ok().flatten().is_some() {
            break;
        }
        settle_briefly().await;
    }
    settle().await;
    root
}

async fn settle() {
    yew::platform::time::sleep(Duration::from_millis(60)).await;
}

fn find(root: &Element, testid: &str) -> Element {
    root.query_selector(&format!("[data-testid='{testid}']")).unwrap().unwrap_or_else(|| panic!("no {testid}"))
}

fn text(root: &Element, testid: &str) -> String {
    find(root, testid).text_content().unwrap_or_default()
}

/// The text once it reads `expected`, or after 3 s whatever it reads: a loaded machine renders late, so
/// assertions wait for the page rather than for a fixed time.
async fn text_once(root: &Element, testid: &str, expected: &str) -> String {
    for _ in 0..150 {
        if text(root, testid) == expected {
            break;
        }
        settle_briefly().await;
    }
    text(root, testid)
}

async fn settle_briefly() {
    yew::platform::time::sleep(Duration::from_millis(20)).await;
}

#[wasm_bindgen_test]
async fn the_app_mounts_with_the_landing_comparison() {
    let root = mount().await;
    assert!(root.text_content().unwrap_or_default().contains("Epochlab"));
    assert!(text(&root, "headline").contains("hw-truncation breaks I1"));
    for variant in ["hw-truncation", "kip-279"] {
        for broker in ["A", "B"] {
            find(&root, &format!("broker-{variant}-{broker}"));
        }
    }
    assert_eq!(text_once(&root, "verdict-kip-279", "no invariant fails").await, "no invariant fails");
    assert_eq!(find(&root, "cell-hw-truncation-A-1").get_attribute("data-status").as_deref(), Some("lost"));
    root.remove();
}

#[wasm_bindgen_test]
async fn clicking_a_step_moves_the_cursor_and_the_narration_follows() {
    let root = mount().await;
    find(&root, "step-5").dyn_into::<HtmlElement>().unwrap().click();
    settle().await;
    assert_eq!(text_once(&root, "cursor-position", "Step 5 of 9: fetch").await, "Step 5 of 9: fetch");
    assert!(text(&root, "narration-kip-279").contains("the response is lost"));
    root.remove();
}

#[wasm_bindgen_test]
async fn selecting_a_chip_opens_the_place_the_lessons_module_draws_its_editor_into() {
    let root = mount().await;
    let place = || find(&root, "editor-place");
    assert!(place().has_attribute("hidden"), "no event selected, no editor");
    // Step 7 is A's silent crash. The editor itself is the lessons' module's (tested alone below, and with
    // the module in e2e/tests/scenario2.spec.ts): the page shows its place, with a line until it is drawn.
    find(&root, "chip-7").dyn_into::<HtmlElement>().unwrap().click();
    settle().await;
    assert!(!place().has_attribute("hidden"));
    assert!(place().query_selector("#editor-root").unwrap().is_some());
    root.remove();
}

/// The page's model, changed by what `dispatch` carries, and the lessons' mirror of it (selecting
/// `selected`), as the lessons' module draws its panels from: a panel on its own, over a model it changes.
#[yew::hook]
fn use_page_and_mirror(selected: Option<usize>) -> (std::rc::Rc<LessonsModel>, yew::Callback<Action>) {
    let page = yew::use_state(|| std::rc::Rc::new(Model::landing()));
    let dispatch = {
        let page = page.clone();
        yew::Callback::from(move |a| page.set(std::rc::Rc::new(page.after(a))))
    };
    let mirror = LessonsModel { selected, ..LessonsModel::mirroring(page.shown.clone()) };
    (std::rc::Rc::new(mirror), dispatch)
}

/// The event editor with step 0 selected (on the page, the lessons' module draws it when an event is
/// selected, and the page carries out its actions: `model::panels`).
#[yew::function_component(EditorAlone)]
fn editor_alone() -> yew::Html {
    let (model, dispatch) = use_page_and_mirror(Some(0));
    yew::html! { <epochlab::components::panels::editor::EventEditor {model} {dispatch} /> }
}

#[wasm_bindgen_test]
async fn an_elect_delivers_to_the_brokers_checked_in_its_editor() {
    let document = web_sys::window().unwrap().document().unwrap();
    let root = document.create_element("div").unwrap();
    document.body().unwrap().append_child(&root).unwrap();
    yew::Renderer::<EditorAlone>::with_root(root.clone()).render();
    settle().await;
    // Step 0 is the first election, delivered to every live broker.
    let checkbox =
        |b: &str| find(&root, &format!("editor-deliver-{b}")).dyn_into::<web_sys::HtmlInputElement>().unwrap();
    assert!(checkbox("A").checked() && checkbox("B").checked());
    assert!(text(&root, "editor").contains("Deliver to (all live brokers)"));
    checkbox("B").click();
    settle().await;
    assert!(checkbox("A").checked() && !checkbox("B").checked());
    assert!(!text(&root, "editor").contains("all live brokers"));
    checkbox("B").click();
    settle().await;
    assert!(text(&root, "editor").contains("Deliver to (all live brokers)"), "both listed again is everyone");
    root.remove();
}

/// The configuration panel (on the page, the lessons' module draws it and the page carries out its actions).
#[yew::function_component(ConfigAlone)]
fn config_alone() -> yew::Html {
    let (model, dispatch) = use_page_and_mirror(None);
    yew::html! { <epochlab::components::panels::config::ConfigPanel {model} {dispatch} /> }
}

#[wasm_bindgen_test]
async fn the_flags_a_variant_implies_are_shown_checked_and_fixed() {
    let document = web_sys::window().unwrap().document().unwrap();
    let root = document.create_element("div").unwrap();
    document.body().unwrap().append_child(&root).unwrap();
    yew::Renderer::<ConfigAlone>::with_root(root.clone()).render();
    settle().await;
    let flag = |f: &str| find(&root, &format!("flag-{f}")).dyn_into::<web_sys::HtmlInputElement>().unwrap();
    assert!(!flag("kip-320").checked() && !flag("kip-320").disabled(), "hw-truncation implies no flag");
    // Show kafka-2.1 alone: it is then the scenario's variant, and it implies all four flags.
    for toggle in ["kafka-2.1", "hw-truncation", "kip-279"] {
        find(&root, &format!("variant-toggle-{toggle}")).dyn_into::<HtmlElement>().unwrap().click();
        settle().await;
    }
    for f in ["kafka-7415", "kafka-7128", "kafka-7164", "kip-320"] {
        assert!(flag(f).checked() && flag(f).disabled(), "{f}");
    }
    root.remove();
}

#[wasm_bindgen_test]
async fn keyboard_shortcuts_move_the_cursor() {
    let root = mount().await;
    let press = |key: &str| {
        let init = web_sys::KeyboardEventInit::new();
        init.set_key(key);
        init.set_bubbles(true);
        let event = web_sys::KeyboardEvent::new_with_keyboard_event_init_dict("keydown", &init).unwrap();
        web_sys::window().unwrap().document().unwrap().dispatch_event(&event).unwrap();
    };
    press("Home");
    settle().await;
    assert_eq!(text_once(&root, "cursor-position", "Before the first step").await, "Before the first step");
    press("ArrowRight");
    press("ArrowRight");
    settle().await;
    assert_eq!(text_once(&root, "cursor-position", "Step 1 of 9: produce").await, "Step 1 of 9: produce");
    root.remove();
}
