//! The root component: holds the model, starts from the address (a share link or embed) or the saved
//! working scenario, wires the side effects, and lays out the full page or the compact embed.

use std::rc::Rc;

use yew::prelude::*;

use crate::components::config::ConfigPanel;
use crate::components::controls::Controls;
use crate::components::disclosure::Disclosure;
use crate::components::editor::EventEditor;
use crate::components::header::{headline, Header};
use crate::components::log_grid::Legend;
use crate::components::notice::NoticeBanner;
use crate::components::palette::Palette;
use crate::components::share_panel::SharePanel;
use crate::components::timeline::{chip_text, Timeline};
use crate::components::variant_panel::VariantPanel;
use crate::effects::{
    use_address_follows, use_embed_messages, use_file_drop, use_keyboard, use_pause_when_unseen, use_persistence,
    use_playback, use_reload_on_new_link,
};
use crate::icons::kind_info;
use crate::link::{self, EmbedMode};
use crate::model::{Action, Model, PlaceSource};
use crate::pointer_drag::use_pointer_drag;
use crate::startup::startup;
use crate::{storage, web};

/// Traces compared by identity (a re-run makes new ones), for memo dependencies.
#[derive(Clone)]
struct TracesRef(Rc<Vec<epochlab_core::Trace>>);

impl PartialEq for TracesRef {
    fn eq(&self, other: &Self) -> bool {
        Rc::ptr_eq(&self.0, &other.0)
    }
}

/// Yew's reducer wrapper around the pure [`Model`].
#[derive(Clone, PartialEq)]
struct State(Rc<Model>);

impl Reducible for State {
    type Action = Action;
    fn reduce(self: Rc<Self>, action: Action) -> Rc<Self> {
        Rc::new(State(Rc::new(self.0.reduce(action))))
    }
}

/// Props.
#[derive(Properties, PartialEq, Default)]
pub struct AppProps {
    /// The address's compressed share link, unpacked by the browser before the start ([`link::unpack`]).
    #[prop_or_default]
    pub unpacked: Rc<link::Unpacked>,
}

/// The app.
#[function_component(App)]
pub fn app(props: &AppProps) -> Html {
    let unpacked = props.unpacked.clone();
    let start = use_memo((), move |_| {
        let hash = web::hash();
        // An embed never touches the reader's saved scenario, not even to read it.
        let embedded = link::params(&hash).embed.is_some();
        let stored = if embedded { None } else { storage::load() };
        let s = startup(&hash, stored, (*unpacked).clone());
        (Rc::new(s.model), s.embed, s.persist_now)
    });
    let (first, embed, persist_now) = (start.0.clone(), start.1, start.2);
    let state = use_reducer(move || State(first));
    let model = state.0.clone();
    // One callback for the page's whole life, so that memoized components see equal props.
    let dispatch = {
        let dispatcher = state.dispatcher();
        (*use_memo((), move |_| Callback::from(move |a: Action| dispatcher.dispatch(a)))).clone()
    };
    // The latest model, for listeners registered once.
    let latest = use_mut_ref(|| model.clone());
    *latest.borrow_mut() = model.clone();
    let root = use_node_ref();

    use_persistence(&model, embed, persist_now);
    use_address_follows(&model, embed);
    use_reload_on_new_link();
    use_keyboard(latest.clone(), dispatch.clone());
    use_playback(model.playing, model.speed, dispatch.clone());
    use_pause_when_unseen(root.clone(), dispatch.clone());
    use_embed_messages(&model, latest.clone(), dispatch.clone());
    use_file_drop(latest.clone(), dispatch.clone());

    let drag = use_pointer_drag(model.clone(), dispatch.clone());
    // Every variant's view at the cursor, on one shared grid, computed once per model.
    let views = {
        let (traces, cursor) = (model.traces.clone(), model.cursor);
        use_memo((TracesRef(traces.clone()), cursor), move |_| epochlab_core::view::views(&traces, cursor))
    };
    let ghost = drag.view.as_ref().map(|v| {
        let text = match &v.source {
            PlaceSource::New(k) => kind_info(*k).1.to_string(),
            PlaceSource::Existing(i) => model.scenario.events.get(*i).map(chip_text).unwrap_or_default(),
        };
        // Whole pixels: formatting floats would pull float printing into the wasm.
        let style = format!("left: {}px; top: {}px", v.x as i32, v.y as i32);
        html! { <div class="drag-ghost" {style} aria-hidden="true" data-testid="drag-ghost">{ text }</div> }
    });
    let columns = format!("--variants: {}", model.variants.len());
    let variants = html! {
        <div class="variants" style={columns}>
            { for views.iter().enumerate().map(|(i, view)| html! {
                <VariantPanel traces={model.traces.clone()} index={i} step={model.cursor} view={view.clone()} dispatch={dispatch.clone()} />
            }) }
        </div>
    };
    let notice = html! { <NoticeBanner model={model.clone()} dispatch={dispatch.clone()} /> };
    let timeline = html! {
        <div class="workspace__timeline">
            <Controls model={model.clone()} dispatch={dispatch.clone()} />
            <Timeline model={model.clone()} dispatch={dispatch.clone()} drag={drag.clone()} />
            if !model.read_only { <EventEditor model={model.clone()} dispatch={dispatch.clone()} /> }
        </div>
    };

    if let Some(mode) = embed {
        let full = format!("{}#{}", web::page_url(), link::fragment(&model.snapshot(), None));
        return html! {
            <div ref={root} class={classes!("app", "app--embed", model.playing.then_some("app--playing"))} data-testid="embed">
                <header class="embed__head">
                    <p class="embed__headline" data-testid="headline">{ headline(&model) }</p>
                    <a class="embed__open" href={full} target="_blank" rel="noopener" data-testid="open-in-epochlab">{ "Open in Epochlab ↗" }</a>
                </header>
                { notice }
                <main class="workspace">
                    { timeline }
                    { variants }
                </main>
                if mode == EmbedMode::Edit { <Palette dispatch={dispatch.clone()} drag={drag.clone()} /> }
                { ghost.unwrap_or_default() }
            </div>
        };
    }

    html! {
        <div ref={root} class={classes!("app", model.playing.then_some("app--playing"))}>
            <Header model={model.clone()} dispatch={dispatch.clone()} />
            { notice }
            <main class="workspace">
                { timeline }
                { variants }
                <Legend />
                <Disclosure summary="Configuration: variants, brokers, cluster settings">
                    <ConfigPanel model={model.clone()} dispatch={dispatch.clone()} />
                </Disclosure>
                <Disclosure summary="Share, embed, export and import" testid="share-panel">
                    <SharePanel model={model.clone()} dispatch={dispatch.clone()} />
                </Disclosure>
            </main>
            <Palette dispatch={dispatch.clone()} drag={drag.clone()} />
            // Always one node here, so that siblings keep their DOM (and the timeline its scroll position).
            { ghost.unwrap_or_default() }
        </div>
    }
}
