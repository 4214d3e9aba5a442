//! One variant's brokers as rows of log cells on a shared offset grid, with the HW, LEO, persisted HW and
//! flushed markers. Statuses come from the core's view model; this file only maps them to classes.

use std::collections::BTreeMap;
use std::ops::Range;
use std::rc::Rc;

use wasm_bindgen::JsCast;

use epochlab_core::lesson::{Answer, Highlight};
use epochlab_core::view::{BrokerView, Cell, CellRecord, CellStatus, RoleView, StepView};
use yew::prelude::*;

use crate::browser::viewport::{rendered, use_scroll_window};
use crate::model::bridge::Painting;

/// Props.
#[derive(Properties, PartialEq, Clone)]
pub struct LogGridProps {
    /// The variant's view at the cursor.
    pub view: Rc<StepView>,
    /// Variant id, for test ids.
    pub variant: &'static str,
    /// What a lesson's step points at: rows (a broker) and cells (a broker and an offset).
    #[prop_or_default]
    pub marks: Rc<Vec<Highlight>>,
    /// The log a lesson's question asks to paint, on one broker's row.
    #[prop_or_default]
    pub painting: Option<Rc<Painting>>,
}

/// The badge's class and text: the core's role word, with whom a follower follows.
fn role_badge(b: &BrokerView) -> (&'static str, String) {
    match b.role {
        RoleView::Leader if b.stale_leader => ("stale-leader", b.role.words(true).to_string()),
        RoleView::Follower => ("follower", format!("follows {}", b.known_leader.as_deref().unwrap_or("?"))),
        role => (role.id(), role.words(false).to_string()),
    }
}

fn cell_title(b: &BrokerView, c: &Cell) -> String {
    let mut parts = Vec::new();
    if let Some(r) = &c.record {
        parts.push(format!(
            "{} at offset {} on {}, epoch {}: {}",
            r.label,
            c.offset,
            b.name,
            r.epoch,
            c.status.as_str()
        ));
    }
    if let Some(l) = &c.lost {
        let why = if c.lost_allowed { ", as Kafka allows (by design)" } else { ": a bug" };
        parts.push(format!("{} (epoch {}) was committed here and is gone from the leader{why}", l.label, l.epoch));
    }
    if let Some(g) = &c.ghost {
        parts.push(g.explain());
    }
    if parts.is_empty() {
        parts.push(format!("offset {}: empty", c.offset));
    }
    parts.join(". ")
}

/// A cell's classes, label and "lost here" mark: one drawing for the grid and the legend's samples.
fn cell_body(c: &Cell) -> (Classes, Html) {
    let shown = c.record.as_ref().or(c.lost.as_ref()).or(c.ghost.as_ref().map(|g| &g.record));
    let epoch_class = shown.map(|r| format!("epoch-{}", r.epoch.rem_euclid(8)));
    let class = classes!(
        "cell",
        format!("cell--{}", c.status.as_str()),
        epoch_class,
        c.changed.then_some("cell--changed"),
        c.flagged.then_some("cell--flagged"),
        c.allowed.then_some("cell--allowed"),
        (c.record.is_none() && c.lost.is_none() && c.ghost.is_some()).then_some("cell--ghost"),
        (c.record.is_some() && c.lost.is_some()).then_some("cell--replaced"),
    );
    let text = shown.map(|r| r.label.clone()).unwrap_or_default();
    // A committed record replaced by another: the cell shows what is there now, tagged with what was lost.
    let replaced = c.record.is_some().then_some(c.lost.as_ref()).flatten();
    let mark = classes!("cell__lost", c.lost_allowed.then_some("cell__lost--allowed"));
    let body = html! {
        <>
            <span class="cell__label">{ text }</span>
            if let Some(l) = replaced { <span class={mark} aria-hidden="true">{ format!("✕{}", l.label) }</span> }
        </>
    };
    (class, body)
}

fn cell_html(b: &BrokerView, c: &Cell, p: &BrokerLogProps) -> Html {
    let (mut class, body) = cell_body(c);
    if p.marked_cells.contains(&c.offset) {
        class.push("lesson-mark");
    }
    // The epoch is drawn by CSS from data-epoch: one element fewer per cell.
    let shown = c.record.as_ref().or(c.lost.as_ref()).or(c.ghost.as_ref().map(|g| &g.record));
    let epoch = shown.map(|r| r.epoch.to_string());
    let kept = p.painted.as_ref().and_then(|x| x.kept.get(c.offset as usize).copied());
    let mut label = p.words.get(&c.offset).cloned();
    // A painted cell says what the learner marked; the lessons switch it on a click or Space (`data-paint`).
    if let Some(kept) = kept {
        class.push(if kept { "cell--paint" } else { "cell--paint cell--paint-cut" });
        let said = if kept { "you say it survives" } else { "you say it is truncated" };
        label = Some(format!("{}; {said} (Space switches)", label.unwrap_or_default()));
    }
    // One cell of the grid is in the tab order; the arrow keys move from there (a roving tabindex).
    let tabindex = if p.active == Some(c.offset) { "0" } else { "-1" };
    html! {
        <div key={c.offset} {class} role="gridcell" aria-label={label} {tabindex} aria-colindex={(c.offset + 1).to_string()}
            title={cell_title(b, c)} data-testid={format!("cell-{}-{}-{}", p.variant, b.name, c.offset)}
            data-row={p.row.to_string()} data-offset={c.offset.to_string()} data-status={c.status.as_str()} data-epoch={epoch}
            data-paint={kept.map(Answer::offset_key)} data-point={format!("{}@{}", b.name, c.offset)}>
            { body }
        </div>
    }
}

fn marker(kind: &'static str, offset: u32, text: &'static str, title: String) -> Html {
    let style = format!("--at: {offset}");
    html! { <span class={classes!("marker", format!("marker--{kind}"))} {style} {title} aria-hidden="true">{ text }</span> }
}

/// Grids up to this many offsets render every cell.
const RENDER_ALL: usize = 24;
/// Offsets rendered beyond each side of the visible part.
const MARGIN: usize = 6;
/// Offsets taken as visible before the grid is measured (a wide panel).
const ASSUMED_SPAN: usize = 16;

/// One grid column per offset. Set on each row, not inherited from the grid as a custom property, which
/// would restyle every cell whenever the logs grow.
fn columns_style(offsets: usize) -> String {
    format!("grid-template-columns: repeat({}, var(--cell-w))", offsets.max(1))
}

/// Props of one broker's log row: its broker is row `row` of `view` (shared, not copied per row).
#[derive(Properties, Clone)]
struct BrokerLogProps {
    view: Rc<StepView>,
    /// The row's index (the broker's).
    row: usize,
    variant: &'static str,
    /// The offsets rendered (long logs render only those near the visible part).
    shown: Rc<Vec<Range<usize>>>,
    /// The rendered cells in words, by offset (the core's [`StepView::describe_cell`]).
    words: Rc<BTreeMap<u32, String>>,
    /// The row's cell in the tab order, if it is this row's.
    active: Option<u32>,
    /// The whole row is pointed at by a lesson.
    #[prop_or_default]
    marked: bool,
    /// Offsets a lesson points at.
    #[prop_or_default]
    marked_cells: Vec<u32>,
    /// This row is being painted (per offset: the learner says it survives).
    #[prop_or_default]
    painted: Option<Rc<Painting>>,
}

/// Equal when the row's broker looks the same, whatever the other rows do (the row is then not redrawn).
impl PartialEq for BrokerLogProps {
    fn eq(&self, other: &Self) -> bool {
        self.broker() == other.broker()
            && self.row == other.row
            && self.variant == other.variant
            && self.shown == other.shown
            && self.words == other.words
            && self.active == other.active
            && self.marked == other.marked
            && self.marked_cells == other.marked_cells
            && self.painted == other.painted
    }
}

impl BrokerLogProps {
    fn broker(&self) -> Option<&BrokerView> {
        self.view.brokers.get(self.row)
    }
}

/// One broker's log row, skipped when its view did not change.
#[function_component(BrokerLog)]
fn broker_log(p: &BrokerLogProps) -> Html {
    let Some(b) = p.broker() else { return Html::default() };
    let class = classes!(
        "broker__log",
        (b.role == RoleView::Down).then_some("broker__log--down"),
        p.marked.then_some("lesson-mark")
    );
    html! {
        <div {class} style={columns_style(b.cells.len())} role="row" aria-rowindex={(p.row + 1).to_string()}>
            <span class="sr-only" role="rowheader">{ broker_summary(b) }</span>
            { windowed(&p.shown, |o| b.cells.get(o).map(|c| cell_html(b, c, p))) }
            { marker("hw", b.hw, "HW", format!("High watermark {}: records below are committed", b.hw)) }
            { marker("leo", b.leo, "LEO", format!("Log end offset {}", b.leo)) }
            { marker("ckpt", b.hw_checkpoint, "ckpt", format!("Persisted HW {} (replication-offset-checkpoint)", b.hw_checkpoint)) }
            { marker("flushed", b.flushed, "flushed", format!("Flushed up to {}: survives a power loss", b.flushed)) }
        </div>
    }
}

/// `cell` for every offset in `shown` (`None` past the row's end), with a spacer holding the place of each
/// gap, so that every rendered column lands on its offset's grid column. Each `cell` is keyed by its offset:
/// as the window slides by an offset, one cell comes and one goes, and the others stay as they are (unkeyed,
/// every cell would be rewritten with its neighbour's content).
fn windowed(shown: &[Range<usize>], mut cell: impl FnMut(usize) -> Option<Html>) -> Html {
    let mut next = 0;
    let mut out = Vec::with_capacity(shown.iter().map(|r| r.len() + 1).sum());
    for (i, r) in shown.iter().enumerate() {
        if r.start > next {
            let style = format!("grid-column: span {}", r.start - next);
            let key = format!("gap{i}");
            out.push(html! { <span {key} class="log-grid__gap" {style} aria-hidden="true"></span> });
        }
        out.extend(r.clone().filter_map(&mut cell));
        next = r.end;
    }
    out.into_iter().collect()
}

fn known_epoch(b: &BrokerView) -> String {
    if b.known_epoch >= 0 {
        format!("epoch {}", b.known_epoch)
    } else {
        "no epoch".to_string()
    }
}

/// Everything about a broker's row for screen readers, its markers included (its row header).
fn broker_summary(b: &BrokerView) -> String {
    format!(
        "{}: {}, {}{}, HW {}, LEO {}, persisted HW {}, flushed {}",
        b.name,
        role_badge(b).1,
        known_epoch(b),
        match (b.in_isr, b.in_elr) {
            (true, _) => ", in ISR",
            (false, true) => ", not in ISR, an Eligible Leader Replica",
            (false, false) => ", not in ISR",
        },
        b.hw,
        b.leo,
        b.hw_checkpoint,
        b.flushed
    )
}

/// A row's label, left of the scrolling logs: the broker's name, role and ISR membership. Screen readers
/// hear the same in the row's header inside the grid.
fn broker_label(b: &BrokerView, variant: &'static str, marked: bool) -> Html {
    let (badge, role_text) = role_badge(b);
    html! {
        <div class={classes!("log-grid__label", marked.then_some("lesson-mark"))} data-testid={format!("broker-{variant}-{}", b.name)} data-point={b.name.clone()}>
            <span class="broker__name">{ &b.name }
                if b.in_isr { <span class="badge badge--isr" title="In the controller's ISR">{ "ISR" }</span> }
                if b.in_elr { <span class="badge badge--elr" title="An Eligible Leader Replica (KIP-966): it may lead once the ISR is empty" data-testid={format!("elr-{variant}-{}", b.name)}>{ "ELR" }</span> }
            </span>
            <span class={classes!("badge", format!("badge--{badge}"))} title={role_text.clone()} data-testid={format!("role-{variant}-{}", b.name)}>{ role_text }</span>
        </div>
    }
}

/// A broker's figures, below the grid: epoch, fetcher state, HW, LEO, persisted HW, flushed, the leader's
/// ISR view and the epoch cache as Kafka's `leader-epoch-checkpoint` file.
fn broker_facts(b: &BrokerView) -> Html {
    let cache = if b.epoch_cache.is_empty() {
        "empty".to_string()
    } else {
        b.epoch_cache.iter().map(|e| format!("{}@{}", e.epoch, e.start_offset)).collect::<Vec<_>>().join(" ")
    };
    let fetch = match b.fetch_state {
        epochlab_core::state::FetchState::Truncating => " · truncating",
        epochlab_core::state::FetchState::Validating => " · validating",
        _ => "",
    };
    html! {
        <li class="broker__meta">
            <span class="broker__name">{ &b.name }</span>
            <span>{ format!("{}{fetch} · HW {} · LEO {} · ckpt {} · flushed {}", known_epoch(b), b.hw, b.leo, b.hw_checkpoint, b.flushed) }</span>
            if !b.leader_isr.is_empty() { <span>{ format!("ISR view {{{}}}", b.leader_isr.join(", ")) }</span> }
            <details class="broker__cache">
                <summary>{ format!("leader-epoch-checkpoint: {cache}") }</summary>
                <pre>{ &b.checkpoint_file }</pre>
            </details>
        </li>
    }
}

/// Where an arrow key takes the grid's active cell (row, offset), staying inside `rows` x `width`.
fn moved(key: &str, (row, offset): (usize, u32), rows: usize, width: u32) -> Option<(usize, u32)> {
    let last = width.saturating_sub(1);
    Some(match key {
        "ArrowLeft" => (row, offset.saturating_sub(1)),
        "ArrowRight" => (row, (offset + 1).min(last)),
        "ArrowUp" => (row.saturating_sub(1), offset),
        "ArrowDown" => ((row + 1).min(rows.saturating_sub(1)), offset),
        "Home" => (row, 0),
        "End" => (row, last),
        _ => return None,
    })
}

/// The rendered cells of each row in words, by offset.
fn words_by_row(v: &StepView, shown: &[Range<usize>]) -> Vec<Rc<BTreeMap<u32, String>>> {
    (0..v.brokers.len())
        .map(|row| {
            // Inserted one by one: collecting into a map would compile a sort into the page for this one type.
            let mut words = BTreeMap::new();
            for o in shown.iter().flat_map(|r| r.clone()).map(|o| o as u32) {
                if let Some(w) = v.describe_cell(row, o) {
                    words.insert(o, w);
                }
            }
            Rc::new(words)
        })
        .collect()
}

/// Focus the active cell after it moved: scroll it into view first when it is not rendered yet (a long
/// log renders only the offsets near the visible part), then focus it once it is.
fn focus_cell(grid: &NodeRef, (row, offset): (usize, u32), width: u32) {
    let Some(grid) = grid.cast::<web_sys::Element>() else { return };
    let selector = format!("[data-row=\"{row}\"][data-offset=\"{offset}\"]");
    let find = move |g: &web_sys::Element| g.query_selector(&selector).ok().flatten();
    if let Some(el) = find(&grid).and_then(|e| e.dyn_into::<web_sys::HtmlElement>().ok()) {
        let _ = el.focus();
        return;
    }
    if let Ok(Some(scroller)) = grid.query_selector(".log-grid__scroll") {
        let column = scroller.scroll_width() / width.max(1) as i32;
        scroller.set_scroll_left(column * offset as i32 - scroller.client_width() / 2);
    }
    gloo::timers::callback::Timeout::new(50, move || {
        if let Some(el) = find(&grid).and_then(|e| e.dyn_into::<web_sys::HtmlElement>().ok()) {
            let _ = el.focus();
        }
    })
    .forget();
}

/// The grid's keyboard: the arrow keys, Home and End move the active cell (ARIA grid pattern).
#[hook]
fn use_grid_keys(rows: usize, width: u32) -> (UseStateHandle<(usize, u32)>, NodeRef, Callback<KeyboardEvent>) {
    let active = use_state(|| (0usize, 0u32));
    let grid = use_node_ref();
    // A grid that shrank (a shorter log, a removed broker) keeps its active cell inside it.
    let clamped = (active.0.min(rows.saturating_sub(1)), active.1.min(width.saturating_sub(1)));
    let onkeydown = {
        let (active, grid) = (active.clone(), grid.clone());
        Callback::from(move |e: KeyboardEvent| {
            let Some(next) = moved(&e.key(), clamped, rows, width) else { return };
            e.prevent_default();
            // The cursor's own keys (←/→, Home, End) stay with the grid while a cell has the focus.
            e.stop_propagation();
            active.set(next);
            focus_cell(&grid, next, width);
        })
    };
    (active, grid, onkeydown)
}

/// The offset of the cell in the tab order: the active one, or the first rendered one when a long log does
/// not render it (so that Tab always reaches the grid).
fn tab_stop(shown: &[Range<usize>], active: u32) -> u32 {
    match shown.iter().any(|r| r.contains(&(active as usize))) {
        true => active,
        false => shown.first().map_or(0, |r| r.start as u32),
    }
}

/// A lesson points at the broker's whole row.
fn row_marked(marks: &[Highlight], broker: &str) -> bool {
    marks.iter().any(|h| h.broker.as_deref() == Some(broker) && h.offset.is_none())
}

/// The offsets of the broker's row a lesson points at.
fn marked_cells(marks: &[Highlight], broker: &str) -> Vec<u32> {
    marks.iter().filter(|h| h.broker.as_deref() == Some(broker)).filter_map(|h| h.offset).collect()
}

/// The grid: the brokers' logs stacked in one scroller, so that an offset is one column in every row while
/// scrolling, with their labels fixed on the left (as the timeline's lanes) and their figures below. For
/// screen readers it is an ARIA grid: rows are brokers (each with its header: role, HW, LEO, markers),
/// columns are offsets, and the arrow keys move between cells.
#[function_component(LogGrid)]
pub fn log_grid(props: &LogGridProps) -> Html {
    let v = &props.view;
    let width = v.width as usize;
    let focus = v.focus().map(|f| f.start as usize..f.end as usize);
    let window = use_scroll_window(width, focus.clone());
    let shown = Rc::new(rendered(width, RENDER_ALL, window.viewport, ASSUMED_SPAN, focus, MARGIN));
    let (active, grid, onkeydown) = use_grid_keys(v.brokers.len(), v.width);
    let words = words_by_row(v, &shown);
    let label = format!("Logs under {}: rows are brokers, columns are offsets", props.variant);
    html! {
        <>
            <div class="log-grid" ref={grid} role="grid" aria-label={label} aria-rowcount={v.brokers.len().to_string()} aria-colcount={width.to_string()} {onkeydown}>
                <div class="log-grid__labels" aria-hidden="true">
                    <div class="log-grid__corner">{ "offset" }</div>
                    { for v.brokers.iter().map(|b| broker_label(b, props.variant, row_marked(&props.marks, &b.name))) }
                </div>
                <div class="log-grid__scroll" ref={window.node} onscroll={window.onscroll}>
                    <div class="log-grid__offsets" style={columns_style(width)} aria-hidden="true">
                        { windowed(&shown, |o| Some(html! { <span key={o} class="log-grid__offset">{ o }</span> })) }
                    </div>
                    { for v.brokers.iter().zip(words).enumerate().map(|(row, (b, words))| html! {
                        <BrokerLog key={b.name.clone()} view={props.view.clone()} {row} variant={props.variant} shown={shown.clone()} {words}
                            active={(active.0 == row).then_some(tab_stop(&shown, active.1))}
                            marked={row_marked(&props.marks, &b.name)} marked_cells={marked_cells(&props.marks, &b.name)}
                            painted={props.painting.clone().filter(|p| p.broker == b.name)} />
                    }) }
                </div>
            </div>
            <ul class="broker-facts" aria-label="Each broker's figures">
                { for v.brokers.iter().map(broker_facts) }
            </ul>
        </>
    }
}

/// A legend sample: a cell of the core's view model, drawn as the grid draws it.
fn sample(status: CellStatus, label: &str, lost: Option<(&str, bool)>, what: &'static str) -> Html {
    let record = |label: &str| Some(CellRecord { id: 0, label: label.to_string(), epoch: 1 });
    let held = lost.is_some() || !matches!(status, CellStatus::Empty | CellStatus::Lost | CellStatus::LostAllowed);
    let cell = Cell {
        offset: 0,
        record: if held { record(label) } else { None },
        status,
        ghost: None,
        lost: lost.and_then(|(l, _)| record(l)).or_else(|| (!held).then(|| record(label)).flatten()),
        lost_allowed: lost.is_some_and(|(_, allowed)| allowed) || status == CellStatus::LostAllowed,
        changed: false,
        flagged: false,
        allowed: false,
    };
    let (class, body) = cell_body(&cell);
    html! {
        <span class="legend__item" data-testid={format!("legend-{}", if lost.is_some() { "replaced" } else { status.as_str() })}>
            <span class={classes!(class, "legend__cell")} data-status={status.as_str()} data-epoch="1">{ body }</span>
            { what }
        </span>
    }
}

/// What the cells and markers mean. Red means a bug, only.
#[function_component(Legend)]
pub fn legend() -> Html {
    html! {
        <div class="legend" role="group" aria-label="Legend">
            { sample(CellStatus::Committed, "m1", None, "committed (below the leader's HW)") }
            { sample(CellStatus::Uncommitted, "m2", None, "not yet committed") }
            { sample(CellStatus::Differs, "m3", None, "differs from the leader, no bug (not truncated yet)") }
            { sample(CellStatus::Divergent, "m3", None, "diverges from the leader: a bug") }
            { sample(CellStatus::Truncated, "m4", None, "truncated (hover: which step, why)") }
            { sample(CellStatus::Lost, "m5", None, "committed, now lost: a bug") }
            { sample(CellStatus::LostAllowed, "m5", None, "committed, lost as Kafka allows (unclean election, acks=1, power loss)") }
            { sample(CellStatus::Lost, "m6", Some(("m2", false)), "m2 was committed here, m6 replaced it (amber when Kafka allows it)") }
            <span class="legend__item"><span class="legend__bar legend__bar--hw"></span>{ "HW" }</span>
            <span class="legend__item"><span class="legend__bar legend__bar--leo"></span>{ "LEO" }</span>
            <span class="legend__item"><span class="legend__tri legend__tri--ckpt">{ "▾" }</span>{ "persisted HW" }</span>
            <span class="legend__item"><span class="legend__tri legend__tri--flushed">{ "▴" }</span>{ "flushed" }</span>
            <span class="legend__item">{ "Colour: the record's leader epoch" }</span>
        </div>
    }
}
