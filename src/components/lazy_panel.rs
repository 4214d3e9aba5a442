//! The frame of a panel the lessons' module draws (`model::panels`): the page draws the summary and an
//! empty root that stays in the page (the module draws into it), and says when the panel opens or closes, on
//! which the module is loaded and told. A line says so while the module is on its way, or why it could not
//! be loaded, with a button to try again.

use std::rc::Rc;

use web_sys::HtmlDetailsElement;
use yew::prelude::*;

use super::Dispatch;
use crate::model::panels::Panel;
use crate::model::{Action, ModuleAction};

/// Props.
#[derive(Properties, PartialEq)]
pub struct LazyPanelProps {
    pub summary: &'static str,
    pub testid: &'static str,
    pub panel: Panel,
    pub dispatch: Dispatch,
    /// Open from the start (the checker panel, for a link with a bounded-proof stamp).
    #[prop_or_default]
    pub open: bool,
    /// Why the module could not be loaded, if it could not.
    #[prop_or_default]
    pub failed: Option<Rc<str>>,
}

/// The root the module draws `panel` into, with the line shown until it has; always in the page, hidden
/// while `shown` is false, so that the module always finds the same element.
pub fn lazy_root(panel: Panel, shown: bool, failed: Option<&Rc<str>>, dispatch: &Dispatch) -> Html {
    let waiting = match failed {
        Some(why) => load_failed(why, dispatch),
        None => html! { <p class="lazy__wait">{ "Loading this panel…" }</p> },
    };
    html! {
        <div class="lazy" hidden={!shown} data-testid={panel.root_id().replace("-root", "-place")}>
            { waiting }
            <div id={panel.root_id()} class="lazy__root"></div>
        </div>
    }
}

/// Why the lessons' module (the lessons and these panels) could not be loaded, and a button to try again.
pub fn load_failed(why: &str, dispatch: &Dispatch) -> Html {
    let onclick = dispatch.reform(|_| Action::Module(ModuleAction::RetryLessons));
    html! {
        <p class="lazy__wait lazy__failed" role="alert" data-testid="lessons-failed">
            { format!("The lessons and panels could not be loaded ({why}). ") }
            <button type="button" {onclick} data-testid="lessons-retry">{ "Try again" }</button>
        </p>
    }
}

/// A `<details>` panel drawn by the module.
#[function_component(LazyPanel)]
pub fn lazy_panel(props: &LazyPanelProps) -> Html {
    let panel = props.panel;
    let ontoggle = props.dispatch.reform(move |e: Event| {
        Action::Module(ModuleAction::ShowPanel(panel, e.target_unchecked_into::<HtmlDetailsElement>().open()))
    });
    html! {
        <details class="workspace__config" data-testid={props.testid} open={props.open} {ontoggle}>
            <summary>{ props.summary }</summary>
            { lazy_root(panel, true, props.failed.as_ref(), &props.dispatch) }
        </details>
    }
}
