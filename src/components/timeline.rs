//! The timeline: steps run left to right as columns, one lane per broker plus the cluster lane. Chips can be
//! dragged in time and between lanes, dropped off the timeline to delete them, or moved with the keyboard.

use epochlab_core::scenario::edit::Lane;
use epochlab_core::scenario::Event;
use web_sys::{KeyboardEvent, PointerEvent};
use yew::prelude::*;

use crate::drag::DropTarget;
use crate::icons::kind_info;
use crate::model::{Action, Model, PlaceSource};
use crate::pointer_drag::{lane_name, PointerDrag};

/// Props.
#[derive(Properties, PartialEq, Clone)]
pub struct TimelineProps {
    /// The model.
    pub model: std::rc::Rc<Model>,
    /// Dispatch.
    pub dispatch: Callback<Action>,
    /// The drag controller.
    pub drag: PointerDrag,
}

/// A chip's short text: the fields that matter at a glance.
pub fn chip_text(event: &Event) -> String {
    let label = kind_info(event.kind()).1;
    match event {
        Event::Produce { record, acks, .. } => {
            let name = record.clone().unwrap_or_else(|| "record".to_string());
            if acks.label() == "all" {
                name
            } else {
                format!("{name} acks={}", acks.label())
            }
        }
        Event::Fetch { drop_response: true, .. } => "Fetch, lost".to_string(),
        Event::Crash { power, notify_controller, .. } => {
            let mut s = if *power { "Power loss".to_string() } else { "Crash".to_string() };
            if !notify_controller {
                s.push_str(", silent");
            }
            s
        }
        Event::Restart { deliver: false, .. } => "Restart, held".to_string(),
        Event::Elect { broker, .. } => match broker {
            Some(b) => format!("Elect {b}"),
            None => "Elect".to_string(),
        },
        _ => label.to_string(),
    }
}

/// Where an indicator is drawn: (lane, position, problem, from the keyboard).
fn indicator(model: &Model, drag: &PointerDrag) -> Option<(usize, usize, Option<String>, bool)> {
    if let Some(DropTarget::Gap { lane, position, problem }) = drag.view.as_ref().and_then(|v| v.target.clone()) {
        return Some((lane, position, problem, false));
    }
    let p = model.placing.as_ref()?;
    // A moved chip is placed at its index after the move; draw the gap where it will land.
    let position = match p.source {
        PlaceSource::Existing(from) if p.position > from => p.position + 1,
        _ => p.position,
    };
    Some((p.lane, position, model.placing_problem(), true))
}

fn indicator_html(problem: &Option<String>, keyboard: bool) -> Html {
    let class = classes!(
        "drop-indicator",
        problem.is_some().then_some("drop-indicator--refused"),
        keyboard.then_some("drop-indicator--keyboard")
    );
    html! {
        <div {class} data-testid="drop-indicator" aria-hidden="true">
            { for problem.iter().map(|p| html! { <span class="drop-indicator__why">{ p }</span> }) }
        </div>
    }
}

/// The timeline.
#[function_component(Timeline)]
pub fn timeline(props: &TimelineProps) -> Html {
    let model = &props.model;
    let n = model.scenario.events.len();
    let lanes = model.lanes();
    let marker = indicator(model, &props.drag);
    let dragging = props.drag.view.as_ref().map(|v| v.source.clone());
    let style = format!("--steps: {}", n + 1);

    let header = (0..n).map(|i| step_header(model, i, &props.dispatch));
    let rows = lanes.iter().enumerate().map(|(li, lane)| {
        let label = match lane {
            Lane::Broker(b) => b.clone(),
            Lane::Cluster => "cluster".to_string(),
        };
        let cells = (0..=n).map(|i| {
            let here = marker.as_ref().filter(|(l, p, _, _)| *l == li && *p == i);
            let chip = model.scenario.events.get(i).filter(|e| Lane::of(e) == *lane).map(|e| {
                let moving = dragging == Some(PlaceSource::Existing(i));
                chip(model, i, e, moving, props)
            });
            let step = if i < n { i.to_string() } else { "end".to_string() };
            let class = classes!("timeline__cell", (i == n).then_some("timeline__cell--end"), (Some(i) == model.cursor).then_some("timeline__cell--current"));
            html! {
                <div {class} data-drop-lane={li.to_string()} data-drop-step={step}>
                    { for here.map(|(_, _, problem, kb)| indicator_html(problem, *kb)) }
                    { for chip }
                </div>
            }
        });
        html! {
            <>
                <div class={classes!("timeline__lane", matches!(lane, Lane::Cluster).then_some("timeline__lane--cluster"))}
                    data-testid={format!("lane-{label}")}>{ label }</div>
                { for cells }
            </>
        }
    });

    let placing_help = model.placing.as_ref().map(|p| {
        let what = match &p.source {
            PlaceSource::New(k) => format!("new {}", kind_info(k).1),
            PlaceSource::Existing(i) => format!("step {i}"),
        };
        let lane = lanes.get(p.lane).map(lane_name).unwrap_or_default();
        let problem = model.placing_problem().map(|p| format!(" Refused here: {p}.")).unwrap_or_default();
        format!("Placing {what} on {lane} before step {}. ←/→ choose the step, ↑/↓ the lane, Enter to place, Escape to cancel.{problem}", p.position)
    });

    html! {
        <section class={classes!("timeline", dragging.is_some().then_some("timeline--dragging"))} aria-label="Timeline">
            <div class="timeline__scroll">
                <div class="timeline__grid" {style}>
                    <div class="timeline__corner">{ "step" }</div>
                    { for header }
                    <div class="timeline__step timeline__step--end" aria-hidden="true">{ "+" }</div>
                    { for rows }
                </div>
            </div>
            <p class="timeline__live" aria-live="polite" data-testid="placing-help">{ placing_help.unwrap_or_default() }</p>
        </section>
    }
}

fn step_header(model: &Model, i: usize, dispatch: &Callback<Action>) -> Html {
    let current = Some(i) == model.cursor;
    let bugs: Vec<String> = model
        .traces
        .iter()
        .flat_map(|t| {
            t.violations
                .iter()
                .filter(|v| v.step as usize == i && !v.by_design)
                .map(move |v| format!("{}: {}", t.variant.id(), v.invariant))
        })
        .collect();
    let differs = model.variants.len() > 1 && model.first_difference == Some(i as u32);
    let kind = model.scenario.events[i].kind();
    let mut title = format!("Show the state after step {i} ({kind})");
    if differs {
        title.push_str(". The variants part ways here.");
    }
    if !bugs.is_empty() {
        title.push_str(&format!(". Fails here: {}", bugs.join(", ")));
    }
    let onclick = dispatch.reform(move |_| Action::SetCursor(Some(i)));
    let class = classes!(
        "timeline__step",
        current.then_some("timeline__step--current"),
        differs.then_some("timeline__step--differs"),
        (!bugs.is_empty()).then_some("timeline__step--bug")
    );
    html! {
        <button type="button" {class} {onclick} aria-label={title.clone()} {title} aria-current={current.then_some("step")} data-testid={format!("step-{i}")}>
            <span class="timeline__step-number">{ i }</span>
            { if differs { html! { <span class="timeline__mark timeline__mark--differs" aria-hidden="true">{ "≠" }</span> } } else { html! {} } }
            { if bugs.is_empty() { html! {} } else { html! { <span class="timeline__mark timeline__mark--bug" aria-hidden="true">{ "!" }</span> } } }
        </button>
    }
}

fn chip(model: &Model, i: usize, event: &Event, moving: bool, props: &TimelineProps) -> Html {
    let kind = event.kind();
    let (icon, label, _) = kind_info(kind);
    let text = chip_text(event);
    let reasons: Vec<(String, &'static str)> = model
        .traces
        .iter()
        .filter_map(|t| t.steps.get(i).and_then(|s| s.outcome.reason()).map(|r| (t.variant.id().to_string(), r)))
        .collect();
    let rejected = reasons.first().map(|(_, r)| *r);
    let mut aria = format!("Step {i}: {text}");
    if let Some(b) = event.broker() {
        aria.push_str(&format!(" on {b}"));
    }
    if !reasons.is_empty() {
        let list: Vec<String> = reasons.iter().map(|(v, r)| format!("{r} under {v}")).collect();
        aria.push_str(&format!(", rejected: {}", list.join(", ")));
    }
    let title = model.primary().and_then(|t| t.steps.get(i)).map(|s| s.narration.clone()).unwrap_or_default();
    let onpointerdown = {
        let start = props.drag.start.clone();
        Callback::from(move |e: PointerEvent| start.emit((PlaceSource::Existing(i), e)))
    };
    let onclick = {
        let dispatch = props.dispatch.clone();
        let suppress = props.drag.suppress_click.clone();
        Callback::from(move |_| {
            if !suppress.replace(false) {
                dispatch.emit(Action::Select(Some(i)));
            }
        })
    };
    let onkeydown = {
        let dispatch = props.dispatch.clone();
        Callback::from(move |e: KeyboardEvent| match e.key().as_str() {
            "Delete" | "Backspace" => {
                e.prevent_default();
                dispatch.emit(Action::Remove(i));
            }
            "m" | "M" => {
                e.prevent_default();
                dispatch.emit(Action::StartPlacing(PlaceSource::Existing(i)));
            }
            _ => {}
        })
    };
    let class = classes!(
        "chip",
        format!("chip--{kind}"),
        (model.selected == Some(i)).then_some("chip--selected"),
        rejected.is_some().then_some("chip--rejected"),
        moving.then_some("chip--moving"),
    );
    html! {
        <button type="button" {class} data-testid={format!("chip-{i}")} data-kind={kind} {title}
            aria-label={format!("{aria}. Enter to edit, M to move with the arrow keys, Delete to remove.")}
            aria-pressed={(model.selected == Some(i)).to_string()} {onpointerdown} {onclick} {onkeydown}>
            <span class="chip__icon" aria-hidden="true">{ icon }</span>
            <span class="chip__label">{ if text.is_empty() { label.to_string() } else { text } }</span>
            { for rejected.map(|r| html! { <span class="chip__reason" data-testid={format!("chip-{i}-reason")}>{ r }</span> }) }
        </button>
    }
}
