//! The root component: holds the model, starts from the address (a share link or embed) or the saved
//! working scenario, runs the effects the reducer returns, wires the listeners, and lays out the full page
//! or the compact embed.

use std::rc::Rc;

use yew::prelude::*;

use crate::browser::effect_runner::EffectRunner;
use crate::browser::listeners::{
    use_embed_commands, use_file_drop, use_keyboard, use_lesson_messages, use_library_from_other_tabs,
    use_pause_when_unseen, use_playback, use_reload_on_new_link,
};
use crate::browser::pointer_drag::{use_pointer_drag, PointerDrag};
use crate::browser::{storage, web};
use crate::components::controls::Controls;
use crate::components::header::{headline, undo_buttons, Header};
use crate::components::lazy_panel::{lazy_root, load_failed, LazyPanel};
use crate::components::log_grid::Legend;
use crate::components::notice::NoticeBanner;
use crate::components::palette::Palette;
use crate::components::timeline::{chip_text, Timeline};
use crate::components::variant_panel::VariantPanel;
use crate::components::variant_switch::VariantSwitch;
use crate::components::{Dispatch, LatestModel};
use crate::formats::embed::Announced;
use crate::formats::icons::kind_info;
use crate::formats::link::{self, EmbedMode};
use crate::model::drag::DropTarget;
use crate::model::panels::Panel;
use crate::model::{Action, Effect, Meanwhile, Model, ModuleAction, Notice, PlaceSource, Shared};
use crate::page::startup::{
    keep_stored_before_link, startup, stored_library, Startup, StoredLibrary, NOTHING_KEPT, STORAGE_FULL,
};

/// Props.
#[derive(Properties, PartialEq, Default)]
pub struct AppProps {
    /// The address's compressed share link, unpacked by the browser before the start ([`crate::browser::compress::unpack`]).
    #[prop_or_default]
    pub unpacked: Rc<link::Unpacked>,
}

/// Open "My scenarios" into the first model, saying what could not be read; with a link, the stored working
/// scenario is kept there before the link's scenario can replace it.
fn open_library(model: &mut Model, stored: Option<&str>, linked: bool) {
    let notice = match stored_library(storage::load_library().as_deref()) {
        StoredLibrary::Read(library, notice) => {
            model.library = Shared::new(library);
            notice
        }
        StoredLibrary::Unreadable(notice) => {
            let _ = storage::load_library().map(|text| storage::set_aside_library(&text));
            Some(notice)
        }
    };
    model.now = js_sys::Date::now();
    if linked && keep_stored_before_link(model, stored, model.now) && storage::save_library(&model.library).is_ok() {
        let text = "Your own scenario is kept in My scenarios (under Configuration) while this link is open.";
        model.notice = model.notice.take().or(Some(Notice { error: false, text: text.to_string(), undo: false }));
    }
    if notice.is_some() {
        model.notice = notice;
    }
}

/// The first model, the embed mode, and whether storage works, from the address and the stored state.
fn start(unpacked: link::Unpacked) -> (Rc<Model>, Option<EmbedMode>, bool) {
    let hash = fragment_to_open();
    let params = link::params(&hash);
    // An embed never touches the reader's saved scenario, not even to read it.
    let embedded = params.embed.is_some();
    let access = if embedded { storage::Access::Blocked } else { storage::access() };
    // Full storage is still read: what it holds opens, and each save that fails is told.
    let stored_ok = access != storage::Access::Blocked;
    let stored = if stored_ok { storage::load() } else { None };
    let Startup { mut model, embed } = startup(&hash, stored.clone(), unpacked);
    if stored_ok {
        open_library(&mut model, stored.as_deref(), params.payload.is_some());
    }
    let warning = match access {
        _ if embedded => None,
        storage::Access::Full => Some(STORAGE_FULL),
        storage::Access::Blocked => Some(NOTHING_KEPT),
        storage::Access::Works => None,
    };
    if let Some(text) = warning {
        model.notice = Some(Notice { error: true, text: text.to_string(), undo: false });
    }
    if !embedded {
        open_panels(&mut model, &hash, stored_ok && storage::text_panel_open());
    }
    model.page.stored = stored_ok;
    model.page.framed = web::in_frame();
    model.page.ready_waits_for_lesson = model.page.framed && params.lesson.is_some();
    (Rc::new(model), embed, stored_ok)
}

/// The address's fragment, without the link it held when this tab last went away if the saved working copy
/// is newer than that link (a reload right after an edit, see `Meanwhile::RecordStale`): that link
/// leaves the address too.
fn fragment_to_open() -> String {
    let hash = web::hash();
    // An embed never records one (it saves nothing), nor reads the reader's storage.
    if link::params(&hash).embed.is_some() {
        return hash;
    }
    let stale = storage::take_stale_link();
    if stale.is_none() || link::params(&hash).payload != stale {
        return hash;
    }
    let bare = link::without_payload(&hash);
    web::replace_hash(&bare);
    bare
}

/// The panels open from the start (the module that draws them is loaded for them): the text panel if the
/// user left it open, the checker for a link with a bounded-proof stamp (it shows the stamp and a re-check).
fn open_panels(model: &mut Model, hash: &str, text_open: bool) {
    for (panel, open) in [(Panel::Text, text_open), (Panel::Checker, hash.contains("proof="))] {
        if open {
            model.lessons.panels = model.lessons.panels.with(panel, true);
            model.lessons.loaded = true;
        }
    }
}

/// What the first model causes: the address written, and a linked lesson fetched.
fn first_effects(first: &Model) -> Vec<Effect> {
    // The opened page's run is what the address shows (a link opened), or the address holds no link yet: no
    // re-run to mark (writing the opened link back at once cost a 1,000-event link 10 ms of its opening).
    let mut effects = vec![Effect::WriteAddress { meanwhile: Meanwhile::Unchanged }];
    if first.lessons.loaded {
        effects.push(Effect::LoadLessons);
    }
    effects
}

/// The model, the latest one for listeners, and the one way to change it: reduce, run the effects the
/// reducer returned, draw.
#[hook]
fn use_store(first: Rc<Model>, embed: Option<EmbedMode>) -> (Rc<Model>, LatestModel, Dispatch) {
    let latest = use_mut_ref(|| first.clone());
    let redraw = use_force_update();
    // One callback for the page's whole life, so that memoized components see equal props.
    let dispatch = {
        let latest = latest.clone();
        (*use_memo((), move |_| {
            // A failed save is told through the dispatch made below.
            let told: Rc<std::cell::RefCell<Option<Dispatch>>> = Rc::default();
            let runner = EffectRunner::new(embed, told.clone());
            // The address holds the scenario from the first load (the landing or stored one too), not only
            // after an edit; a link opened is in the address already, so nothing is written at once.
            runner.run(&first_effects(&latest.borrow()), &latest.borrow());
            let dispatch = Callback::from(move |action: Action| {
                let current = latest.borrow().clone();
                let (next, effects) = current.reduce_at(action, js_sys::Date::now());
                let next = Rc::new(next);
                *latest.borrow_mut() = next.clone();
                runner.run(&effects, &next);
                redraw.force_update();
            });
            *told.borrow_mut() = Some(dispatch.clone());
            dispatch
        }))
        .clone()
    };
    // A framed page says once that it is ready; every step after is an effect of the action that made it.
    use_effect_with((), move |_| {
        if first.page.framed && !first.page.ready_waits_for_lesson {
            web::post_to_parent(&first.announcement(Announced::Ready).to_json());
        }
    });
    let model = latest.borrow().clone();
    (model, latest, dispatch)
}

/// What both layouts show.
struct Parts {
    notice: Html,
    timeline: Html,
    variants: Html,
    /// Always one node, so that siblings keep their DOM (and the timeline its scroll position).
    ghost: Html,
    /// The live region a screen reader reads: the step's narration, what a placement did.
    spoken: Html,
}

/// The chip under the pointer while dragging.
fn drag_ghost(model: &Model, drag: &PointerDrag) -> Html {
    let Some(v) = drag.view.as_ref() else { return Html::default() };
    let text = match &v.source {
        PlaceSource::New(k) => kind_info(*k).1.to_string(),
        PlaceSource::Existing(i) => {
            let produced = model.shown.primary().and_then(|t| t.produced_label(*i));
            model.shown.scenario.events.get(*i).map(|e| chip_text(e, produced)).unwrap_or_default()
        }
    };
    // Whole pixels: formatting floats would pull float printing into the wasm. The ghost stays on screen
    // (it is centred on the pointer), so that a refused drop's reason is never cut by the window's edge.
    let width = web::viewport_width();
    let x = (v.x as i32).clamp(GHOST_HALF_WIDTH.min(width / 2), (width - GHOST_HALF_WIDTH).max(width / 2));
    let style = format!("left: {x}px; top: {}px", v.y as i32);
    // Dragged over a lane that refuses it: the ghost says why (the timeline's scroller cannot clip it here).
    let refused = match &v.target {
        Some(DropTarget::Gap { problem: Some(why), .. }) => Some(why.clone()),
        _ => None,
    };
    let class = classes!("drag-ghost", refused.is_some().then_some("drag-ghost--refused"));
    html! {
        <div {class} {style} aria-hidden="true" data-testid="drag-ghost">
            <span class="drag-ghost__what">{ text }</span>
            { for refused.map(|why| html! { <span class="drag-ghost__why" data-testid="drag-ghost-why">{ why }</span> }) }
        </div>
    }
}

/// Half the widest ghost, in CSS pixels (its max-width is 16rem).
const GHOST_HALF_WIDTH: i32 = 125;

/// Every variant's panel at the cursor, on one shared grid computed once per model.
#[hook]
fn use_variants(model: &Rc<Model>, dispatch: &Callback<Action>) -> Html {
    let views = {
        let (traces, cursor) = (model.shown.traces.clone(), model.shown.cursor);
        // Each behind its own `Rc`: the panel and its log grid share it instead of copying it per render.
        use_memo((traces.clone(), cursor), move |_| {
            epochlab_core::view::views(&traces, cursor).into_iter().map(Rc::new).collect::<Vec<_>>()
        })
    };
    // The panel shown alone on a narrow screen (the switch chooses it).
    let shown = use_state(|| 0usize);
    let current = (*shown).min(model.shown.variants.len().saturating_sub(1));
    let choose = Callback::from(move |i: usize| shown.set(i));
    let columns = format!("--variants: {}", model.shown.variants.len());
    let marks = model.marks.clone();
    html! {
        <>
            <VariantSwitch traces={model.shown.traces.clone()} shown={current} first_difference={model.shown.first_difference} {choose} dispatch={dispatch.clone()} pending={model.pending.is_some()} />
            <div class="variants" style={columns} id="variants" tabindex="-1" aria-label="The logs, variant by variant" role="region">
                { for views.iter().enumerate().map(|(i, view)| html! {
                    <div class={classes!("variants__item", (i != current).then_some("variants__item--aside"))}>
                        <VariantPanel traces={model.shown.traces.clone()} index={i} step={model.shown.cursor} view={view.clone()} held={model.shown.held.get(i).cloned().flatten()} dispatch={dispatch.clone()} marks={marks.clone()} pending={model.pending.is_some()} painting={model.painting.clone()} release={model.shown.scenario.config.kafka_version} />
                    </div>
                }) }
            </div>
        </>
    }
}

/// The text panel and the button that shows it (the full page only): open or not, remembered in storage.
struct TextParts {
    toggle: Html,
    panel: Html,
}

/// The button that shows the scenario as text, and the root the lessons' module draws the text panel into
/// (the full page only): open or not, remembered in storage (read at the start, `startup`).
fn text_parts(model: &Rc<Model>, dispatch: &Callback<Action>, embedded: bool) -> TextParts {
    if embedded {
        return TextParts { toggle: Html::default(), panel: Html::default() };
    }
    let open = model.lessons.panels.is_open(Panel::Text);
    let onclick = dispatch.reform(move |_| {
        storage::save_text_panel(!open);
        Action::Module(ModuleAction::ShowPanel(Panel::Text, !open))
    });
    let label = if open { "Hide the scenario as text" } else { "Show the scenario as text" };
    TextParts {
        toggle: html! {
            <button type="button" class="workspace__text-toggle" aria-expanded={open.to_string()} aria-controls="text-panel"
                title={label} {onclick} data-testid="text-toggle">{ "Text" }</button>
        },
        panel: lazy_root(Panel::Text, open, model.lessons.failed.as_ref(), dispatch),
    }
}

fn parts(model: &Rc<Model>, dispatch: &Callback<Action>, drag: &PointerDrag, variants: Html, text: TextParts) -> Parts {
    let timeline = html! {
        <div class="workspace__timeline">
            <div class="workspace__bar">
                <Controls model={model.clone()} dispatch={dispatch.clone()} />
                { text.toggle }
            </div>
            <Timeline model={model.clone()} dispatch={dispatch.clone()} drag={drag.clone()} />
            // The selected event's editor, drawn by the lessons' module (not part of the first download).
            if !model.page.read_only {
                { lazy_root(Panel::Editor, model.selected.is_some(), model.lessons.failed.as_ref(), dispatch) }
            }
            { text.panel }
        </div>
    };
    Parts {
        notice: html! { <NoticeBanner model={model.clone()} dispatch={dispatch.clone()} /> },
        timeline,
        variants,
        ghost: drag_ghost(model, drag),
        spoken: html! { <p class="sr-only" aria-live="polite" data-testid="spoken">{ &model.spoken }</p> },
    }
}

/// The compact embed: the headline, a link to the full app, the timeline and the variants.
fn embed_page(root: NodeRef, model: &Model, dispatch: &Dispatch, mode: EmbedMode, parts: Parts, palette: Html) -> Html {
    let full = format!("{}#{}", web::page_url(), link::fragment(&model.shown.snapshot(), None));
    html! {
        <div ref={root} class={classes!("app", "app--embed", model.playing.then_some("app--playing"))} data-testid="embed">
            <header class="embed__head">
                <h1 class="embed__headline" data-testid="headline">{ headline(model) }</h1>
                if mode == EmbedMode::Edit { { undo_buttons(model, dispatch) } }
                <a class="embed__open" href={full} target="_blank" rel="noopener" data-testid="open-in-epochlab">{ "Open in Epochlab ↗" }</a>
            </header>
            { parts.notice }
            if mode == EmbedMode::Edit { { palette } }
            <main class="workspace">
                { parts.timeline }
                { parts.variants }
            </main>
            { parts.ghost }
            { parts.spoken }
        </div>
    }
}

/// Links past the header and the palette. They focus their target without following the link: the
/// address's fragment holds the scenario.
fn skip_links() -> Html {
    let link = |target: &'static str, text: &'static str| {
        let onclick = Callback::from(move |e: MouseEvent| {
            e.prevent_default();
            web::focus_after_render(&format!("#{target}"));
        });
        html! { <a href={format!("#{target}")} {onclick}>{ text }</a> }
    };
    html! {
        <nav class="skip-links" aria-label="Skip links">
            { link("timeline", "Skip to the timeline") }
            { link("variants", "Skip to the logs") }
        </nav>
    }
}

/// Why the lessons' module could not be loaded, where the lessons would be, when no open panel says so
/// already (the Learn button, a lesson's link or a file import waited for it).
fn waiting_lessons_failed(model: &Model, dispatch: &Dispatch) -> Html {
    match &model.lessons.failed {
        Some(why) if !model.lessons.panels.any() => load_failed(why, dispatch),
        _ => Html::default(),
    }
}

/// Where the lessons' module draws (the page never draws inside it).
fn lesson_root() -> Html {
    html! { <div id={crate::model::bridge::ROOT_ID} class="lesson-root" key="lesson-root"></div> }
}

/// The compact lesson for a blog post: the lesson beside the timeline and the variants, with a link to
/// the same lesson in the full app.
fn lesson_embed_page(root: NodeRef, model: &Rc<Model>, dispatch: &Dispatch, parts: Parts) -> Html {
    let lesson = model.lesson_fragment().map_or_else(String::new, |l| format!("#{l}"));
    let full = format!("{}{lesson}", web::page_url());
    html! {
        <div ref={root} class={classes!("app", "app--embed", "app--lesson", model.playing.then_some("app--playing"))} data-testid="embed">
            <header class="embed__head">
                <h1 class="embed__headline" data-testid="headline">{ headline(model) }</h1>
                { undo_buttons(model, dispatch) }
                <a class="embed__open" href={full} target="_blank" rel="noopener" data-testid="open-in-epochlab">{ "Open in Epochlab ↗" }</a>
            </header>
            { parts.notice }
            <main class="workspace">
                { lesson_root() }
                { waiting_lessons_failed(model, dispatch) }
                { parts.timeline }
                { parts.variants }
            </main>
            { parts.ghost }
            { parts.spoken }
        </div>
    }
}

/// The full page: the header, the workspace with its panels, and the palette.
fn full_page(root: NodeRef, model: &Rc<Model>, dispatch: &Callback<Action>, parts: Parts, palette: Html) -> Html {
    let failed = model.lessons.failed.clone();
    html! {
        <div ref={root} class={classes!("app", model.playing.then_some("app--playing"))}>
            { skip_links() }
            <Header model={model.clone()} dispatch={dispatch.clone()} />
            { parts.notice }
            // Before the workspace in the tab order too, as it is drawn above it (a dock at the bottom on phones).
            { palette }
            <main class="workspace">
                { lesson_root() }
                { waiting_lessons_failed(model, dispatch) }
                { parts.timeline }
                { parts.variants }
                <Legend />
                <LazyPanel summary="Configuration: variants, brokers, cluster settings" testid="config-panel" failed={failed.clone()} panel={Panel::Config} dispatch={dispatch.clone()} />
                <LazyPanel summary="Messages: a sequence diagram of the shown variants" testid="messages-panel" failed={failed.clone()} panel={Panel::Messages} dispatch={dispatch.clone()} />
                <LazyPanel summary="Find the shortest failure (model checker) and shrink a scenario" testid="checker" failed={failed.clone()} panel={Panel::Checker} dispatch={dispatch.clone()} open={model.lessons.panels.is_open(Panel::Checker)} />
                <LazyPanel summary="Name, description and My scenarios" testid="my-scenarios" failed={failed.clone()} panel={Panel::Saved} dispatch={dispatch.clone()} />
                <LazyPanel summary="Share, embed, export and import" testid="share-panel" failed={failed.clone()} panel={Panel::Share} dispatch={dispatch.clone()} />
            </main>
            { parts.ghost }
            { parts.spoken }
        </div>
    }
}

/// The app.
#[function_component(App)]
pub fn app(props: &AppProps) -> Html {
    let unpacked = props.unpacked.clone();
    let started = use_memo((), move |_| start((*unpacked).clone()));
    let (model, latest, dispatch) = use_store(started.0.clone(), started.1);
    // While a lesson's question waits, the page is drawn from the steps before it (not memoized: it is cut
    // again on each drawing during the question only, which keeps the page's first download smaller).
    let model = model.before_question().map_or(model, Rc::new);
    let root = use_node_ref();
    use_reload_on_new_link();
    use_keyboard(latest.clone(), dispatch.clone());
    use_playback(model.playing, model.speed, dispatch.clone());
    use_pause_when_unseen(root.clone(), dispatch.clone());
    use_embed_commands(latest.clone(), dispatch.clone(), started.1.is_some());
    use_library_from_other_tabs(latest.clone(), dispatch.clone(), started.2);
    use_file_drop(latest, dispatch.clone());
    use_lesson_messages(dispatch.clone());
    let drag = use_pointer_drag(model.clone(), dispatch.clone());
    let variants = use_variants(&model, &dispatch);
    let text = text_parts(&model, &dispatch, started.1.is_some());
    let parts = parts(&model, &dispatch, &drag, variants, text);
    let palette = html! { <Palette dispatch={dispatch.clone()} drag={drag.clone()} /> };
    match started.1 {
        Some(EmbedMode::Lesson) => lesson_embed_page(root, &model, &dispatch, parts),
        Some(mode) => embed_page(root, &model, &dispatch, mode, parts, palette),
        None => full_page(root, &model, &dispatch, parts, palette),
    }
}
