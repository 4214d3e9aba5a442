//! The panel's end of the worker: started when the panel opens, ended when it closes. Requests wait until
//! the worker's wasm has loaded (its `Ready`).

use std::cell::{Cell, RefCell};
use std::rc::Rc;

use wasm_bindgen::prelude::*;
use wasm_bindgen::JsCast;
use web_sys::{MessageEvent, Worker};
use yew::Callback;

use crate::checker::protocol::{CheckReply, CheckRequest};

/// The worker's script, beside the page (Trunk writes it there without a hash), and its wasm.
const WORKER_SCRIPT: &str = "checker-worker.js";
const WORKER_WASM: &str = "checker-worker_bg.wasm";

/// Requests encoded, waiting for the worker's `Ready` (none once it came).
type Waiting = Rc<RefCell<Option<Vec<String>>>>;

/// The running worker.
pub struct Link {
    worker: Worker,
    waiting: Waiting,
    _listener: Closure<dyn Fn(MessageEvent)>,
    _on_error: Closure<dyn Fn(web_sys::Event)>,
    /// The worker failed: the next request starts another.
    dead: Rc<Cell<bool>>,
}

impl Link {
    /// Start the worker (its script and wasm are fetched now, not with the page); every reply but `Ready`,
    /// or why one could not be read, goes to `on_reply`; why the worker stopped (its script or wasm could
    /// not be had, a policy forbids it, it crashed) goes to `on_failed`.
    pub fn spawn(on_reply: Callback<Result<CheckReply, String>>, on_failed: Callback<String>) -> Option<Link> {
        let worker = Worker::new(&boot_url()?).ok()?;
        let waiting: Waiting = Rc::new(RefCell::new(Some(Vec::new())));
        let (w, q) = (worker.clone(), waiting.clone());
        let listener = Closure::<dyn Fn(MessageEvent)>::new(move |e: MessageEvent| {
            let text = e.data().as_string().ok_or_else(|| "a message that is not a text".to_string());
            match text.and_then(|t| CheckReply::from_json(&t)) {
                Ok(CheckReply::Ready) => q.borrow_mut().take().into_iter().flatten().for_each(|r| post(&w, &r)),
                other => on_reply.emit(other),
            }
        });
        worker.set_onmessage(Some(listener.as_ref().unchecked_ref()));
        let dead = Rc::new(Cell::new(false));
        let died = dead.clone();
        let on_error = Closure::<dyn Fn(web_sys::Event)>::new(move |e: web_sys::Event| {
            e.prevent_default();
            died.set(true);
            let message =
                e.dyn_ref::<web_sys::ErrorEvent>().map(web_sys::ErrorEvent::message).filter(|m| !m.is_empty());
            on_failed.emit(message.unwrap_or_else(|| "its script could not be loaded".into()));
        });
        worker.set_onerror(Some(on_error.as_ref().unchecked_ref()));
        Some(Link { worker, waiting, _listener: listener, _on_error: on_error, dead })
    }

    /// Whether the worker failed (a new one is needed).
    pub fn is_dead(&self) -> bool {
        self.dead.get()
    }

    pub fn send(&self, request: &CheckRequest) {
        let text = request.to_json();
        match self.waiting.borrow_mut().as_mut() {
            Some(waiting) => waiting.push(text),
            None => post(&self.worker, &text),
        }
    }
}

fn post(worker: &Worker, text: &str) {
    let _ = worker.post_message(&JsValue::from_str(text));
}

/// The worker's starting script, as a Blob URL: it loads the worker's JS and wasm by their URLs under the
/// page's base.
fn boot_url() -> Option<String> {
    let base = gloo::utils::document().base_uri().ok().flatten()?;
    let url = |file: &str| web_sys::Url::new_with_base(file, &base).ok().map(|u| u.href());
    // A wasm that cannot be had rejects a promise, which the page would not hear of: thrown again from a
    // task, it reaches the worker's `error` event as an importScripts failure does.
    let boot = format!(
        "importScripts({:?});wasm_bindgen({{module_or_path:{:?}}}).catch(e=>setTimeout(()=>{{throw e}}));",
        url(WORKER_SCRIPT)?,
        url(WORKER_WASM)?
    );
    let parts = js_sys::Array::of1(&JsValue::from_str(&boot));
    let options = web_sys::BlobPropertyBag::new();
    options.set_type("application/javascript");
    let blob = web_sys::Blob::new_with_str_sequence_and_options(&parts, &options).ok()?;
    web_sys::Url::create_object_url_with_blob(&blob).ok()
}

impl Drop for Link {
    fn drop(&mut self) {
        self.worker.terminate();
    }
}
