//! "Find the shortest failure": the model checker's panel. The search and the shrinker run in a Web Worker
//! (`crate::checker::worker`), spawned on the first request, so the page neither downloads it before nor
//! stutters while it runs. What it finds opens on the timeline through an undoable action.

use std::cell::RefCell;
use std::rc::Rc;

use epochlab_core::checker::default_goal;
use epochlab_core::invariants::InvariantId;
use epochlab_core::scenario::Scenario;
use epochlab_core::Variant;
use wasm_bindgen::prelude::*;
use wasm_bindgen::JsCast;
use web_sys::{HtmlInputElement, HtmlSelectElement, MessageEvent, Worker};
use yew::prelude::*;

use super::{Dispatch, ModelProps};
use crate::checker::{cancel_request, check_request, shrink_request, Reply};
use crate::model::Action;

/// The worker's script, beside the page (Trunk writes it there without a hash), and its wasm.
const WORKER_SCRIPT: &str = "checker-worker.js";
const WORKER_WASM: &str = "checker-worker_bg.wasm";

/// The bounds the form holds.
#[derive(Clone, Debug, PartialEq)]
struct Bounds {
    variant: Variant,
    goal: Vec<InvariantId>,
    brokers: u8,
    records: u8,
    epochs: i32,
    depth: u32,
}

impl Default for Bounds {
    fn default() -> Self {
        Bounds { variant: Variant::HwTruncation, goal: default_goal(), brokers: 2, records: 2, epochs: 3, depth: 12 }
    }
}

/// The running worker: requests wait until its wasm has loaded; it ends when the panel closes.
struct Link {
    worker: Worker,
    queue: Rc<RefCell<Option<Vec<String>>>>,
    _listener: Closure<dyn Fn(MessageEvent)>,
}

impl Link {
    fn send(&self, request: String) {
        match self.queue.borrow_mut().as_mut() {
            Some(waiting) => waiting.push(request),
            None => {
                let _ = self.worker.post_message(&JsValue::from_str(&request));
            }
        }
    }
}

impl Drop for Link {
    fn drop(&mut self) {
        self.worker.terminate();
    }
}

/// Start the worker: its script and wasm are fetched now, not with the page.
fn spawn(on_reply: Callback<Reply>) -> Option<Link> {
    let base = gloo::utils::document().base_uri().ok().flatten()?;
    let url = |file: &str| web_sys::Url::new_with_base(file, &base).ok().map(|u| u.href());
    let boot =
        format!("importScripts({:?});wasm_bindgen({{module_or_path:{:?}}});", url(WORKER_SCRIPT)?, url(WORKER_WASM)?);
    let parts = js_sys::Array::of1(&JsValue::from_str(&boot));
    let options = web_sys::BlobPropertyBag::new();
    options.set_type("application/javascript");
    let blob = web_sys::Blob::new_with_str_sequence_and_options(&parts, &options).ok()?;
    let worker = Worker::new(&web_sys::Url::create_object_url_with_blob(&blob).ok()?).ok()?;
    let queue: Rc<RefCell<Option<Vec<String>>>> = Rc::new(RefCell::new(Some(Vec::new())));
    let (w, q) = (worker.clone(), queue.clone());
    let listener = Closure::<dyn Fn(MessageEvent)>::new(move |e: MessageEvent| {
        let reply = Reply::parse(&e.data().as_string().unwrap_or_default());
        if reply.kind == "ready" {
            for request in q.borrow_mut().take().unwrap_or_default() {
                let _ = w.post_message(&JsValue::from_str(&request));
            }
        } else {
            on_reply.emit(reply);
        }
    });
    worker.set_onmessage(Some(listener.as_ref().unchecked_ref()));
    Some(Link { worker, queue, _listener: listener })
}

/// What a reply does: the panel shows it, and a scenario it carries opens on the timeline.
fn answer(reply: Reply, status: &UseStateHandle<Option<Reply>>, dispatch: &Dispatch) {
    if let Some((json, cursor, what)) = &reply.open {
        match Scenario::from_json(json) {
            Ok(s) => dispatch.emit(Action::LoadFound { scenario: Box::new(s), cursor: *cursor, what: what.clone() }),
            Err(e) => {
                return status.set(Some(Reply { kind: "failed".into(), text: e.to_string(), ..Reply::default() }))
            }
        }
    }
    status.set(Some(reply));
}

/// The panel.
#[function_component(CheckerPanel)]
pub fn checker_panel(props: &ModelProps) -> Html {
    let bounds = use_state(Bounds::default);
    let status = use_state(|| None::<Reply>);
    let link = use_mut_ref(|| None::<Link>);
    let send = {
        let (link, status, dispatch) = (link.clone(), status.clone(), props.dispatch.clone());
        Callback::from(move |request: String| {
            let mut slot = link.borrow_mut();
            if slot.is_none() {
                let (status, dispatch) = (status.clone(), dispatch.clone());
                *slot = spawn(Callback::from(move |r| answer(r, &status, &dispatch)));
            }
            match slot.as_ref() {
                Some(worker) => worker.send(request),
                None => status.set(Some(Reply {
                    kind: "failed".into(),
                    text: "this browser could not start a Web Worker".into(),
                    ..Reply::default()
                })),
            }
        })
    };
    let busy = status.as_ref().is_some_and(|r| r.kind == "progress");
    let start = |request: fn(&Bounds, &Scenario) -> String, first: &'static str| {
        let (b, status, send, scenario) = (bounds.clone(), status.clone(), send.clone(), props.model.scenario.clone());
        Callback::from(move |_| {
            status.set(Some(Reply { kind: "progress".into(), text: first.into(), ..Reply::default() }));
            send.emit(request(&b, &scenario));
        })
    };
    let find =
        start(|b, s| check_request(b.variant.id(), &ids(&b.goal), bounds_of(b), &settings(s)), "Starting the checker…");
    let shrink = start(|b, s| shrink_request(&s.to_json(), b.variant.id()), "Shrinking…");
    let cancel = send.reform(|_| cancel_request());
    html! {
        <div class="checker" data-testid="checker-panel">
            <p class="checker__intro">{ "A breadth-first search over every sequence of events within the bounds, \
                run in the background: the first failure it finds is a shortest one. It starts from an empty \
                cluster with this scenario's settings." }</p>
            { form(&bounds, busy) }
            <div class="checker__buttons">
                <button type="button" onclick={find} disabled={busy} data-testid="checker-run">{ "Find the shortest failure" }</button>
                <button type="button" onclick={cancel} disabled={!busy} data-testid="checker-cancel">{ "Cancel" }</button>
                <button type="button" onclick={shrink} disabled={busy} data-testid="checker-shrink">
                    { format!("Shrink this scenario under {}", bounds.variant.id()) }</button>
            </div>
            { status_view(status.as_ref()) }
        </div>
    }
}

fn ids(goal: &[InvariantId]) -> Vec<&'static str> {
    goal.iter().map(|i| i.id()).collect()
}

fn bounds_of(b: &Bounds) -> [u32; 4] {
    [u32::from(b.brokers), u32::from(b.records), b.epochs.max(0) as u32, b.depth]
}

/// The scenario's settings, without its events (the search starts from an empty cluster).
fn settings(s: &Scenario) -> String {
    Scenario { events: Vec::new(), ..s.clone() }.to_json()
}

impl Bounds {
    /// A form field changed: `name` is the field, `value` its new value (an invariant's id toggles it).
    fn set(&mut self, name: &str, value: &str) {
        let number = |old: u32| value.parse().unwrap_or(old);
        match name {
            "variant" => self.variant = Variant::from_id(value).unwrap_or(self.variant),
            "brokers" => self.brokers = number(self.brokers.into()) as u8,
            "records" => self.records = number(self.records.into()) as u8,
            "epochs" => self.epochs = number(self.epochs.max(0) as u32) as i32,
            "depth" => self.depth = number(self.depth),
            "goal" => match InvariantId::from_id(value) {
                Some(i) if self.goal.contains(&i) => self.goal.retain(|g| *g != i),
                Some(i) => self.goal.push(i),
                None => {}
            },
            _ => {}
        }
    }
}

/// The form. One change listener on the fieldset reads which field changed (by its name), so the page
/// carries one closure, not one per field.
fn form(bounds: &UseStateHandle<Bounds>, busy: bool) -> Html {
    let b = (**bounds).clone();
    let onchange = {
        let bounds = bounds.clone();
        Callback::from(move |e: Event| {
            let (name, value) = match e.target_dyn_into::<HtmlSelectElement>() {
                Some(s) => (s.name(), s.value()),
                None => e.target_dyn_into::<HtmlInputElement>().map(|i| (i.name(), i.value())).unwrap_or_default(),
            };
            let mut next = (*bounds).clone();
            next.set(&name, &value);
            bounds.set(next);
        })
    };
    let variants =
        Variant::ALL.iter().map(|v| html! { <option value={v.id()} selected={*v == b.variant}>{ v.id() }</option> });
    let brokers = [2u8, 3].map(|n| html! { <option value={n.to_string()} selected={b.brokers == n}>{ n }</option> });
    let goal = default_goal().into_iter().map(|i| {
        html! {
            <label class="config__check" title={i.name()}>
                <input type="checkbox" name="goal" value={i.id()} checked={b.goal.contains(&i)}
                    data-testid={format!("checker-invariant-{}", i.id())} />
                { i.id() }
            </label>
        }
    });
    html! {
        <fieldset class="checker__form" disabled={busy} {onchange}>
            <label class="config__field">{ "Variant " }<select name="variant" data-testid="checker-variant">{ for variants }</select></label>
            <label class="config__field">{ "Brokers " }<select name="brokers" data-testid="checker-brokers">{ for brokers }</select></label>
            { number("Records", "records", b.records.into(), 4) }
            { number("Leader epochs", "epochs", b.epochs.max(0) as u32, 6) }
            { number("Depth (events)", "depth", b.depth, 20) }
            <span class="checker__invariants">{ "Invariants: " }{ for goal }</span>
        </fieldset>
    }
}

fn number(label: &'static str, name: &'static str, value: u32, max: u32) -> Html {
    html! {
        <label class="config__field">{ label }{ " " }
            <input type="number" {name} min="1" max={max.to_string()} value={value.to_string()}
                data-testid={format!("checker-{name}")} />
        </label>
    }
}

fn status_view(reply: Option<&Reply>) -> Html {
    let Some(r) = reply else { return html! {} };
    let list = r.list.iter().map(|line| html! { <li>{ line.clone() }</li> });
    let progress = (r.kind == "progress" && r.max > 0).then(|| {
        html! { <progress max={r.max.to_string()} value={r.depth.to_string()} aria-label="Depth explored" /> }
    });
    let testid = if r.kind == "progress" { "checker-progress" } else { "checker-result" };
    html! {
        <div class="checker__result" role="status" data-testid={testid}>
            { for progress }
            <span>{ r.text.clone() }</span>
            if !r.list.is_empty() { <ul class="checker__reasons" data-testid="checker-reasons">{ for list }</ul> }
        </div>
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn each_field_sets_its_bound_and_an_invariant_toggles() {
        let mut b = Bounds::default();
        for (name, value) in
            [("variant", "kafka-2.1"), ("brokers", "3"), ("records", "3"), ("epochs", "4"), ("depth", "7")]
        {
            b.set(name, value);
        }
        assert_eq!((b.variant, b.brokers, b.records, b.epochs, b.depth), (Variant::Kafka21, 3, 3, 4, 7));
        b.set("goal", "I1");
        assert!(!b.goal.contains(&InvariantId::I1));
        b.set("goal", "I1");
        assert!(b.goal.contains(&InvariantId::I1));
        b.set("depth", "lots");
        b.set("variant", "nope");
        assert_eq!((b.depth, b.variant), (7, Variant::Kafka21), "what does not parse changes nothing");
    }
}
