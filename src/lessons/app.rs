//! The lessons' module: a second wasm binary (`epochlab-lessons`), loaded by the page when the Learn panel
//! first opens, a lesson link is opened, or one of the panels it draws (`model::panels`: the configuration,
//! the message diagram, the text, the checker, share and export) is opened, so that their code and the
//! lessons' content stay out of the page's first download. It draws the Learn panel and the lesson followed
//! into the page's `#lesson-root` and the panels into theirs, keeps the lessons' model (`model::learn`, on a
//! model of its own that mirrors what the page shows), and talks to the page through window events
//! (`model::bridge`): it asks the page to show a lesson's scenario at a step, to mark what a step points at
//! and to carry out what the user did in a panel; the page tells it of every change, on which a task is
//! graded.

use std::cell::RefCell;
use std::rc::Rc;

use gloo::events::EventListener;
use wasm_bindgen::JsCast;
use wasm_bindgen_futures::spawn_local;
use yew::prelude::*;

use crate::browser::{storage, web};
use crate::components::lessons::learn_panel::LearnPanel;
use crate::components::lessons::lesson_builder::LessonBuilder;
use crate::components::lessons::lesson_panel::LessonPanel;
use crate::components::Dispatch;
use crate::formats::link::{self, EmbedMode};
use crate::lessons::mirror::{change, Deferred, Shared, MIRRORED};
use crate::model::bridge::{ToLessons, ToPage, ROOT_ID, TO_LESSONS, TO_PAGE};
use crate::model::learn::{
    mine_from_json, mine_to_json, opened_progress, page_messages, Draft, DraftAction, KeptLesson, LessonsEffect,
    LessonsModel,
};
use crate::model::panels::{Forwarded, Panels};
use crate::model::{Action, LearnAction, ModuleAction, Notice};
use crate::model::{EditAction, NoticeAction};

/// Where the lesson files are, beside the page (Trunk copies them there).
const LESSONS: &str = "lessons/";

/// Start the module. It draws only through portals, into the page's `#lesson-root` and the panels' roots;
/// its own root is an empty hidden element. Two Yew apps number their subtrees alike (a root is 1, portals
/// count from 2), and the page's app takes an event inside a subtree numbered as its own root for its own:
/// a click in a module's root would run whichever page listener has the same number.
pub fn start() {
    crate::browser::panic::install();
    let document = gloo::utils::document();
    let (Ok(root), Some(body)) = (document.create_element("div"), document.body()) else { return };
    let _ = root.set_attribute("hidden", "");
    if body.append_child(&root).is_ok() {
        yew::Renderer::<LessonApp>::with_root(root).render();
    }
}

fn send(message: &ToPage) {
    web::send_event(TO_PAGE, &message.to_json());
}

/// The lessons' model at the start, with the stored progress (an embed neither reads nor writes it).
fn first_model(embed: Option<EmbedMode>) -> (LessonsModel, Option<Notice>) {
    let embedded = embed.is_some();
    let mut m = LessonsModel { read_only: embed == Some(EmbedMode::View), ..LessonsModel::default() };
    let stored = if embedded { None } else { storage::load_progress() };
    let (progress, notice) = stored.map(|text| opened_progress(&text)).unwrap_or_default();
    m.learn_mut().progress = Rc::new(progress);
    let draft = if embedded { None } else { storage::load_draft() };
    m.learn_mut().draft = draft.map(|text| Draft::new(&text));
    let (mine, mine_notice) = if embedded { (Vec::new(), None) } else { stored_mine() };
    m.learn_mut().mine = Rc::new(mine);
    (m, notice.or(mine_notice))
}

/// The lessons kept as stored, and what to say if some or all could not be read (what cannot be read is kept
/// aside, never written over).
fn stored_mine() -> (Vec<KeptLesson>, Option<Notice>) {
    let Some(text) = storage::load_mine() else { return (Vec::new(), None) };
    let say = |text: String| Some(Notice { error: true, text, undo: false });
    match mine_from_json(&text) {
        Ok((mine, 0)) => (mine, None),
        Ok((mine, skipped)) => {
            (mine, say(format!("{skipped} of the lessons kept in My scenarios could not be read and were left out.")))
        }
        Err(why) => {
            storage::set_aside_mine(&text);
            (
                Vec::new(),
                say(format!(
                    "The lessons kept in My scenarios could not be read ({why}); what was stored is kept aside."
                )),
            )
        }
    }
}

/// Tell the page what a lesson action changed of what it shows.
fn tell_page(before: &LessonsModel, after: &LessonsModel) {
    // Before the page has said what it shows, the mirror holds an empty scenario, not the page's.
    for message in page_messages(before, after) {
        if MIRRORED.get() || !matches!(message, ToPage::Show(_)) {
            send(&message);
        }
    }
}

/// Fetch a shipped file and hand what came back to the lessons.
fn fetch(dispatch: &Dispatch, path: String, then: impl FnOnce(Result<String, String>) -> LearnAction + 'static) {
    let dispatch = dispatch.clone();
    spawn_local(async move {
        let text = web::fetch_text(&path).await;
        dispatch.emit(Action::Learn(then(text)));
    });
}

fn run_effects(effects: &[LessonsEffect], model: &LessonsModel, dispatch: &Dispatch, embedded: bool) {
    for effect in effects {
        match effect {
            // An embed neither reads nor writes the reader's progress, drafts or kept lessons.
            LessonsEffect::SaveMine | LessonsEffect::SaveDraft(_) | LessonsEffect::SaveProgress if embedded => {}
            LessonsEffect::FetchIndex => fetch(dispatch, format!("{LESSONS}index.json"), LearnAction::IndexLoaded),
            LessonsEffect::FetchLesson { id, file, step } => {
                let (id, step) = (id.clone(), *step);
                fetch(dispatch, format!("{LESSONS}{file}"), move |text| LearnAction::LessonLoaded(id, step, text));
            }
            LessonsEffect::UnpackLesson { reference, step } => {
                let (dispatch, reference, step) = (dispatch.clone(), reference.clone(), *step);
                spawn_local(async move {
                    let text = crate::browser::compress::unpack_lesson(&reference).await;
                    dispatch.emit(Action::Learn(LearnAction::LessonLoaded(reference, step, text)));
                });
            }
            LessonsEffect::PackLesson(text) => {
                let (dispatch, text) = (dispatch.clone(), text.clone());
                spawn_local(async move {
                    let made = crate::browser::compress::pack_lesson(&text).await;
                    dispatch.emit(Action::Learn(LearnAction::Draft(DraftAction::Linked(text, made))));
                });
            }
            LessonsEffect::SaveMine => {
                if let Err(why) = storage::save_mine(&mine_to_json(&model.learn.mine)) {
                    let text = format!("The lessons kept in My scenarios could not be saved in this browser ({why}).");
                    send(&ToPage::Notice(Notice { error: true, text, undo: false }));
                }
            }
            LessonsEffect::SaveDraft(text) => {
                if let Err(why) = storage::save_draft(text) {
                    let text = format!("The lesson you are writing could not be kept in this browser ({why}).");
                    send(&ToPage::Notice(Notice { error: true, text, undo: false }));
                }
            }
            LessonsEffect::SaveProgress => {
                if let Err(why) = storage::save_progress(&model.learn.progress) {
                    let text = format!("Your lesson progress could not be saved in this browser ({why}).");
                    send(&ToPage::Notice(Notice { error: true, text, undo: false }));
                }
            }
        }
    }
}

/// What a lesson action is handled with.
#[derive(Clone)]
struct Handler {
    model: Shared,
    deferred: Deferred,
    redraw: UseForceUpdateHandle,
    embedded: bool,
}

/// One lesson action: reduce, keep, tell the page, run the effects, draw.
fn handle(h: &Handler, action: Action, dispatch: &Dispatch) {
    let (model, embedded) = (&h.model, h.embedded);
    // On what the page shows now, not on what it showed when the module last looked.
    h.deferred.apply(model);
    match action {
        Action::Learn(a) => {
            let before = model.borrow().clone();
            let (next, effects) = before.learn_reduce(a);
            let next = Rc::new(next);
            *model.borrow_mut() = next.clone();
            tell_page(&before, &next);
            run_effects(&effects, &next, dispatch, embedded);
        }
        Action::Notice(NoticeAction::Show(notice)) => send(&ToPage::Notice(notice)),
        // Picked in the share panel: this module has the readers. Carried out at once: emitting the result
        // on `dispatch` would re-enter the callback this handler runs in.
        Action::Module(ModuleAction::ImportFile { source, content, shown }) => {
            let read = crate::browser::import_file::import_action(&shown, &source, &content);
            return handle(h, read, dispatch);
        }
        // The editor's new event travels with the brokers it is read against (the mirror is let go of before
        // the page, which answers at once, is told).
        Action::Edit(EditAction::Replace(step, event)) => {
            let forwarded = Forwarded::edit(step, *event, &model.borrow().shown.scenario);
            send(&ToPage::Do(forwarded));
        }
        // A panel's action is the page's to carry out; the page then says what it shows.
        other => {
            if let Some(forwarded) = Forwarded::of(&other) {
                send(&ToPage::Do(forwarded));
            }
        }
    }
    h.redraw.force_update();
}

/// What the page says: what it shows now, to open or close the list, which panels are open, what My
/// scenarios lists.
fn listen(h: Handler, panels: Rc<RefCell<Panels>>, dispatch: Dispatch) -> EventListener {
    let Handler { model, deferred, redraw, .. } = h;
    EventListener::new(&gloo::utils::window(), TO_LESSONS, move |e| {
        let detail = e.dyn_ref::<web_sys::CustomEvent>().and_then(|e| e.detail().as_string()).unwrap_or_default();
        match ToLessons::from_json(&detail) {
            Ok(ToLessons::Shown(shown)) => {
                if deferred.shown(&model, *panels.borrow(), shown) {
                    redraw.force_update();
                }
            }
            Ok(ToLessons::Splice(splice)) => match deferred.splice(&model, *panels.borrow(), &splice) {
                Some(drawn) => {
                    if drawn {
                        redraw.force_update();
                    }
                }
                // Not the timeline it was made for: the page sends the whole again when asked.
                None => send(&ToPage::Ready),
            },
            Ok(ToLessons::Cursor(cursor)) => {
                if deferred.cursor(&model, cursor) {
                    redraw.force_update();
                }
            }
            Ok(ToLessons::Toggle) => dispatch.emit(Action::Learn(LearnAction::Toggle)),
            // After this listener returns: the page answers the import with what it shows, an event this
            // listener receives, which it cannot while it runs.
            Ok(ToLessons::ReadFile(t)) => {
                let dispatch = dispatch.clone();
                spawn_local(async move {
                    crate::browser::import_file::import_into(&dispatch, &t.shown, &t.source, &t.content)
                });
            }
            Ok(ToLessons::Select(step)) => {
                change(&model, |m| m.selected = step.map(|s| s as usize));
                redraw.force_update();
            }
            Ok(ToLessons::Library(listing)) => {
                change(&model, |m| m.learn_mut().listing = Rc::new(*listing));
                redraw.force_update();
            }
            Ok(ToLessons::Panels(open)) => {
                *panels.borrow_mut() = open;
                deferred.apply(&model);
                redraw.force_update();
            }
            Err(why) => gloo::console::warn!(format!("The lessons ignored a message: {why}")),
        }
    })
}

/// The panels opened at least once (their portals stay, see `portals`).
#[hook]
fn use_ever_opened(open: Panels) -> Panels {
    let ever = use_mut_ref(Panels::default);
    let opened = crate::lessons::portals::opened_since(*ever.borrow(), open);
    *ever.borrow_mut() = opened;
    opened
}

#[function_component(LessonApp)]
fn lesson_app() -> Html {
    let params = use_memo((), |_| link::params(&web::hash()));
    let started = use_memo((), {
        let embed = params.embed;
        move |_| first_model(embed)
    });
    let model: Shared = use_mut_ref(|| Rc::new(started.0.clone()));
    let panels: Rc<RefCell<Panels>> = use_mut_ref(Panels::default);
    let redraw = use_force_update();
    let handler = Handler {
        model: model.clone(),
        deferred: (*use_memo((), |_| Deferred::default())).clone(),
        redraw,
        embedded: params.embed.is_some(),
    };
    let dispatch = {
        let h = handler.clone();
        (*use_memo((), move |_| {
            let me: Rc<RefCell<Option<Dispatch>>> = Rc::default();
            let cb = {
                let me = me.clone();
                Callback::from(move |a: Action| {
                    let Some(d) = me.borrow().clone() else { return };
                    handle(&h, a, &d);
                })
            };
            *me.borrow_mut() = Some(cb.clone());
            cb
        }))
        .clone()
    };
    {
        let (dispatch, notice, panels) = (dispatch.clone(), started.1.clone(), panels.clone());
        use_effect_with((), move |_| {
            let listener = listen(handler, panels, dispatch.clone());
            let painting = crate::lessons::paint::listen(&dispatch);
            let pointing = crate::lessons::point::listen(&dispatch);
            send(&ToPage::Ready);
            if let Some(notice) = notice {
                send(&ToPage::Notice(notice));
            }
            // A lesson link opens its lesson, a lesson embed without one the list; the Learn button asks the
            // page, which tells the module once it is ready (as it does which panels are open).
            match params.lesson.clone() {
                Some((id, step)) => dispatch.emit(Action::Learn(LearnAction::Start(id, step))),
                None if params.embed == Some(link::EmbedMode::Lesson) => {
                    dispatch.emit(Action::Learn(LearnAction::Toggle))
                }
                None => {}
            }
            move || drop((listener, painting, pointing))
        });
    }
    let m = model.borrow().clone();
    let open = *panels.borrow();
    let opened = use_ever_opened(open);
    let lessons = html! {
        <>
            if m.learn.shown { <LearnPanel model={m.clone()} dispatch={dispatch.clone()} /> }
            <LessonBuilder model={m.clone()} dispatch={dispatch.clone()} />
            <LessonPanel model={m.clone()} dispatch={dispatch.clone()} />
        </>
    };
    html! {
        <>
            { crate::lessons::portals::portal_into(ROOT_ID, lessons) }
            { crate::lessons::portals::portals(open, opened, &m, &dispatch) }
        </>
    }
}
