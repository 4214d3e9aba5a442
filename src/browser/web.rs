//! Thin browser glue for sharing and files: the page address, the clipboard, downloads, rasterising an SVG
//! to PNG, and reading a dropped or picked file. Everything that can fail reports a message instead of
//! panicking.

use wasm_bindgen::{JsCast, JsValue};
use wasm_bindgen_futures::JsFuture;

/// The page's address without its fragment (`https://host/path/?query`).
pub fn page_url() -> String {
    let location = gloo::utils::window().location();
    let href = location.href().unwrap_or_default();
    href.split('#').next().unwrap_or_default().to_string()
}

/// The fragment, with its `#`.
pub fn hash() -> String {
    gloo::utils::window().location().hash().unwrap_or_default()
}

/// Replace the fragment without adding a history entry.
pub fn replace_hash(fragment: &str) {
    let window = gloo::utils::window();
    if let Ok(history) = window.history() {
        let url = format!("{}#{fragment}", page_url());
        let _ = history.replace_state_with_url(&JsValue::NULL, "", Some(&url));
    }
}

/// Whether the page runs inside a frame.
pub fn in_frame() -> bool {
    let window = gloo::utils::window();
    match window.parent() {
        Ok(Some(parent)) => !js_sys::Object::is(&parent, &window),
        _ => false,
    }
}

/// Post a message (JSON text) to the parent frame, as a structured object: only to the origin the link
/// names (`&origin=`) when it names one, so a parent from elsewhere receives nothing, not even `ready`.
pub fn post_to_parent(json: &str) {
    let window = gloo::utils::window();
    let (Ok(Some(parent)), Ok(data)) = (window.parent(), js_sys::JSON::parse(json)) else { return };
    let target = crate::formats::link::params(&hash()).origin.unwrap_or_else(|| "*".into());
    // A malformed origin throws: then nothing is posted either.
    let _ = parent.post_message(&data, &target);
}

/// Copy text to the clipboard; resolves to whether it worked.
pub async fn copy_text(text: &str) -> bool {
    let navigator = gloo::utils::window().navigator();
    let Ok(clipboard) = js_sys::Reflect::get(&navigator, &"clipboard".into()) else { return false };
    let Ok(write) = js_sys::Reflect::get(&clipboard, &"writeText".into()) else { return false };
    let Some(write) = write.dyn_ref::<js_sys::Function>() else { return false };
    match write.call1(&clipboard, &text.into()) {
        Ok(promise) => JsFuture::from(js_sys::Promise::from(promise)).await.is_ok(),
        Err(_) => false,
    }
}

/// Offer `bytes` as a download named `name`.
fn download_blob(name: &str, blob: &web_sys::Blob) -> Result<(), String> {
    let document = gloo::utils::document();
    let url = web_sys::Url::create_object_url_with_blob(blob).map_err(|_| "the browser refused the download")?;
    let a: web_sys::HtmlAnchorElement =
        document.create_element("a").map_err(|_| "no anchor")?.dyn_into().map_err(|_| "no anchor")?;
    a.set_href(&url);
    a.set_download(name);
    a.click();
    let _ = web_sys::Url::revoke_object_url(&url);
    Ok(())
}

/// Offer text as a download.
pub fn download_text(name: &str, mime: &str, text: &str) -> Result<(), String> {
    let parts = js_sys::Array::of1(&JsValue::from_str(text));
    let options = web_sys::BlobPropertyBag::new();
    options.set_type(mime);
    let blob =
        web_sys::Blob::new_with_str_sequence_and_options(&parts, &options).map_err(|_| "cannot make the file")?;
    download_blob(name, &blob)
}

/// A canvas's pixels as PNG bytes.
async fn canvas_png(canvas: &web_sys::HtmlCanvasElement) -> Result<Vec<u8>, String> {
    let encoded = js_sys::Promise::new(&mut |resolve, reject| {
        if canvas.to_blob(&resolve).is_err() {
            let _ = reject.call0(&JsValue::NULL);
        }
    });
    let blob = JsFuture::from(encoded).await.map_err(|_| "cannot encode PNG")?;
    // toBlob answers null when the canvas cannot be encoded.
    let blob: web_sys::Blob = blob.dyn_into().map_err(|_| "cannot encode PNG")?;
    let buffer = JsFuture::from(blob.array_buffer()).await.map_err(|_| "cannot read the PNG")?;
    Ok(js_sys::Uint8Array::new(&buffer).to_vec())
}

/// Rasterise an SVG at twice its size (`width` × 2 pixels wide, sharp on high-density screens) and offer it
/// as a PNG download that carries `scenario_json` (see `epochlab_core::png`), so that dropping it back on
/// the page opens the scenario.
pub async fn download_png(name: &str, svg: &str, width: u32, height: u32, scenario_json: &str) -> Result<(), String> {
    let document = gloo::utils::document();
    let image = web_sys::HtmlImageElement::new().map_err(|_| "no image element")?;
    let src = format!("data:image/svg+xml;charset=utf-8,{}", js_sys::encode_uri_component(svg));
    let loaded = js_sys::Promise::new(&mut |resolve, reject| {
        image.set_onload(Some(&resolve));
        image.set_onerror(Some(&reject));
    });
    image.set_src(&src);
    JsFuture::from(loaded).await.map_err(|_| "the browser could not draw the SVG")?;
    let canvas: web_sys::HtmlCanvasElement =
        document.create_element("canvas").map_err(|_| "no canvas")?.dyn_into().map_err(|_| "no canvas")?;
    canvas.set_width(width * 2);
    canvas.set_height(height * 2);
    let context: web_sys::CanvasRenderingContext2d =
        canvas.get_context("2d").ok().flatten().and_then(|c| c.dyn_into().ok()).ok_or("no 2D canvas")?;
    context.scale(2.0, 2.0).map_err(|_| "cannot scale")?;
    context.draw_image_with_html_image_element(&image, 0.0, 0.0).map_err(|_| "cannot draw")?;
    let png =
        epochlab_core::png::with_text(&canvas_png(&canvas).await?, crate::formats::export::METADATA_ID, scenario_json)?;
    let parts = js_sys::Array::of1(&js_sys::Uint8Array::from(png.as_slice()));
    let options = web_sys::BlobPropertyBag::new();
    options.set_type("image/png");
    let blob =
        web_sys::Blob::new_with_u8_array_sequence_and_options(&parts, &options).map_err(|_| "cannot make the file")?;
    download_blob(name, &blob)
}

/// Files larger than this are refused before they are read.
const MAX_FILE_BYTES: f64 = 4.0 * 1024.0 * 1024.0;

/// Read a file's bytes (a PNG).
pub async fn read_bytes(file: &web_sys::File) -> Result<Vec<u8>, String> {
    if file.size() > MAX_FILE_BYTES {
        return Err(format!("{} is larger than 4 MB", file.name()));
    }
    let buffer = JsFuture::from(file.array_buffer()).await.map_err(|_| format!("{} could not be read", file.name()))?;
    Ok(js_sys::Uint8Array::new(&buffer).to_vec())
}

/// Read a file's text.
pub async fn read_file(file: &web_sys::File) -> Result<String, String> {
    if let Some(why) = crate::formats::import::too_large(&file.name(), file.size() as usize) {
        return Err(why);
    }
    let text = JsFuture::from(file.text()).await.map_err(|_| format!("{} could not be read", file.name()))?;
    text.as_string().ok_or_else(|| format!("{} is not text", file.name()))
}

/// The window's width in CSS pixels (0 when unknown).
pub fn viewport_width() -> i32 {
    gloo::utils::document().document_element().map_or(0, |e| e.client_width())
}

/// On a screen wide enough to show the lesson beside what it points at (not a phone, where the lesson fills
/// the first screen), scroll what a lesson step marks up into view once the page has drawn it, never so far
/// that the lesson's own top leaves the screen.
pub fn bring_lesson_mark_into_view() {
    gloo::timers::callback::Timeout::new(120, || {
        let window = gloo::utils::window();
        let height = window.inner_height().ok().and_then(|h| h.as_f64()).unwrap_or(0.0);
        let wide = window.inner_width().ok().and_then(|w| w.as_f64()).is_some_and(|w| w >= 700.0);
        let document = gloo::utils::document();
        let Some(lesson) = document.query_selector(".lesson").ok().flatten() else { return };
        let Ok(marks) = document.query_selector_all(".lesson-mark") else { return };
        let lowest = (0..marks.length().min(64))
            .filter_map(|i| marks.item(i).and_then(|n| n.dyn_into::<web_sys::Element>().ok()))
            .map(|m| m.get_bounding_client_rect().bottom())
            .fold(f64::MIN, f64::max);
        let lesson = lesson.get_bounding_client_rect();
        let below = lowest - height + 16.0;
        if wide && below > 0.0 {
            window.scroll_by_with_x_and_y(0.0, below.min(lesson.top() - 8.0).max(0.0));
        }
    })
    .forget();
}

/// Focus the element matching `selector` once the page has drawn the action that asked for it (a timer of
/// 0 ms runs after Yew's render). Nothing happens if it is not there.
pub fn focus_after_render(selector: &str) {
    // Once the render is done; again a little later if the focus fell to the page (a loaded machine can
    // draw after the first try, removing the element focused then). Never taking it from an element the
    // user focused meanwhile: on a loaded machine a click or Tab can come before the first try.
    let focused_before = gloo::utils::document().active_element();
    for (attempt, delay) in [0u32, 40, 160].into_iter().enumerate() {
        let (selector, focused_before) = (selector.to_string(), focused_before.clone());
        gloo::timers::callback::Timeout::new(delay, move || {
            let document = gloo::utils::document();
            let body: Option<web_sys::Element> = document.body().map(Into::into);
            let active = document.active_element();
            let lost = active.as_ref().is_none_or(|a| Some(a) == body.as_ref());
            let moved_by_user = !lost && active != focused_before;
            if moved_by_user || (attempt > 0 && !lost) {
                return;
            }
            let found = document.query_selector(&selector).ok().flatten();
            if let Some(el) = found.and_then(|e| e.dyn_into::<web_sys::HtmlElement>().ok()) {
                let _ = el.focus();
            }
        })
        .forget();
    }
}

/// The value of `attr` on the nearest element, from an event's target up, that has it: how one listener
/// on markup drawn as text finds what was clicked.
pub fn closest_attribute(e: &web_sys::Event, attr: &str) -> Option<String> {
    let target: web_sys::Element = e.target()?.dyn_into().ok()?;
    target.closest(&format!("[{attr}]")).ok()??.get_attribute(attr)
}

/// Fetch a file shipped with the app (a path relative to the page), as text.
pub async fn fetch_text(path: &str) -> Result<String, String> {
    let window = gloo::utils::window();
    let response = JsFuture::from(window.fetch_with_str(path)).await.map_err(|_| "the network refused".to_string())?;
    let response: web_sys::Response = response.dyn_into().map_err(|_| "no response".to_string())?;
    if !response.ok() {
        return Err(format!("HTTP {}", response.status()));
    }
    let text = response.text().map_err(|_| "no text".to_string())?;
    JsFuture::from(text).await.ok().and_then(|t| t.as_string()).ok_or_else(|| "unreadable text".to_string())
}

/// Fire a window event whose `detail` is `detail` (text): how the page and the lessons' module talk.
pub fn send_event(name: &str, detail: &str) {
    let init = web_sys::CustomEventInit::new();
    init.set_detail(&JsValue::from_str(detail));
    if let Ok(event) = web_sys::CustomEvent::new_with_event_init_dict(name, &init) {
        let _ = gloo::utils::window().dispatch_event(&event);
    }
}

/// The script element of the lessons' module (a retry replaces it).
const LESSONS_SCRIPT_ID: &str = "epochlab-lessons-script";

/// The lessons' module's start function once its script ran (`Ok(None)` before). The glue declares `let
/// wasm_bindgen` at the top level: a global binding, not a window property, found by a function built from
/// text, which a Content-Security-Policy without 'unsafe-eval' refuses (`Err`, said, never thrown).
fn lessons_start() -> Result<Option<js_sys::Function>, String> {
    let build = js_sys::Reflect::get(&js_sys::global(), &"Function".into()).unwrap_or_default();
    let body = js_sys::Array::of1(&"return typeof wasm_bindgen === 'function' ? wasm_bindgen : null".into());
    let lookup = js_sys::Reflect::construct(build.unchecked_ref::<js_sys::Function>(), &body)
        .map_err(|_| "this page's Content-Security-Policy forbids 'unsafe-eval'".to_string())?;
    Ok(lookup.unchecked_into::<js_sys::Function>().call0(&JsValue::NULL).ok().and_then(|f| f.dyn_into().ok()))
}

/// Load the lessons' module (a script beside the page that defines `wasm_bindgen`), then start it;
/// `on_failed` hears why, when its script or its wasm cannot be had. A retry after its wasm failed starts
/// it again without running its script twice.
pub fn load_lessons(on_failed: std::rc::Rc<dyn Fn(String)>) {
    use crate::model::bridge::MODULE_JS;
    match lessons_start() {
        Ok(Some(_)) => return start_lessons(on_failed),
        Err(why) => return on_failed(why),
        Ok(None) => {}
    }
    let document = gloo::utils::document();
    if let Some(old) = document.get_element_by_id(LESSONS_SCRIPT_ID) {
        old.remove();
    }
    let Ok(script) = document.create_element("script") else { return };
    let _ = script.set_attribute("src", MODULE_JS);
    script.set_id(LESSONS_SCRIPT_ID);
    let failed = on_failed.clone();
    let onload = wasm_bindgen::closure::Closure::once_into_js(move || start_lessons(failed));
    let onerror =
        wasm_bindgen::closure::Closure::once_into_js(move || on_failed("its script could not be fetched".into()));
    let _ = script.add_event_listener_with_callback("load", onload.unchecked_ref());
    let _ = script.add_event_listener_with_callback("error", onerror.unchecked_ref());
    if let Some(head) = document.head() {
        let _ = head.append_child(&script);
    }
}

/// Start the module whose script ran: fetch and instantiate its wasm, telling `failed` if that fails.
fn start_lessons(failed: std::rc::Rc<dyn Fn(String)>) {
    let start = match lessons_start() {
        Ok(Some(start)) => start,
        Ok(None) => return failed("its script defines no module".into()),
        Err(why) => return failed(why),
    };
    let options = js_sys::Object::new();
    let wasm = JsValue::from_str(crate::model::bridge::MODULE_WASM);
    let _ = js_sys::Reflect::set(&options, &"module_or_path".into(), &wasm);
    let started = start.call1(&JsValue::NULL, &options).map(js_sys::Promise::from);
    wasm_bindgen_futures::spawn_local(async move {
        let result = match started {
            Ok(promise) => wasm_bindgen_futures::JsFuture::from(promise).await.map(drop),
            Err(e) => Err(e),
        };
        if result.is_err() {
            failed("its wasm could not be fetched or started".into());
        }
    });
}
