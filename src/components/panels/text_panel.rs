//! The text panel: the scenario in the text format (`docs/scenario-format.md`), under the timeline and in step
//! with it both ways. The core reads, writes and maps lines to steps (`epochlab_core::scenario::text`); this
//! component only keeps the text as typed, reads it when typing pauses, and draws the line marks.
//!
//! Typing never waits for a re-run: the textarea is not redrawn from the model while the user types (its value
//! is set only when the model's scenario changes to one the text does not read as), and the text is read and
//! applied once typing pauses for [`DEBOUNCE_MS`] (longer when applying takes long, see [`debounce_ms`]).

use std::cell::RefCell;
use std::rc::Rc;

use epochlab_core::scenario::text::{parse_text, to_text, EventLines, TextError};
use epochlab_core::scenario::Scenario;
use gloo::timers::callback::Timeout;
use web_sys::HtmlTextAreaElement;
use yew::prelude::*;

use crate::components::Dispatch;
use crate::model::learn::LessonsModel;
use crate::model::Action;
use crate::model::{CursorAction, EditAction};

/// How long typing pauses before the text is read and applied, in milliseconds.
pub const DEBOUNCE_MS: u32 = 300;
/// The longest pause waited for, when applying takes long (a long scenario under several variants).
pub const MAX_DEBOUNCE_MS: u32 = 1000;

/// The pause before a read: [`DEBOUNCE_MS`], or three times what the last apply took, up to [`MAX_DEBOUNCE_MS`],
/// so that a slow re-run is not started again while the user is still typing.
pub fn debounce_ms(last_apply_ms: f64) -> u32 {
    let wanted = (last_apply_ms * 3.0).clamp(0.0, f64::from(MAX_DEBOUNCE_MS)) as u32;
    wanted.max(DEBOUNCE_MS)
}

/// The 1-based line holding a UTF-16 offset (a textarea's `selectionStart`).
pub fn line_at(text: &str, utf16_offset: u32) -> usize {
    let mut units = 0u32;
    let mut line = 1;
    for c in text.chars() {
        if units >= utf16_offset {
            break;
        }
        units += c.len_utf16() as u32;
        line += usize::from(c == '\n');
    }
    line
}

/// How many lines the textarea shows for `text` (a last line break opens an empty line).
pub fn line_count(text: &str) -> usize {
    text.matches('\n').count() + 1
}

/// What the panel keeps between renders: the text as typed, and the scenario it was last in step with.
#[derive(Default)]
struct Draft {
    text: String,
    /// The model's scenario the text was last written from or applied to: a model still on it keeps the text.
    synced: Option<Scenario>,
    /// Why the text does not read, if it does not.
    error: Option<TextError>,
    /// The read waiting for typing to pause (replaced on every keystroke, never dropped while it runs).
    pending: Option<Timeout>,
    /// Counts keystrokes and rewrites: a read made for an older text does nothing.
    generation: u64,
    /// How long the last apply took, in milliseconds.
    last_apply_ms: f64,
    /// Text the timeline's scenario replaced before it could be applied (it did not read, or typing had
    /// not paused yet): kept for the user to bring back, never lost in silence.
    set_aside: Option<String>,
}

type SharedDraft = Rc<RefCell<Draft>>;

/// Props.
#[derive(Properties)]
pub struct TextPanelProps {
    pub model: Rc<LessonsModel>,
    pub dispatch: Dispatch,
    /// Shown (the panel stays mounted while hidden, so that nothing typed is lost).
    pub open: bool,
}

impl PartialEq for TextPanelProps {
    fn eq(&self, other: &Self) -> bool {
        let same_model = Rc::ptr_eq(&self.model, &other.model) || *self.model == *other.model;
        same_model && self.open == other.open && self.dispatch == other.dispatch
    }
}

/// Bring the text in step with the model's scenario: kept when it reads as that scenario (the user's own
/// spacing and comments stay), else rewritten by the formatter. Whether it changed anything to draw.
fn follow(draft: &SharedDraft, area: &NodeRef, scenario: &Scenario) -> bool {
    let mut d = draft.borrow_mut();
    if d.synced.as_ref() == Some(scenario) {
        return false;
    }
    let was = d.synced.replace(scenario.clone());
    let read = read_text(&d.text);
    if read.as_ref() == Ok(scenario) {
        return d.error.take().is_some();
    }
    // The text held what the last scenario did not (an error, or typing not applied yet): keep it.
    if was.is_some() && read.as_ref().ok() != was.as_ref() {
        d.set_aside = Some(std::mem::take(&mut d.text));
    }
    d.text = to_text(scenario);
    d.error = None;
    d.generation += 1;
    if let Some(area) = area.cast::<HtmlTextAreaElement>() {
        area.set_value(&d.text);
    }
    true
}

/// The longest text read: far more than a scenario's 1,000 events take, so that a pasted file of megabytes
/// is refused at once instead of read at every pause.
pub const MAX_TEXT_BYTES: usize = 1024 * 1024;

/// Read the text as typed, unless it is longer than [`MAX_TEXT_BYTES`].
fn read_text(text: &str) -> Result<Scenario, TextError> {
    if text.len() > MAX_TEXT_BYTES {
        let message =
            format!("the text is {} KB; a scenario's text is at most {} KB", text.len() / 1024, MAX_TEXT_BYTES / 1024);
        return Err(TextError { line: 1, column: 1, message });
    }
    parse_text(text)
}

/// The step the text cursor is at: on its line, or the last one above it.
fn caret_step(draft: &SharedDraft, area: &HtmlTextAreaElement) -> Option<usize> {
    let start = area.selection_start().ok().flatten()?;
    let d = draft.borrow();
    if d.text.len() > MAX_TEXT_BYTES {
        return None;
    }
    EventLines::of(&d.text).step_at(line_at(&d.text, start))
}

/// What a read made when typing paused needs.
struct Reader {
    draft: SharedDraft,
    area: NodeRef,
    dispatch: Dispatch,
    redraw: UseForceUpdateHandle,
}

/// Read the text as typed: apply the scenario it reads as (and show the step being written), or keep the
/// error to show at its line.
fn read_and_apply(reader: &Reader, generation: u64) {
    let Reader { draft, area, dispatch, redraw } = reader;
    if draft.borrow().generation != generation {
        return;
    }
    let read = read_text(&draft.borrow().text);
    let mut d = draft.borrow_mut();
    let apply = match read {
        Ok(scenario) => {
            d.error = None;
            let changed = d.synced.as_ref() != Some(&scenario);
            d.synced = Some(scenario.clone());
            changed.then_some(scenario)
        }
        Err(e) => {
            d.error = Some(e);
            None
        }
    };
    drop(d);
    if let Some(scenario) = apply {
        let started = js_sys::Date::now();
        dispatch.emit(Action::Edit(EditAction::ApplyText(Box::new(scenario))));
        draft.borrow_mut().last_apply_ms = js_sys::Date::now() - started;
        if let Some(step) = area.cast::<HtmlTextAreaElement>().and_then(|a| caret_step(draft, &a)) {
            dispatch.emit(Action::Cursor(CursorAction::Set(Some(step))));
        }
    }
    redraw.force_update();
}

/// Keep the text in step with every change of the scenario (a drag, an editor or configuration change, an
/// undo, a preset), while the panel is open.
#[hook]
fn use_follow_model(
    draft: &SharedDraft,
    area: &NodeRef,
    model: &Rc<LessonsModel>,
    open: bool,
    redraw: &UseForceUpdateHandle,
) {
    let s = &model.shown.scenario;
    let deps = (open, model.shown.traces.clone(), s.name.clone(), s.description.clone());
    let (draft, area, model, redraw) = (draft.clone(), area.clone(), model.clone(), redraw.clone());
    use_effect_with(deps, move |(open, ..)| {
        if *open && follow(&draft, &area, &model.shown.scenario) {
            redraw.force_update();
        }
    });
}

/// Typing: keep the text, and read it once typing pauses.
fn on_input(reader: Rc<Reader>) -> Callback<InputEvent> {
    Callback::from(move |e: InputEvent| {
        let value = e.target_unchecked_into::<HtmlTextAreaElement>().value();
        let mut d = reader.draft.borrow_mut();
        let more_lines = line_count(&value) != line_count(&d.text);
        d.text = value;
        d.generation += 1;
        let (later, generation) = (reader.clone(), d.generation);
        d.pending = Some(Timeout::new(debounce_ms(d.last_apply_ms), move || read_and_apply(&later, generation)));
        drop(d);
        if more_lines {
            reader.redraw.force_update();
        }
    })
}

/// Moving the text cursor onto an event's line shows that step (below it, the step above).
fn on_caret(draft: &SharedDraft, model: &Rc<LessonsModel>, dispatch: &Dispatch) -> Callback<HtmlTextAreaElement> {
    let (draft, model, dispatch) = (draft.clone(), model.clone(), dispatch.clone());
    Callback::from(move |area: HtmlTextAreaElement| {
        if let Some(step) = caret_step(&draft, &area)
            .filter(|s| *s < model.shown.scenario.events.len() && model.shown.cursor != Some(*s))
        {
            dispatch.emit(Action::Cursor(CursorAction::Set(Some(step))));
        }
    })
}

/// The line numbers, one text node (the marks are bands over them).
fn gutter(lines: usize) -> Html {
    let mut numbers = String::new();
    for n in 1..=lines {
        numbers.push_str(&n.to_string());
        numbers.push('\n');
    }
    html! { <pre class="text-panel__gutter" aria-hidden="true">{ numbers }</pre> }
}

/// A band across one line of the numbers and the text (whole lines: the text never wraps).
fn band(line: Option<usize>, class: &'static str, testid: &'static str) -> Html {
    let Some(line) = line else { return Html::default() };
    let style = format!("--line: {}", line - 1);
    html! { <div class={classes!("text-panel__band", class)} {style} aria-hidden="true" data-testid={testid} data-line={line.to_string()} /> }
}

/// What is wrong with the text, where, said as it happens.
fn status(error: Option<&TextError>) -> Html {
    let text = error.map(|e| format!("{e}. The timeline shows the last scenario the text read as."));
    html! {
        <p class={classes!("text-panel__status", text.is_some().then_some("text-panel__status--error"))} aria-live="polite" data-testid="text-error">
            { text.unwrap_or_default() }
        </p>
    }
}

/// Put the text the timeline replaced back in the panel (read again at once: its error shows again).
fn on_bring_back(reader: Rc<Reader>) -> Callback<MouseEvent> {
    Callback::from(move |_| {
        let mut d = reader.draft.borrow_mut();
        let Some(text) = d.set_aside.take() else { return };
        d.text = text;
        d.generation += 1;
        if let Some(area) = reader.area.cast::<HtmlTextAreaElement>() {
            area.set_value(&d.text);
        }
        let generation = d.generation;
        drop(d);
        read_and_apply(&reader, generation);
    })
}

/// The text a change on the timeline set aside, and the button that brings it back.
fn set_aside_line(set_aside: bool, onclick: Callback<MouseEvent>) -> Html {
    if !set_aside {
        return Html::default();
    }
    html! {
        <p class="text-panel__status" data-testid="text-set-aside">
            { "The timeline changed before your text was applied, so the text now shows the timeline's scenario; yours is kept. " }
            <button type="button" {onclick} data-testid="text-bring-back">{ "Bring back my text" }</button>
        </p>
    }
}

/// The panel.
#[function_component(TextPanel)]
pub fn text_panel(props: &TextPanelProps) -> Html {
    let draft: SharedDraft = use_mut_ref(Draft::default);
    let area = use_node_ref();
    let redraw = use_force_update();
    use_follow_model(&draft, &area, &props.model, props.open, &redraw);
    let reader = Rc::new(Reader { draft: draft.clone(), area: area.clone(), dispatch: props.dispatch.clone(), redraw });
    let oninput = on_input(reader.clone());
    let bring_back = on_bring_back(reader);
    let caret = on_caret(&draft, &props.model, &props.dispatch);
    let onkeyup = caret.reform(|e: KeyboardEvent| e.target_unchecked_into::<HtmlTextAreaElement>());
    let onclick = caret.reform(|e: MouseEvent| e.target_unchecked_into::<HtmlTextAreaElement>());
    let d = draft.borrow();
    let lines = line_count(&d.text);
    let readable = d.text.len() <= MAX_TEXT_BYTES;
    // Past the limit the gutter and the rows stop growing: drawing 400,000 line numbers froze the page.
    let lines = if readable { lines } else { 1 };
    let cursor_line = props.model.shown.cursor.filter(|_| readable).and_then(|c| EventLines::of(&d.text).line_of(c));
    let error_line = d.error.as_ref().map(|e| e.line);
    html! {
        <section id="text-panel" class="text-panel" aria-label="The scenario as text" hidden={!props.open} data-testid="text-panel">
            <label class="text-panel__label" for="text-panel-text">
                { "The scenario as text, applied as you type: one event per line (elect B, produce m1 acks=all, fetch A drop, crash A power no-notify)" }
            </label>
            <div class="text-panel__scroller">
                { band(cursor_line, "text-panel__band--cursor", "text-cursor-line") }
                { band(error_line, "text-panel__band--error", "text-error-line") }
                { gutter(lines) }
                <div class="text-panel__page">
                    <textarea ref={area} id="text-panel-text" class="text-panel__text" rows={(lines + 1).to_string()}
                        wrap="off" spellcheck="false" autocomplete="off" autocapitalize="off"
                        readonly={props.model.read_only} aria-describedby="text-panel-status"
                        {oninput} {onkeyup} {onclick} data-testid="text-input" />
                </div>
            </div>
            <div id="text-panel-status">{ status(d.error.as_ref()) }</div>
            { set_aside_line(d.set_aside.is_some(), bring_back) }
        </section>
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_line_of_a_caret_counts_utf16_units_as_the_browser_does() {
        let text = "name: é😀\nbrokers: A\r\nelect A\n";
        assert_eq!(line_at(text, 0), 1);
        // "name: é😀" is 6 + 1 + 2 UTF-16 units; its line break is the tenth.
        assert_eq!((line_at(text, 9), line_at(text, 10)), (1, 2));
        assert_eq!(line_at(text, 22), 3);
        assert_eq!(line_at(text, 1000), 4, "past the end: the empty last line");
        assert_eq!((line_count(""), line_count(text)), (1, 4));
    }

    #[test]
    fn a_slow_apply_waits_longer_for_typing_to_pause() {
        assert_eq!((debounce_ms(0.0), debounce_ms(20.0)), (DEBOUNCE_MS, DEBOUNCE_MS));
        assert_eq!(debounce_ms(200.0), 600);
        assert_eq!((debounce_ms(5000.0), debounce_ms(f64::NAN)), (MAX_DEBOUNCE_MS, DEBOUNCE_MS));
    }
}
