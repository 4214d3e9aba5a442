//! One variant's side of the comparison: its verdict, the brokers' logs at the cursor, what the step did,
//! and the invariants, each linking to the step where it first fails.

use std::rc::Rc;

use epochlab_core::invariants::InvariantId;
use epochlab_core::lesson::Highlight;
use epochlab_core::presets::verdict_of;
use epochlab_core::reads::{self, Read};
use epochlab_core::variant::KafkaVersion;
use epochlab_core::verdict::{invariant_list, not_now, verdict_text, verdict_tooltip, Entry, HeldByRefusal};
use epochlab_core::view::StepView;
use epochlab_core::Trace;
use yew::prelude::*;

use super::explanation::Explanation;
use super::log_grid::LogGrid;
use super::reads::consumer_reads;
use crate::model::bridge::Painting;
use crate::model::question::NEUTRAL;
use crate::model::Action;
use crate::model::{CursorAction, Shared};

/// Props.
#[derive(Properties, Clone, PartialEq)]
pub struct VariantPanelProps {
    /// All traces (shared), and which one this panel shows.
    pub traces: Shared<Vec<epochlab_core::Trace>>,
    /// Index of this panel's trace.
    pub index: usize,
    /// The cursor.
    pub step: Option<usize>,
    /// The variant's view at the cursor (on the grid shared by every panel), shared with the log grid.
    pub view: Rc<StepView>,
    /// Whether it holds only because min.insync.replicas refused writes (computed once per re-run).
    pub held: Option<HeldByRefusal>,
    /// Dispatch (for the invariant links).
    pub dispatch: Callback<Action>,
    /// What a lesson's step points at.
    #[prop_or_default]
    pub marks: Rc<Vec<Highlight>>,
    /// A lesson's question waits: the trace ends before the step asked about, so no verdict is given.
    #[prop_or_default]
    pub pending: bool,
    /// The log a lesson's question asks to paint (drawn when it is this variant's).
    #[prop_or_default]
    pub painting: Option<Rc<Painting>>,
    /// The Kafka release the scenario runs as, which names the column that runs it.
    #[prop_or_default]
    pub release: Option<KafkaVersion>,
}

/// What consumers read under one variant, the last re-run's traces it was worked out from, and which of them.
type KeptReads = Option<(Shared<Vec<Trace>>, usize, Rc<Vec<Read>>)>;

/// What consumers read changes with the traces, not with the cursor: worked out once per re-run, and kept
/// when the re-run only appended steps that change none of it (at the event limit, keeping it took about 2 ms
/// off a drop's 15).
#[hook]
fn use_reads(traces: &Shared<Vec<Trace>>, index: usize) -> Rc<Vec<Read>> {
    let kept = use_mut_ref(KeptReads::default);
    let mut kept = kept.borrow_mut();
    let Some(trace) = traces.get(index) else { return Rc::default() };
    let seen = match kept.as_ref() {
        Some((t, i, seen)) if t == traces && *i == index => return seen.clone(),
        Some((t, i, seen)) if t.get(*i).is_some_and(|old| reads::unchanged(old, seen, trace)) => seen.clone(),
        _ => Rc::new(reads::reads(trace)),
    };
    *kept = Some((traces.clone(), index, seen.clone()));
    seen
}

/// One violation, linking to the step where it first holds; dimmed (and saying so) when it does not hold
/// at the step shown.
fn violation_item(trace: &Trace, e: Entry, id: &str, dispatch: &Callback<Action>) -> Html {
    let viol = &trace.violations[e.index];
    let step = viol.step as usize;
    let onclick = dispatch.reform(move |_| Action::Cursor(CursorAction::Set(Some(step))));
    let class =
        classes!("violation", viol.by_design.then_some("violation--allowed"), e.holds_now.then_some("violation--now"));
    html! {
        <li {class} data-testid={format!("violation-{id}-{}", viol.invariant)} data-now={e.holds_now.to_string()}>
            <span class="violation__id">{ viol.invariant.id() }</span>
            <span class="violation__tag">{ if viol.by_design { "allowed" } else { "bug" } }</span>
            <span class="violation__name">{ viol.invariant.name() }</span>
            <button type="button" class="violation__step" {onclick}
                aria-label={format!("Go to step {step}, where {} first holds", viol.invariant)}>{ format!("step {step}") }</button>
            if !e.holds_now { <span class="violation__when" data-testid="violation-not-now">{ not_now(viol.step) }</span> }
            <p class="violation__message">{ &viol.message }</p>
        </li>
    }
}

/// The invariants: bugs first, then the losses Kafka allows, collapsed by reason.
fn invariants_html(trace: &Trace, step: Option<usize>, id: &str, dispatch: &Callback<Action>) -> Html {
    if trace.violations.is_empty() {
        return html! { <p class="invariants__none">{ "Every invariant holds at every step." }</p> };
    }
    let list = invariant_list(trace, step);
    html! {
        <>
            if !list.bugs.is_empty() {
                <ul class="invariants__list" data-testid={format!("bugs-{id}")}>
                    { for list.bugs.iter().map(|e| violation_item(trace, *e, id, dispatch)) }
                </ul>
            }
            { for list.allowed.iter().map(|g| html! {
                <details class="invariants__allowed" data-testid={format!("allowed-{id}")}>
                    <summary>{ g.summary() }</summary>
                    <ul class="invariants__list">
                        { for g.entries.iter().map(|e| violation_item(trace, *e, id, dispatch)) }
                    </ul>
                </details>
            }) }
        </>
    }
}

/// A variant's panel.
#[function_component(VariantPanel)]
pub fn variant_panel(props: &VariantPanelProps) -> Html {
    let seen = use_reads(&props.traces, props.index);
    let Some(trace) = props.traces.get(props.index) else { return html! {} };
    let v = &props.view;
    let id = trace.variant.id();
    let (bugs, allowed) = verdict_of(trace);
    let verdict_class = classes!(
        "verdict",
        if bugs.is_empty() { "verdict--ok" } else { "verdict--bug" },
        props.held.as_ref().map(|_| "verdict--held")
    );
    let verdict = if props.pending { NEUTRAL.to_string() } else { verdict_text(&bugs, props.held.as_ref()) };
    // What the badge covers and what each invariant it names is (none while a question waits: that would tell).
    let tooltip = (!props.pending).then(|| verdict_tooltip(&bugs));
    let verdict_class = classes!(verdict_class, props.pending.then_some("verdict--pending"));
    let allowed_note = if allowed.is_empty() || props.pending {
        String::new()
    } else {
        format!("allowed: {}", InvariantId::join(&allowed, ", "))
    };
    let flags: Vec<&str> = trace.flags.iter().map(|f| f.id()).collect();
    html! {
        <article class="variant" data-testid={format!("variant-{id}")} aria-label={format!("Variant {id}")}>
            <header class="variant__head">
                <h2 class="variant__title">{ title(trace, props.release) }<span class="variant__subtitle">{ subtitle(trace) }</span></h2>
                <span class={verdict_class} data-testid={format!("verdict-{id}")} title={tooltip}>{ verdict }</span>
                if !allowed_note.is_empty() { <span class="verdict verdict--allowed">{ allowed_note }</span> }
            </header>
            if !flags.is_empty() { <p class="variant__flags">{ format!("flags: {}", flags.join(", ")) }</p> }
            <p class="variant__controller">
                { controller_line(v) }
            </p>
            <LogGrid view={v.clone()} variant={id} marks={props.marks.clone()} painting={props.painting.clone().filter(|p| p.variant == trace.variant)} />
            { consumer_reads(trace, &seen, props.step, &props.dispatch) }
            <Explanation trace={props.traces.clone()} index={props.index} step={props.step} />
            <section class="invariants" aria-label={format!("Invariants under {id}")}>
                <h3 class="invariants__title">{ "Invariants" }</h3>
                if props.pending && trace.violations.is_empty() {
                    <p class="invariants__none invariants__none--pending">{ NEUTRAL }</p>
                } else { { invariants_html(trace, props.step, id, &props.dispatch) } }
            </section>
        </article>
    }
}

/// "Controller: leader A · epoch 2 · ISR {A} · ELR {B}" (the ELR only while it has members); under KRaft
/// "leader epoch 2 · partition epoch 5".
fn controller_line(v: &StepView) -> String {
    let elr = if v.controller_elr.is_empty() {
        String::new()
    } else {
        format!(" · ELR {{{}}}", v.controller_elr.join(", "))
    };
    let epochs = match v.partition_epoch {
        Some(p) => format!("leader epoch {} · partition epoch {p}", v.controller_epoch),
        None => format!("epoch {}", v.controller_epoch),
    };
    format!(
        "Controller: leader {} · {epochs} · ISR {{{}}}{elr}",
        v.controller_leader.as_deref().unwrap_or("none"),
        v.controller_isr.join(", ")
    )
}

/// A column's title: the release it runs ("Kafka 3.7"), else its variant's id.
fn title(trace: &Trace, release: Option<KafkaVersion>) -> String {
    match (trace.rules.line, release) {
        (Some(_), Some(release)) => format!("Kafka {}", release.id()),
        _ => trace.variant.id().to_string(),
    }
}

/// Under a release's title, the variant it runs as and its line; else the variant's own title.
fn subtitle(trace: &Trace) -> String {
    let mode = if trace.rules.control.kraft() { " (KRaft)" } else { "" };
    match trace.rules.line {
        Some(line) => format!("runs as {}: the {} line as shipped{mode}", trace.variant.id(), line.label()),
        None => trace.variant.title().to_string(),
    }
}
