//! The message-sequence diagram on the page: the core's [`Diagram`] drawn by [`crate::formats::sequence_svg`], under
//! lane headers that stay visible while scrolling. One listener for the whole drawing: a click (or Enter or
//! Space on a focused line) on a message moves the cursor to its step; on a folded run, opens or folds it.

use epochlab_core::sequence::{diagram, Diagram, Item};
use wasm_bindgen::JsCast;
use web_sys::Element;
use yew::prelude::*;

use crate::browser::web;
use crate::components::LessonsProps;
use crate::formats::sequence_svg::{self, Geometry, COMPACT, WIDE};
use crate::model::Action;
use crate::model::CursorAction;

/// What a click on the drawing hit.
enum Hit {
    Step(usize),
    Run(usize),
}

/// The line an event happened in, by the `data-step` or `data-run` of its nearest group, and that group.
fn hit(e: &Event) -> Option<(Hit, Element)> {
    let target: Element = e.target()?.dyn_into().ok()?;
    let line = target.closest("[data-step],[data-run]").ok()??;
    let what = match line.get_attribute("data-run") {
        Some(run) => Hit::Run(run.parse().ok()?),
        None => Hit::Step(line.get_attribute("data-step")?.parse().ok()?),
    };
    Some((what, line))
}

/// A line's position among the drawing's lines (each line is a `<g>` of the `<svg>`).
fn line_index(line: &Element) -> usize {
    let mut n = 0;
    let mut at = line.previous_element_sibling();
    while let Some(e) = at {
        n += usize::from(e.tag_name() == "g");
        at = e.previous_element_sibling();
    }
    n
}

/// Bring the cursor's first line into the scroller's view, if it is out of it (below the sticky header).
fn show_current(scroller: &Element) {
    let Ok(Some(line)) = scroller.query_selector(".seq__line--current") else { return };
    let (box_, at) = (scroller.get_bounding_client_rect(), line.get_bounding_client_rect());
    const HEAD: f64 = 32.0;
    if at.top() < box_.top() + HEAD || at.bottom() > box_.bottom() {
        scroller.set_scroll_top(scroller.scroll_top() + (at.top() - box_.top() - HEAD * 2.0) as i32);
    }
}

/// What the diagram says above itself: where the variants' messages first differ.
fn summary(d: &Diagram, dispatch: &Callback<Action>) -> Html {
    if d.variants.len() < 2 {
        return html! {};
    }
    let Some(Item::Row(row)) = d.first_difference.and_then(|i| d.items.get(i)) else {
        return html! { <p class="seq__summary">{ "= Every shown variant sends the same messages." }</p> };
    };
    let step = row.step as usize;
    let onclick = dispatch.reform(move |_| Action::Cursor(CursorAction::Set(Some(step))));
    let what = row
        .shown
        .iter()
        .zip(&d.variants)
        .map(|(m, v)| format!("{}: {}", v.id(), m.as_ref().map_or("nothing", |m| m.label.as_str())))
        .collect::<Vec<_>>()
        .join(" · ");
    html! {
        <p class="seq__summary" data-testid="seq-first-difference">
            { format!("≠ The messages first differ at step {step} ({what}). ") }
            <button type="button" {onclick}>{ format!("Show step {step}") }</button>
        </p>
    }
}

const LEGEND: &str = "Arrows carry what is written above them; dashed: LeaderAndIsr held back; ✕: the response was \
     lost; ■: something a broker did on its own; ≠: the shown variants differ (one line per variant). Click a line to \
     show its step; click a folded run to see each fetch.";

/// The lanes' names above the drawing.
fn lane_heads(d: &Diagram, g: Geometry) -> Html {
    let lane_w = g.lane_w;
    let heads = d
        .lanes
        .iter()
        .map(|l| html! { <span class="seq__lane" style={format!("width: {lane_w}px")}>{ &l.name }</span> });
    html! {
        <div class="seq__head" style={format!("width: {}px", g.width(d.lanes.len()))} aria-hidden="true">
            <span class="seq__lane seq__lane--gutter" style={format!("width: {}px", g.gutter)}>{ "step" }</span>
            { for heads }
        </div>
    }
}

/// After each redraw, the line pressed from the keyboard (`refocus`) gets the focus back; when the cursor
/// moves, its step is scrolled into view.
#[hook]
fn use_follow_cursor(
    scroller: NodeRef,
    refocus: std::rc::Rc<std::cell::RefCell<Option<usize>>>,
    cursor: Option<usize>,
) {
    {
        let scroller = scroller.clone();
        use_effect(move || {
            let Some(el) = scroller.cast::<Element>() else { return };
            if let Some(k) = refocus.borrow_mut().take() {
                if let Ok(Some(line)) = el.query_selector(&format!("svg > g:nth-of-type({})", k + 1)) {
                    let _ = line.unchecked_ref::<web_sys::HtmlElement>().focus();
                }
            }
        });
    }
    use_effect_with(cursor, move |_| {
        if let Some(el) = scroller.cast::<Element>() {
            show_current(&el);
        }
    });
}

/// The diagram.
#[function_component(SequenceDiagram)]
pub fn sequence_diagram(props: &LessonsProps) -> Html {
    let model = &props.model;
    let d = {
        let (scenario, traces) = (model.shown.scenario.clone(), model.shown.traces.clone());
        use_memo(traces.clone(), move |_| diagram(&scenario, &traces))
    };
    let open = use_state(Vec::<usize>::new);
    let act = {
        let (open, dispatch) = (open.clone(), props.dispatch.clone());
        move |h: Hit| match h {
            Hit::Step(step) => dispatch.emit(Action::Cursor(CursorAction::Set(Some(step)))),
            Hit::Run(item) => {
                let mut next = (*open).clone();
                match next.iter().position(|i| *i == item) {
                    Some(at) => drop(next.swap_remove(at)),
                    None => next.push(item),
                }
                open.set(next);
            }
        }
    };
    let onclick = {
        let act = act.clone();
        Callback::from(move |e: MouseEvent| hit(&e).into_iter().for_each(|(h, _)| act(h)))
    };
    // The drawing is redrawn whole: the line pressed from the keyboard gets the focus back afterwards.
    let refocus = use_mut_ref(|| None::<usize>);
    let onkeydown = {
        let refocus = refocus.clone();
        Callback::from(move |e: KeyboardEvent| {
            if e.key() == "Enter" || e.key() == " " {
                if let Some((h, line)) = hit(&e) {
                    e.prevent_default();
                    *refocus.borrow_mut() = Some(line_index(&line));
                    act(h);
                }
            }
        })
    };
    let scroller = use_node_ref();
    use_follow_cursor(scroller.clone(), refocus, model.shown.cursor);
    // A phone gets narrower lanes, so that the brokers' fit on its screen.
    let g = if web::viewport_width() < 600 { COMPACT } else { WIDE };
    let drawing = sequence_svg::svg(&d, &open, model.shown.cursor, g, false);
    html! {
        <section class="seq" aria-label="Message sequence diagram" data-testid="seq-diagram">
            { summary(&d, &props.dispatch) }
            <p class="seq__legend">{ LEGEND }</p>
            <div class="seq__scroll" ref={scroller}>
                { lane_heads(&d, g) }
                <div class="seq__body" {onclick} {onkeydown}>{ Html::from_html_unchecked(AttrValue::from(drawing)) }</div>
            </div>
        </section>
    }
}
