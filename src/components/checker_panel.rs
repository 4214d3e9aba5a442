//! "Find the shortest failure": the model checker's panel. The search and the shrinker run in a Web Worker
//! (`crate::checker::worker`), spawned when the panel opens (not with the page), so the page neither
//! downloads it before nor stutters while it runs; it warms itself up while the user picks the bounds. What it finds opens on the timeline through an undoable action.
//!
//! The panel is in the page's first download, so it is written as markup text (one raw node for the form,
//! one for the buttons and the verdict) with one click and one change listener, and the form is read when a
//! button is pressed: Yew's markup builders would cost that download several kilobytes more.

use std::cell::RefCell;
use std::rc::Rc;

use epochlab_core::checker::bounds::{Bound, BROKERS, DEPTH, EPOCHS, RECORDS};
use epochlab_core::checker::{default_goal, Stamp};
use epochlab_core::invariants::InvariantId;
use epochlab_core::scenario::Scenario;
use epochlab_core::Variant;
use wasm_bindgen::prelude::*;
use wasm_bindgen::JsCast;
use web_sys::{HtmlInputElement, HtmlSelectElement, MessageEvent, Worker};

use crate::panic::escape;
use yew::prelude::*;

use super::{Dispatch, ModelProps};
use crate::checker::{cancel_request, check_request, shrink_request, Reply};
use crate::model::Action;

/// The worker's script, beside the page (Trunk writes it there without a hash), and its wasm.
const WORKER_SCRIPT: &str = "checker-worker.js";
const WORKER_WASM: &str = "checker-worker_bg.wasm";

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

/// The panel's worker, started if it is not running.
fn worker<'a>(
    link: &'a RefCell<Option<Link>>,
    status: &UseStateHandle<Option<Reply>>,
    dispatch: &Dispatch,
) -> std::cell::RefMut<'a, Option<Link>> {
    let mut slot = link.borrow_mut();
    if slot.is_none() {
        let (status, dispatch) = (status.clone(), dispatch.clone());
        *slot = spawn(Callback::from(move |r| answer(r, &status, &dispatch)));
    }
    slot
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
    let root = use_node_ref();
    let status = use_state(|| None::<Reply>);
    let link = use_mut_ref(|| None::<Link>);
    let in_link = use_memo((), |_| Stamp::in_fragment(&crate::web::hash()));
    {
        let (link, status, dispatch) = (link.clone(), status.clone(), props.dispatch.clone());
        use_effect_with((), move |_| drop(worker(&link, &status, &dispatch)));
    }
    let onclick = {
        let (root, status, dispatch, scenario) =
            (root.clone(), status.clone(), props.dispatch.clone(), props.model.scenario.clone());
        let in_link = in_link.clone();
        Callback::from(move |e: MouseEvent| {
            let Some(action) = e.target_dyn_into::<web_sys::Element>().and_then(|t| t.get_attribute("data-act")) else {
                return;
            };
            let Some(form) = root.cast::<web_sys::Element>() else { return };
            if action == "stamp" {
                return add_to_link(&status);
            }
            let claimed = (*in_link).clone().and_then(Result::ok).filter(|_| action == "recheck");
            let request = request_for(&action, &form, &scenario, claimed.as_ref());
            if action != "cancel" {
                let first = if action == "shrink" { "Shrinking…" } else { "Starting the checker…" };
                status.set(Some(Reply { kind: "progress".into(), text: first.into(), ..Reply::default() }));
            }
            let slot = worker(&link, &status, &dispatch);
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
    let form = use_memo((), |_| Html::from_html_unchecked(form_markup().into()));
    let busy = status.as_ref().is_some_and(|r| r.kind == "progress");
    let stamp = Html::from_html_unchecked(stamp_markup(in_link.as_ref().as_ref(), busy).into());
    let buttons = Html::from_html_unchecked(buttons_markup(busy, props.model.pending.is_some()).into());
    let below = Html::from_html_unchecked(status_markup(status.as_ref()).into());
    html! {
        <div class="checker" data-testid="checker-panel" ref={root} {onclick}>{ stamp }{ (*form).clone() }<div>{ buttons }</div><div>{ below }</div></div>
    }
}

/// The worker request a button asks for: a search from the form, the search a link's stamp names (a
/// re-check), a shrink, or a cancel.
fn request_for(action: &str, form: &web_sys::Element, scenario: &Scenario, claimed: Option<&Stamp>) -> String {
    let read = |name: &str| field(form, name);
    match (action, claimed) {
        ("recheck", Some(c)) => {
            let goal: Vec<&str> = c.goal.iter().map(|i| i.id()).collect();
            let claim = crate::link::proof_param(&crate::web::hash());
            let claim = claim.strip_prefix("&proof=");
            check_request(c.variant.id(), &goal, c.bounds, c.alphabet.id(), &settings(scenario), claim)
        }
        ("run", _) => {
            let goal = goal_for(&read("question"), |id| checked(form, id));
            let number = |name: &str| read(name).parse().unwrap_or(0);
            let bounds = [number("brokers"), number("records"), number("epochs"), number("depth")];
            check_request(&read("variant"), &goal, bounds, "default", &settings(scenario), None)
        }
        ("shrink", _) => shrink_request(&scenario.to_json(), &read("variant")),
        _ => cancel_request(),
    }
}

/// The questions a search can answer, the learner's first: what they came to see is a lost record or two
/// logs that disagree, not the ISR inconsistency (I4) that a search of every invariant finds first. Each
/// with the invariants it looks for (none listed: the ticked boxes).
const QUESTIONS: [(&str, &str, &[InvariantId]); 3] = [
    ("lose", "a committed record lost (I1, I2)", &[InvariantId::I1, InvariantId::I2]),
    ("diverge", "two replicas diverging (I3)", &[InvariantId::I3]),
    ("any", "any invariant ticked below", &[]),
];

/// The invariants a search looks for, for a question of [`QUESTIONS`].
fn goal_for(question: &str, ticked: impl Fn(&str) -> bool) -> Vec<&'static str> {
    match QUESTIONS.iter().find(|(key, _, _)| *key == question) {
        Some((_, _, goal)) if !goal.is_empty() => goal.iter().map(|i| i.id()).collect(),
        _ => default_goal().into_iter().map(InvariantId::id).filter(|id| ticked(id)).collect(),
    }
}

/// "Add to the share link": the address (which the share panel's link follows) carries the stamp from now on.
fn add_to_link(status: &UseStateHandle<Option<Reply>>) {
    let Some(mut reply) = (**status).clone() else { return };
    let Some(stamp) = reply.stamp.take() else { return };
    crate::web::replace_hash(&crate::link::with_proof(&crate::web::hash(), &stamp));
    reply.text.push_str(" The share link now carries this result as a bounded-proof stamp that anyone can re-check.");
    status.set(Some(reply));
}

/// A form field's value, by name.
fn field(form: &web_sys::Element, name: &str) -> String {
    let found = form.query_selector(&format!("[name={name}]")).ok().flatten();
    let select = found.as_ref().and_then(|e| e.dyn_ref::<HtmlSelectElement>().map(HtmlSelectElement::value));
    select
        .or_else(|| found.and_then(|e| e.dyn_ref::<HtmlInputElement>().map(HtmlInputElement::value)))
        .unwrap_or_default()
}

/// Whether an invariant's box is ticked.
fn checked(form: &web_sys::Element, id: &str) -> bool {
    let found = form.query_selector(&format!("input[value={id}]")).ok().flatten();
    found.and_then(|e| e.dyn_ref::<HtmlInputElement>().map(HtmlInputElement::checked)).unwrap_or(false)
}

/// The scenario's settings, without its events (the search starts from an empty cluster).
fn settings(s: &Scenario) -> String {
    Scenario { events: Vec::new(), ..s.clone() }.to_json()
}

/// The form, once: its bounds, limits and defaults are the core's (`checker::bounds`), the variant hw-truncation.
fn form_markup() -> String {
    let option = |v: &str, label: &str, on: bool| {
        format!("<option value=\"{v}\"{}>{label}</option>", if on { " selected" } else { "" })
    };
    let variants: String = Variant::ALL.iter().map(|v| option(v.id(), v.id(), *v == Variant::HwTruncation)).collect();
    let questions: String = QUESTIONS.iter().enumerate().map(|(i, (v, words, _))| option(v, words, i == 0)).collect();
    let number = |label: &str, b: Bound| {
        format!(
            "<label class=\"config__field\">{label} <input type=\"number\" name=\"{name}\" min=\"{}\" max=\"{}\" \
                 value=\"{}\" data-testid=\"checker-{name}\"></label>",
            b.min,
            b.max,
            b.default,
            name = b.name
        )
    };
    let brokers: String =
        (BROKERS.min..=BROKERS.max).map(|n| option(&n.to_string(), &n.to_string(), n == BROKERS.default)).collect();
    let goal: String = default_goal()
        .into_iter()
        .map(|i| {
            let id = i.id();
            format!(
                "<label class=\"config__check\" title=\"{}\"><input type=\"checkbox\" value=\"{id}\" checked \
                     data-testid=\"checker-invariant-{id}\">{id}</label>",
                i.name()
            )
        })
        .collect();
    format!(
        "<p class=\"checker__intro\">A breadth-first search over every sequence of events within the bounds, run in \
         the background: the first failure it finds is a shortest one. It starts from an empty cluster with this \
         scenario's settings. Shrink keeps only the events the scenario's gravest bug needs under the chosen variant.</p>\
         <fieldset class=\"checker__form\"><label class=\"config__field\">Look for <select name=\"question\" \
         data-testid=\"checker-question\">{questions}</select></label><label class=\"config__field\">Variant <select name=\"variant\" \
         data-testid=\"checker-variant\">{variants}</select></label><label class=\"config__field\">Brokers <select \
         name=\"brokers\" data-testid=\"checker-brokers\">{brokers}</select></label>{}{}{}<span class=\"checker__invariants\">\
         Invariants (for “any invariant ticked below”): {goal}</span></fieldset>",
        number("Records", RECORDS),
        number("Leader epochs", EPOCHS),
        number("Depth (events)", DEPTH)
    )
}

/// The buttons: their own raw node, whose text changes only when a run starts or ends, so that progress
/// reports never replace them (a button under the pointer or the keyboard focus stays).
/// While a lesson's question waits, Shrink is off: its reasons would say which invariant the scenario breaks
/// and why, the question's answer. (A search starts from an empty cluster, so it tells nothing about it.)
fn buttons_markup(busy: bool, question_waits: bool) -> String {
    let button = |act: &str, label: &str, off: bool| {
        format!(
            "<button type=\"button\" data-act=\"{act}\" data-testid=\"checker-{act}\"{}>{label}</button>",
            if off { " disabled" } else { "" }
        )
    };
    let waits = "<span class=\"checker__waits\" data-testid=\"checker-shrink-waits\">Shrink waits for the \
                 lesson's question: it would give the answer away.</span>";
    format!(
        "<div class=\"checker__buttons\">{}{}{}{}</div>",
        button("run", "Find the shortest failure", busy),
        button("cancel", "Cancel", !busy),
        button("shrink", "Shrink this scenario", busy || question_waits),
        if question_waits { waits } else { "" }
    )
}

/// A stamp the page was opened with: what it claims and a Re-check button, or why it could not be read.
fn stamp_markup(in_link: Option<&Result<Stamp, String>>, busy: bool) -> String {
    let Some(stamp) = in_link else { return String::new() };
    let body = match stamp {
        Ok(s) => format!(
            "This link carries a bounded proof: {}. <button type=\"button\" data-act=\"recheck\" \
             data-testid=\"checker-recheck\"{}>Re-check</button>",
            escape(&s.summary()),
            if busy { " disabled" } else { "" }
        ),
        Err(why) => format!(
            "This link's bounded-proof stamp could not be read ({}); the rest of the link opened as usual.",
            escape(why)
        ),
    };
    format!("<p class=\"checker__stamp\" data-testid=\"checker-stamp\">{body}</p>")
}

/// What the worker last said.
fn status_markup(reply: Option<&Reply>) -> String {
    let busy = reply.is_some_and(|r| r.kind == "progress");
    let Some(r) = reply else { return String::new() };
    let bar = if busy && r.max > 0 {
        format!("<progress max=\"{}\" value=\"{}\" aria-label=\"Depth explored\"></progress> ", r.max, r.depth)
    } else {
        String::new()
    };
    let list: String = r.list.iter().map(|line| format!("<li>{}</li>", escape(line))).collect();
    let list = if list.is_empty() {
        list
    } else {
        format!("<ul class=\"checker__reasons\" data-testid=\"checker-reasons\">{list}</ul>")
    };
    let testid = if busy { "checker-progress" } else { "checker-result" };
    let add = if r.stamp.is_some() {
        " <button type=\"button\" data-act=\"stamp\" data-testid=\"checker-add-stamp\">Add to the share link</button>"
    } else {
        ""
    };
    format!(
        "<div class=\"checker__result\" role=\"status\" data-testid=\"{testid}\">{bar}<span>{}</span>{add}{list}</div>",
        escape(&r.text)
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_learners_question_comes_first_and_decides_the_goal() {
        let form = form_markup();
        assert!(form.contains("<option value=\"lose\" selected>a committed record lost (I1, I2)"), "{form}");
        let none_ticked = |_: &str| false;
        assert_eq!(goal_for("lose", none_ticked), ["I1", "I2"]);
        assert_eq!(goal_for("diverge", none_ticked), ["I3"]);
        assert_eq!(goal_for("any", |id| id != "I4"), ["I1", "I2", "I3", "I5", "I7", "L1"]);
    }

    #[test]
    fn the_markup_escapes_what_the_worker_says_and_disables_buttons_while_busy() {
        let busy = Reply { kind: "progress".into(), text: "1 states".into(), depth: 2, max: 12, ..Reply::default() };
        let b = buttons_markup(true, false);
        assert!(b.contains("data-testid=\"checker-run\" disabled") && !b.contains("checker-cancel\" disabled"), "{b}");
        let idle = buttons_markup(false, false);
        assert!(idle.contains("checker-cancel\" disabled") && !idle.contains("checker-shrink\" disabled"), "{idle}");
        let asked = buttons_markup(false, true);
        assert!(!asked.contains("checker-run\" disabled") && asked.contains("checker-shrink\" disabled"), "{asked}");
        assert!(asked.contains("checker-shrink-waits") && !idle.contains("checker-shrink-waits"));
        let m = status_markup(Some(&busy));
        assert!(m.contains("<progress max=\"12\" value=\"2\""), "{m}");
        let done =
            Reply { kind: "done".into(), text: "a <b> & c".into(), list: vec!["x<y".into()], ..Reply::default() };
        let m = status_markup(Some(&done));
        assert!(m.contains("a &lt;b&gt; &amp; c") && m.contains("<li>x&lt;y</li>"), "{m}");
        assert!(m.contains("data-testid=\"checker-result\""), "{m}");
        let stamped = Reply { kind: "done".into(), stamp: Some("1~x".into()), ..Reply::default() };
        assert!(status_markup(Some(&stamped)).contains("data-act=\"stamp\""));
        assert!(!status_markup(Some(&done)).contains("data-act=\"stamp\""));
        assert_eq!(stamp_markup(None, false), "");
        let bad = stamp_markup(Some(&Stamp::parse("1~<b>")), false);
        assert!(bad.contains("could not be read (it has 2 fields") && !bad.contains("<b>"), "{bad}");
        let form = form_markup();
        assert!(
            form.contains("<option value=\"hw-truncation\" selected>") && form.contains("name=\"depth\""),
            "{form}"
        );
    }
}
