//! The timeline: steps run left to right as columns, one lane per broker plus the cluster lane. Chips can be
//! dragged in time and between lanes, dropped off the timeline to delete them, or moved with the keyboard.

use std::cell::Cell;
use std::rc::Rc;

use epochlab_core::scenario::edit::Lane;
use epochlab_core::scenario::{Event, EventKind};
use epochlab_core::view::summary;
use wasm_bindgen::JsCast;
use web_sys::{KeyboardEvent, MouseEvent, PointerEvent};
use yew::prelude::*;

use crate::browser::pointer_drag::PointerDrag;
use crate::browser::viewport::{rendered, use_scroll_window};
use crate::formats::icons::kind_info;
use crate::model::drag::{gap_position, DropTarget};
use crate::model::{Action, Model, PlaceSource};
use crate::model::{CursorAction, EditAction, PlaceAction};

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

/// A chip's short text: the fields that matter at a glance. `produced`: the record the step appended, as
/// the log names it (an unnamed produce shows `r0`, `r1`, … as the log does; a refused one, its kind).
pub fn chip_text(event: &Event, produced: Option<&str>) -> String {
    let label = kind_info(event.kind()).1;
    match event {
        Event::Produce { record, acks, .. } => {
            let name = record.as_deref().or(produced).unwrap_or(label).to_string();
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

/// Where the indicator's reason goes, so that it stays inside the timeline's scroller: above the
/// indicator on the last lane (below would leave the scroller), and to its left near the end of the steps.
#[derive(Clone, Copy, PartialEq)]
struct ReasonSide {
    above: bool,
    leftward: bool,
}

fn indicator_html(problem: &Option<String>, keyboard: bool, side: ReasonSide) -> Html {
    let class = classes!(
        "drop-indicator",
        problem.is_some().then_some("drop-indicator--refused"),
        keyboard.then_some("drop-indicator--keyboard")
    );
    let why = classes!(
        "drop-indicator__why",
        side.above.then_some("drop-indicator__why--above"),
        side.leftward.then_some("drop-indicator__why--leftward")
    );
    html! {
        <div {class} data-testid="drop-indicator" aria-hidden="true">
            { for problem.iter().map(|p| html! { <span class={why.clone()} data-testid="drop-indicator-why">{ p }</span> }) }
        </div>
    }
}

/// Where a tap or click on a cell places during a placement: before the step on its left half, after it on
/// its right half, at the end on the trailing cell.
fn tap_gap(e: &MouseEvent, step: usize, end: bool) -> usize {
    // The trailing cell's column is the timeline's length: a tap there appends.
    if end {
        return step;
    }
    let Some(cell) = e.current_target().and_then(|t| t.dyn_into::<web_sys::Element>().ok()) else { return step };
    let rect = cell.get_bounding_client_rect();
    gap_position(Some(step), step + 1, e.client_x() as f64 - rect.left(), rect.width())
}

/// A `Rc<Cell<bool>>` compared by identity, so that column props stay equal across renders.
#[derive(Clone)]
pub struct SharedFlag(pub Rc<Cell<bool>>);

impl PartialEq for SharedFlag {
    fn eq(&self, other: &Self) -> bool {
        Rc::ptr_eq(&self.0, &other.0)
    }
}

/// What a timeline chip shows.
#[derive(Clone, PartialEq)]
struct ChipData {
    kind: EventKind,
    lane: usize,
    text: String,
    /// What a screen reader hears after the chip's text: its broker and every rejection.
    aria: String,
    title: String,
    rejected: Option<&'static str>,
    selected: bool,
    moving: bool,
    /// The lesson's explanation points at it.
    marked: bool,
}

/// One step's column: its header and one cell per lane. Everything it shows is in its props, so an
/// unchanged column is skipped when the cursor moves or another step is edited.
#[derive(Properties, Clone, PartialEq)]
struct ColumnProps {
    /// The step, or the number of events for the trailing "end" column.
    step: usize,
    end: bool,
    lanes: usize,
    kind: Option<EventKind>,
    chip: Option<ChipData>,
    current: bool,
    differs: bool,
    bugs: Vec<String>,
    /// A drop indicator at this column's left edge: (lane, why it would be refused, from the keyboard).
    marker: Option<(usize, Option<String>, bool)>,
    /// Near the end of the steps: a refused drop's reason opens to the left.
    near_end: bool,
    /// A placement is under way: a tap or click on a cell places there.
    placing: bool,
    dispatch: Callback<Action>,
    drag_start: Callback<(PlaceSource, PointerEvent)>,
    suppress: SharedFlag,
}

#[function_component(Column)]
fn column(p: &ColumnProps) -> Html {
    let i = p.step;
    // Explicit placement: columns outside the rendered window leave their tracks empty.
    let at = |row: usize| format!("grid-column: {}; grid-row: {}", i + 1, row + 1);
    let header = if p.end {
        html! { <div class="timeline__step timeline__step--end" style={at(0)} aria-hidden="true">{ "+" }</div> }
    } else {
        step_header(i, p.kind, p.current, p.differs, &p.bugs, &p.dispatch, at(0))
    };
    let cells = (0..p.lanes).map(|li| {
        let here = p.marker.as_ref().filter(|(l, _, _)| *l == li);
        let side = ReasonSide { above: li + 1 == p.lanes, leftward: p.near_end };
        let onclick = p.placing.then(|| {
            let (dispatch, step, end) = (p.dispatch.clone(), i, p.end);
            Callback::from(move |e: MouseEvent| {
                dispatch.emit(Action::Place(PlaceAction::At { lane: li, gap: tap_gap(&e, step, end) }))
            })
        });
        let chip = p.chip.as_ref().filter(|c| c.lane == li).map(|c| chip(i, c, p));
        let step = if p.end { "end".to_string() } else { i.to_string() };
        let class = classes!(
            "timeline__cell",
            p.end.then_some("timeline__cell--end"),
            p.current.then_some("timeline__cell--current"),
            here.is_some().then_some("timeline__cell--marked")
        );
        html! {
            <div {class} style={at(li + 1)} data-drop-lane={li.to_string()} data-drop-step={step} {onclick}>
                { for here.map(|(_, problem, kb)| indicator_html(problem, *kb, side)) }
                { for chip }
            </div>
        }
    });
    html! { <>{ header }{ for cells }</> }
}

/// A lane's label, left of the steps.
fn lane_label(lane: &Lane) -> Html {
    let label = match lane {
        Lane::Broker(b) => b.clone(),
        Lane::Cluster => "cluster".to_string(),
    };
    html! {
        <div class={classes!("timeline__lane", matches!(lane, Lane::Cluster).then_some("timeline__lane--cluster"))}
            data-testid={format!("lane-{label}")}>{ label }</div>
    }
}

/// Whether a chip shows a rejection: the lanes then make room for its reason, which wraps rather than
/// being cut.
fn any_rejected(model: &Model) -> bool {
    model.shown.traces.iter().any(|t| t.steps.iter().any(|s| s.outcome.reason().is_some()))
}

/// A refused placement's reason is drawn inside the scroller; after each render, scroll the scroller so
/// that the whole reason is in view (it is no wider than the scroller).
#[hook]
fn use_reason_in_view() {
    use_effect(|| {
        let document = gloo::utils::document();
        let Ok(Some(why)) = document.query_selector(".timeline .drop-indicator__why") else { return };
        let Ok(Some(scroller)) = why.closest(".timeline__scroll") else { return };
        let (w, s) = (why.get_bounding_client_rect(), scroller.get_bounding_client_rect());
        // Hidden (during a pointer drag, the ghost says it): nothing to show.
        if w.width() == 0.0 {
            return;
        }
        let shift =
            if w.right() > s.right() { w.right() - s.right() + 4.0 } else { (w.left() - s.left() - 4.0).min(0.0) };
        if shift != 0.0 {
            scroller.set_scroll_left(scroller.scroll_left() + shift.ceil() as i32);
        }
    });
}

/// The timeline.
#[function_component(Timeline)]
pub fn timeline(props: &TimelineProps) -> Html {
    use_reason_in_view();
    let model = &props.model;
    let n = model.shown.scenario.events.len();
    let lanes = model.shown.lanes();
    let marker = indicator(model, &props.drag);
    let dragging = props.drag.view.as_ref().map(|v| v.source.clone());
    // The column count is set on the grid alone: as an inherited custom property it would restyle every
    // element of the timeline on each added step.
    let lanes_style = format!("--lanes: {}", lanes.len());
    let columns_style = format!("grid-template-columns: repeat({}, var(--step-w))", n + 1);
    let suppress = SharedFlag(props.drag.suppress_click.clone());
    // Long timelines render only the columns near the visible part (the page stays light to lay out), and
    // the view follows the cursor.
    let cursor_column = model.shown.cursor.filter(|&c| c < n).map(|c| c..c + 1);
    // During a placement the view follows the indicator, with room for a refused drop's reason.
    let placing_columns = model.placing.as_ref().map(|p| p.position.saturating_sub(1)..(p.position + 3).min(n + 1));
    let window = use_scroll_window(n + 1, placing_columns.or(cursor_column.clone()));
    let shown = rendered(n + 1, RENDER_ALL, window.viewport, ASSUMED_COLUMNS, cursor_column, MARGIN_COLUMNS);

    let columns = shown.into_iter().flatten().map(|i| {
        let event = model.shown.scenario.events.get(i);
        let chip = event.and_then(|e| chip_data(model, i, e, dragging == Some(PlaceSource::Existing(i))));
        html! {
            <Column key={i} step={i} end={i == n} lanes={lanes.len()} kind={event.map(Event::kind)} {chip}
                current={Some(i) == model.shown.cursor && i < n}
                differs={model.shown.variants.len() > 1 && model.shown.first_difference == Some(i as u32)} bugs={summary::bugs_at(&model.shown.traces, i as u32)}
                marker={marker.as_ref().filter(|(_, p, _, _)| *p == i).map(|(l, _, problem, kb)| (*l, problem.clone(), *kb))}
                near_end={i + 2 >= n} placing={model.placing.is_some()}
                dispatch={props.dispatch.clone()} drag_start={props.drag.start.clone()} suppress={suppress.clone()} />
        }
    });

    html! {
        <section class={classes!("timeline", dragging.is_some().then_some("timeline--dragging"), model.placing.is_some().then_some("timeline--placing"), any_rejected(model).then_some("timeline--tall"))} aria-label="Timeline" id="timeline" tabindex="-1">
            // The lane labels stay put while the steps scroll sideways beside them.
            <div class="timeline__body" style={lanes_style}>
                <div class="timeline__labels">
                    <div class="timeline__corner">{ "step" }</div>
                    { for lanes.iter().map(lane_label) }
                </div>
                <div class="timeline__scroll" ref={window.node} onscroll={window.onscroll}>
                    <div class="timeline__grid" style={columns_style}>
                        { for columns }
                    </div>
                </div>
            </div>
            <p id="chip-keys" class="sr-only">{ "Enter to edit, M to move with the arrow keys, Delete to remove." }</p>
            <p class="timeline__live" aria-live="polite" data-testid="placing-help">{ model.placing_words() }</p>
        </section>
    }
}

/// Timelines up to this many columns are rendered whole.
const RENDER_ALL: usize = 80;

/// Columns rendered beyond each side of the visible part.
const MARGIN_COLUMNS: usize = 6;

/// Columns taken as visible before the timeline is measured (a wide desktop).
const ASSUMED_COLUMNS: usize = 24;

fn step_header(
    i: usize,
    kind: Option<EventKind>,
    current: bool,
    differs: bool,
    bugs: &[String],
    dispatch: &Callback<Action>,
    style: String,
) -> Html {
    let mut title = format!("Show the state after step {i} ({})", kind.map_or("", EventKind::id));
    if differs {
        title.push_str(". The variants part ways here.");
    }
    if !bugs.is_empty() {
        title.push_str(&format!(". Fails here: {}", bugs.join(", ")));
    }
    let onclick = dispatch.reform(move |_| Action::Cursor(CursorAction::Set(Some(i))));
    let class = classes!(
        "timeline__step",
        current.then_some("timeline__step--current"),
        differs.then_some("timeline__step--differs"),
        (!bugs.is_empty()).then_some("timeline__step--bug")
    );
    html! {
        <button type="button" {class} {style} {onclick} aria-label={title.clone()} {title} aria-current={current.then_some("step")} data-testid={format!("step-{i}")}>
            <span class="timeline__step-number">{ i }</span>
            if differs { <span class="timeline__mark timeline__mark--differs" aria-hidden="true">{ "≠" }</span> }
            if !bugs.is_empty() { <span class="timeline__mark timeline__mark--bug" aria-hidden="true">{ "!" }</span> }
        </button>
    }
}

fn chip_data(model: &Model, i: usize, event: &Event, moving: bool) -> Option<ChipData> {
    let kind = event.kind();
    let text = chip_text(event, model.shown.primary().and_then(|t| t.produced_label(i)));
    let reasons: Vec<(String, &'static str)> =
        summary::refusals_at(&model.shown.traces, i).into_iter().map(|(v, r)| (v.id().to_string(), r)).collect();
    // The name is the chip's own text with words around it for screen readers (never a different label:
    // a speech user says what they see); the keys are its description.
    let mut aria = event.broker().map(|b| format!(" on {b}")).unwrap_or_default();
    if !reasons.is_empty() {
        let list: Vec<String> = reasons.iter().map(|(v, r)| format!("{r} under {v}")).collect();
        aria.push_str(&format!(", rejected: {}", list.join(", ")));
    }
    // A chip whose broker has no lane is not drawn (the parser and the editor never let that happen).
    let lane = model.shown.lane_of(i)?;
    Some(ChipData {
        kind,
        lane,
        text: if text.is_empty() { kind_info(kind).1.to_string() } else { text },
        aria,
        title: chip_title(model, i, &reasons),
        rejected: reasons.first().map(|(_, r)| *r),
        selected: model.selected == Some(i),
        moving,
        marked: model.marks.iter().any(|h| h.step == Some(i as u32)),
    })
}

/// The chip's hover text: the whole rejection (per variant), then what the step did.
fn chip_title(model: &Model, i: usize, reasons: &[(String, &'static str)]) -> String {
    let narration = model.shown.primary().and_then(|t| t.steps.get(i)).map(|s| s.narration.clone()).unwrap_or_default();
    if reasons.is_empty() {
        return narration;
    }
    let list: Vec<String> = reasons.iter().map(|(v, r)| format!("{r} under {v}")).collect();
    format!("Rejected: {}. {narration}", list.join(", "))
}

/// A Kafka error name that may break after its underscores, so that it wraps instead of being cut.
fn breakable(reason: &str) -> Html {
    let parts: Vec<&str> = reason.split_inclusive('_').collect();
    html! { { for parts.into_iter().map(|part| html! { <>{ part }<wbr /></> }) } }
}

fn chip(i: usize, c: &ChipData, p: &ColumnProps) -> Html {
    let (icon, _, _) = kind_info(c.kind);
    let onpointerdown = {
        let start = p.drag_start.clone();
        Callback::from(move |e: PointerEvent| start.emit((PlaceSource::Existing(i), e)))
    };
    let onclick = {
        let dispatch = p.dispatch.clone();
        let suppress = p.suppress.0.clone();
        Callback::from(move |e: MouseEvent| {
            if !crate::browser::pointer_drag::ends_drag(&suppress, &e) {
                dispatch.emit(Action::Cursor(CursorAction::Select(Some(i))));
            }
        })
    };
    let onkeydown = {
        let dispatch = p.dispatch.clone();
        Callback::from(move |e: KeyboardEvent| match e.key().as_str() {
            "Delete" | "Backspace" => {
                e.prevent_default();
                dispatch.emit(Action::Edit(EditAction::Remove(i)));
            }
            "m" | "M" => {
                e.prevent_default();
                dispatch.emit(Action::Place(PlaceAction::Start(PlaceSource::Existing(i))));
            }
            _ => {}
        })
    };
    let class = classes!(
        "chip",
        format!("chip--{}", c.kind.id()),
        c.selected.then_some("chip--selected"),
        c.rejected.is_some().then_some("chip--rejected"),
        c.moving.then_some("chip--moving"),
        c.marked.then_some("lesson-mark"),
    );
    html! {
        <button type="button" {class} data-testid={format!("chip-{i}")} data-point={format!("#{i}")} data-kind={c.kind.id()} title={c.title.clone()}
            aria-describedby="chip-keys" aria-pressed={c.selected.to_string()} {onpointerdown} {onclick} {onkeydown}>
            <span class="chip__icon" aria-hidden="true">{ icon }</span>
            <span class="sr-only">{ format!("Step {i}: ") }</span>
            <span class="chip__label">{ &c.text }</span>
            <span class="sr-only">{ &c.aria }</span>
            { for c.rejected.map(|r| html! { <span class="chip__reason" data-testid={format!("chip-{i}-reason")} aria-hidden="true">{ breakable(r) }</span> }) }
        </button>
    }
}
