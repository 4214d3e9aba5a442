//! "Find the shortest failure": the model checker's panel, drawn by the lessons module. The search and the
//! shrinker run in a Web Worker (`crate::checker`), spawned when the panel opens (not with the page), so
//! the page neither downloads it before nor stutters while it runs; it warms itself up while the user picks
//! the bounds. What it finds opens on the timeline through an undoable action; a stamp goes on the address
//! through the page, the one program that writes it.

mod form;
mod link;
mod status;

use std::cell::RefCell;

use epochlab_core::checker::Stamp;
use yew::prelude::*;

use crate::checker::protocol::{CheckReply, CheckRequest, Underway};
use crate::components::{Dispatch, LessonsProps};
use crate::model::Action;
use crate::model::LoadAction;
use form::{CheckForm, Choice, Edit};
use link::Link;
use status::{CheckStatus, LinkStamp};

/// The panel.
#[function_component(CheckerPanel)]
pub fn checker_panel(props: &LessonsProps) -> Html {
    let status = use_state(|| None::<CheckReply>);
    let choice = use_state(Choice::default);
    let link = use_mut_ref(|| None::<Link>);
    let in_link = use_memo((), |_| Stamp::in_fragment(&crate::browser::web::hash()));
    let ask = {
        let (link, status, dispatch) = (link.clone(), status.clone(), props.dispatch.clone());
        Callback::from(move |request: CheckRequest| ask(&link, &status, &dispatch, request))
    };
    {
        let (link, status, dispatch) = (link.clone(), status.clone(), props.dispatch.clone());
        use_effect_with((), move |_| drop(worker(&link, &status, &dispatch)));
    }
    let on_edit = {
        let choice = choice.clone();
        Callback::from(move |edit: Edit| choice.set((*choice).clone().with(edit)))
    };
    let on_recheck = {
        let (config, choice) = (props.model.shown.scenario.config.clone(), choice.clone());
        ask.reform(move |stamp: Stamp| {
            // The form shows the stamp's search, not what was ticked before: a claim about I7 alone is
            // re-checked, and seen, as one.
            choice.set(Choice::of_stamp(&stamp));
            CheckRequest::Check { search: Box::new(stamp.search(&config)), claim: Some(stamp) }
        })
    };
    let on_add_stamp = add_stamp(&status, &props.dispatch);
    let busy = status.as_ref().is_some_and(CheckReply::is_busy);
    let model = &props.model;
    let buttons = Buttons { busy, question_waits: model.pending.is_some() };
    let run = {
        let (choice, status, config) = (choice.clone(), status.clone(), model.shown.scenario.config.clone());
        let ask = ask.clone();
        Callback::from(move |_: MouseEvent| match choice.search(&config) {
            Ok(search) => ask.emit(CheckRequest::Check { search: Box::new(search), claim: None }),
            Err(why) => status.set(Some(CheckReply::Failed(format!("Could not run: {why}.")))),
        })
    };
    let shrink = {
        let (scenario, variant) = (model.shown.scenario.clone(), choice.variant);
        ask.reform(move |_: MouseEvent| CheckRequest::Shrink { scenario: Box::new((*scenario).clone()), variant })
    };
    html! {
        <div class="checker" data-testid="checker-panel">
            <LinkStamp in_link={(*in_link).clone()} {busy} {on_recheck} />
            <p class="checker__intro">{ INTRO }</p>
            <CheckForm choice={(*choice).clone()} {on_edit} />
            { buttons.view(run, ask.reform(|_: MouseEvent| CheckRequest::Cancel), shrink) }
            <CheckStatus reply={(*status).clone()} {on_add_stamp} />
        </div>
    }
}

const INTRO: &str = "A breadth-first search over every sequence of events within the bounds, run in the background: \
                     the first failure it finds is a shortest one. It starts from an empty cluster with this \
                     scenario's settings. Shrink keeps only the events the scenario's gravest bug needs under the \
                     chosen variant.";

/// Send a request to the worker (started if need be), saying at once that it started.
fn ask(
    link: &RefCell<Option<Link>>,
    status: &UseStateHandle<Option<CheckReply>>,
    dispatch: &Dispatch,
    request: CheckRequest,
) {
    let first = match &request {
        CheckRequest::Cancel => None,
        CheckRequest::Shrink { .. } => Some("Shrinking…"),
        CheckRequest::Check { .. } => Some("Starting the checker…"),
    };
    let slot = worker(link, status, dispatch);
    let Some(worker) = slot.as_ref() else {
        return status.set(Some(CheckReply::Failed("this browser could not start a Web Worker".into())));
    };
    if let Some(text) = first {
        status.set(Some(CheckReply::Progress(Underway { text: text.into(), depth: 0, max: 0 })));
    }
    worker.send(&request);
}

/// The panel's worker, started if it is not running.
fn worker<'a>(
    link: &'a RefCell<Option<Link>>,
    status: &UseStateHandle<Option<CheckReply>>,
    dispatch: &Dispatch,
) -> std::cell::RefMut<'a, Option<Link>> {
    let mut slot = link.borrow_mut();
    if slot.as_ref().is_none_or(Link::is_dead) {
        let (status, dispatch) = (status.clone(), dispatch.clone());
        let failed = status.clone();
        let on_failed = Callback::from(move |why: String| {
            failed.set(Some(CheckReply::Failed(format!(
                "The checker could not start or stopped ({why}). Press Run or Shrink to try again."
            ))))
        });
        *slot = Link::spawn(Callback::from(move |r| answer(r, &status, &dispatch)), on_failed);
    }
    slot
}

/// What a reply does: the panel shows it, and a scenario it carries opens on the timeline.
fn answer(reply: Result<CheckReply, String>, status: &UseStateHandle<Option<CheckReply>>, dispatch: &Dispatch) {
    let reply = reply
        .unwrap_or_else(|why| CheckReply::Failed(format!("The checker sent a message this page cannot read: {why}.")));
    if let CheckReply::Done(v) = &reply {
        if let Some(found) = &v.found {
            let (scenario, cursor, what) = (found.scenario.clone(), found.cursor, found.notice.clone());
            dispatch.emit(Action::Load(LoadAction::Found { scenario, cursor, what }));
        }
    }
    status.set(Some(reply));
}

/// "Add to the share link": the page puts the stamp on the address (which the share panel's link follows).
fn add_stamp(status: &UseStateHandle<Option<CheckReply>>, dispatch: &Dispatch) -> Callback<Stamp> {
    let (status, dispatch) = (status.clone(), dispatch.clone());
    Callback::from(move |stamp: Stamp| {
        let Some(CheckReply::Done(mut verdict)) = (*status).clone() else { return };
        dispatch.emit(Action::Load(LoadAction::AddProof(stamp.to_string())));
        verdict.stamp = None;
        verdict
            .text
            .push_str(" The share link now carries this result as a bounded-proof stamp that anyone can re-check.");
        status.set(Some(CheckReply::Done(verdict)));
    })
}

/// The buttons, and whether each is off. While a lesson's question waits, Shrink is off: its reasons would
/// say which invariant the scenario breaks and why, the question's answer. (A search starts from an empty
/// cluster, so it tells nothing about it.)
struct Buttons {
    busy: bool,
    question_waits: bool,
}

impl Buttons {
    fn view(&self, run: Callback<MouseEvent>, cancel: Callback<MouseEvent>, shrink: Callback<MouseEvent>) -> Html {
        let waits = self.question_waits.then(|| html! {
            <span class="checker__waits" data-testid="checker-shrink-waits">{ "Shrink waits for the lesson's question: it would give the answer away." }</span>
        });
        html! {
            <div><div class="checker__buttons">
                { off_button(run, self.busy, "checker-run", "Find the shortest failure") }
                { off_button(cancel, !self.busy, "checker-cancel", "Cancel") }
                { off_button(shrink, self.busy || self.question_waits, "checker-shrink", "Shrink this scenario") }
                { for waits }
            </div></div>
        }
    }
}

/// A button that may be off: `aria-disabled` and its click ignored, not `disabled`, which would drop the
/// keyboard focus to the page when Run turns itself off.
fn off_button(onclick: Callback<MouseEvent>, off: bool, testid: &'static str, label: &'static str) -> Html {
    let onclick = if off { Callback::noop() } else { onclick };
    html! { <button type="button" {onclick} aria-disabled={off.to_string()} data-testid={testid}>{ label }</button> }
}
