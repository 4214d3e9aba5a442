//! The module's side of the panels it draws for the page (`model::panels`): each open panel is drawn, as a
//! portal, into the root the page keeps for it, from the module's mirror of what the page shows.

use std::rc::Rc;

use yew::prelude::*;

use crate::components::panels::checker_panel::CheckerPanel;
use crate::components::panels::config::ConfigPanel;
use crate::components::panels::editor::EventEditor;
use crate::components::panels::my_scenarios::MyScenarios;
use crate::components::panels::sequence::SequenceDiagram;
use crate::components::panels::share_panel::SharePanel;
use crate::components::panels::text_panel::TextPanel;
use crate::components::Dispatch;
use crate::model::learn::LessonsModel;
use crate::model::panels::{Panel, Panels};

fn contents(panel: Panel, model: &Rc<LessonsModel>, dispatch: &Dispatch) -> Html {
    let (model, dispatch) = (model.clone(), dispatch.clone());
    match panel {
        Panel::Config => html! { <ConfigPanel {model} {dispatch} /> },
        Panel::Messages => html! { <SequenceDiagram {model} {dispatch} /> },
        Panel::Text => html! { <TextPanel {model} {dispatch} open=true /> },
        Panel::Checker => html! { <CheckerPanel {model} {dispatch} /> },
        Panel::Share => html! { <SharePanel {model} {dispatch} /> },
        Panel::Editor => html! { <EventEditor {model} {dispatch} /> },
        Panel::Saved => html! { <MyScenarios {model} {dispatch} /> },
    }
}

/// `contents` drawn into the page's element `id` (nothing while the page has not drawn it), keyed by it: a
/// panel opened or closed beside others must not take another's place, and state.
pub fn portal_into(id: &'static str, contents: Html) -> Html {
    let Some(host) = gloo::utils::document().get_element_by_id(id) else { return Html::default() };
    let portal = create_portal(contents, host);
    Html::VList(Rc::new(yew::virtual_dom::VList::with_children(vec![portal], Some(id.into()))))
}

/// The open panels, each in its root. While a lesson's question waits they show nothing past it (as the
/// page does), but what is exported is the whole scenario and its run. A panel once opened keeps its
/// portal, empty while closed: Yew adds listeners to a portal's host each time a portal is made there and
/// never removes them, so a portal made at every opening would add a few dozen each time.
pub fn portals(open: Panels, ever_opened: Panels, model: &Rc<LessonsModel>, dispatch: &Dispatch) -> Html {
    let held_back = model.held_back();
    Panel::ALL
        .into_iter()
        .filter(|p| ever_opened.is_open(*p) || open.is_open(*p))
        .map(|p| {
            // Share exports the whole; the editor edits the page's own timeline, as the page drew it before;
            // My scenarios names the whole.
            let shown = if matches!(p, Panel::Share | Panel::Editor | Panel::Saved) { model } else { &held_back };
            let drawn = if open.is_open(p) { contents(p, shown, dispatch) } else { Html::default() };
            portal_into(p.root_id(), drawn)
        })
        .collect()
}

/// The panels opened at least once: `before` and those open now.
pub fn opened_since(before: Panels, open: Panels) -> Panels {
    Panel::ALL.into_iter().filter(|p| open.is_open(*p)).fold(before, |all, p| all.with(p, true))
}
