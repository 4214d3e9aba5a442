//! The module's side of the panels it draws for the page (`model::panels`): each open panel is drawn, as a
//! portal, into the root the page keeps for it, from the module's mirror of what the page shows.

use std::rc::Rc;

use yew::prelude::*;

use crate::components::checker_panel::CheckerPanel;
use crate::components::config::ConfigPanel;
use crate::components::sequence::SequenceDiagram;
use crate::components::share_panel::SharePanel;
use crate::components::text_panel::TextPanel;
use crate::components::Dispatch;
use crate::model::panels::{Panel, Panels};
use crate::model::Model;

fn contents(panel: Panel, model: &Rc<Model>, dispatch: &Dispatch) -> Html {
    let (model, dispatch) = (model.clone(), dispatch.clone());
    match panel {
        Panel::Config => html! { <ConfigPanel {model} {dispatch} /> },
        Panel::Messages => html! { <SequenceDiagram {model} {dispatch} /> },
        Panel::Text => html! { <TextPanel {model} {dispatch} open=true /> },
        Panel::Checker => html! { <CheckerPanel {model} {dispatch} /> },
        Panel::Share => html! { <SharePanel {model} {dispatch} /> },
    }
}

/// The open panels, each in its root (one the page has not drawn is left out until it has).
pub fn portals(panels: Panels, model: &Rc<Model>, dispatch: &Dispatch) -> Html {
    let document = gloo::utils::document();
    Panel::ALL
        .into_iter()
        .filter(|p| panels.is_open(*p))
        .filter_map(|p| {
            let host = document.get_element_by_id(p.root_id())?;
            Some(create_portal(contents(p, model, dispatch), host))
        })
        .collect()
}
