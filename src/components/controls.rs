//! The cursor: jump to a step, scrub, step back and forth, play and pause at a chosen speed.

use web_sys::HtmlInputElement;
use yew::prelude::*;

use super::ModelProps;
use crate::model::CursorAction;
use crate::model::{Action, SPEEDS};

/// The cursor buttons' pictures.
#[derive(Clone, Copy)]
enum Glyph {
    Start,
    Back,
    Play,
    Pause,
    Forward,
    End,
}

/// A button's picture as an SVG drawn in the text colour: a picture, not text, so that the button's name
/// (its aria-label) is all a screen reader or a speech user has to match.
fn glyph(g: Glyph) -> Html {
    let d = match g {
        Glyph::Start => "M2 2h2v12H2zM9 2v12L4 8zM15 2v12l-5-6z",
        Glyph::Back => "M3 2h2v12H3zM13 2v12L6 8z",
        Glyph::Play => "M4 2v12l10-6z",
        Glyph::Pause => "M4 2h3v12H4zM9 2h3v12H9z",
        Glyph::Forward => "M11 2h2v12h-2zM3 2v12l7-6z",
        Glyph::End => "M12 2h2v12h-2zM7 2v12l5-6zM1 2v12l5-6z",
    };
    html! {
        <svg class="controls__glyph" viewBox="0 0 16 16" width="14" height="14" aria-hidden="true" focusable="false">
            <path {d} fill="currentColor" />
        </svg>
    }
}

/// The cursor controls.
#[function_component(Controls)]
pub fn controls(props: &ModelProps) -> Html {
    let m = &props.model;
    let n = m.shown.scenario.events.len();
    let at = m.shown.cursor.map_or(-1, |c| c as i64);
    let d = &props.dispatch;
    // `action` makes the button's action afresh per click: cloning an `Action` would compile its clone into the page.
    let button = |label: &'static str, icon: Glyph, action: fn() -> Action, disabled: bool, testid: &'static str| {
        let onclick = d.reform(move |_| action());
        html! { <button type="button" class="controls__button" aria-label={label} title={label} {onclick} {disabled} data-testid={testid}>{ glyph(icon) }</button> }
    };
    let oninput = d.reform(|e: InputEvent| {
        let v: i64 = e.target_unchecked_into::<HtmlInputElement>().value().parse().unwrap_or(-1);
        Action::Cursor(CursorAction::Set(usize::try_from(v).ok()))
    });
    let onspeed = d.reform(|e: Event| {
        Action::Cursor(CursorAction::SetSpeed(
            e.target_unchecked_into::<HtmlInputElement>().value().parse().unwrap_or(1),
        ))
    });
    let mut position = match m.shown.cursor {
        Some(c) => format!("Step {c} of {}: {}", n.saturating_sub(1), m.shown.scenario.events[c].kind().words()),
        None => "Before the first step".to_string(),
    };
    if let Some(held) = &m.pending {
        let why = if held.asked_now { "waits for your prediction" } else { "waits for the lesson's question" };
        position.push_str(&format!(" (step {} {why})", held.step));
    }
    let play_label = if m.playing { "Pause (space)" } else { "Play (space)" };
    html! {
        <section class="controls" aria-label="Cursor">
            { button("Go to the start (Home)", Glyph::Start, || Action::Cursor(CursorAction::Home), m.shown.cursor.is_none(), "cursor-home") }
            { button("Step back (←)", Glyph::Back, || Action::Cursor(CursorAction::StepBy(-1)), m.shown.cursor.is_none(), "cursor-back") }
            <button type="button" class="controls__button controls__button--play" aria-label={play_label} title={play_label}
                onclick={d.reform(|_| Action::Cursor(CursorAction::TogglePlay))} disabled={n == 0} data-testid="cursor-play" aria-pressed={m.playing.to_string()}>
                { glyph(if m.playing { Glyph::Pause } else { Glyph::Play }) }
            </button>
            { button("Step forward (→)", Glyph::Forward, || Action::Cursor(CursorAction::StepBy(1)), m.shown.cursor.map(|c| c + 1) >= Some(n) || n == 0, "cursor-forward") }
            { button("Go to the last step (End)", Glyph::End, || Action::Cursor(CursorAction::End), m.shown.cursor == m.shown.last_step(), "cursor-end") }
            <input type="range" class="controls__scrub" min="-1" max={(n as i64 - 1).to_string()} value={at.to_string()}
                aria-label="Scrub through the steps" aria-valuetext={position.clone()} {oninput} data-testid="cursor-scrub" />
            <output class="controls__position" data-testid="cursor-position">{ position }</output>
            <label class="controls__speed">
                { "Speed " }
                <select onchange={onspeed} aria-label="Playback speed" data-testid="cursor-speed">
                    { for SPEEDS.iter().enumerate().map(|(i, (_, name))| html! {
                        <option value={i.to_string()} selected={i == m.speed}>{ *name }</option>
                    }) }
                </select>
            </label>
        </section>
    }
}
