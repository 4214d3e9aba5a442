//! The page's components. Each turns part of the model (and the core's view model) into markup; none of
//! them re-derives a protocol rule.

pub mod checker_panel;
pub mod config;
pub mod controls;
pub mod disclosure;
pub mod editor;
pub mod explanation;
pub mod header;
pub mod lazy_panel;
pub mod learn_panel;
pub mod lesson_panel;
pub mod lesson_question;
pub mod lesson_releases;
pub mod log_grid;
pub mod my_scenarios;
pub mod notice;
pub mod palette;
pub mod reads;
pub mod releases;
pub mod sequence;
pub mod share_panel;
pub mod text_panel;
pub mod timeline;
pub mod variant_panel;
pub mod variant_switch;

use std::rc::Rc;

use yew::prelude::*;

use crate::model::{Action, Model};

/// The one way to change the model.
pub type Dispatch = Callback<Action>;

pub use crate::model::LatestModel;

/// What most components take: the model and a way to change it.
#[derive(Properties, Clone)]
pub struct ModelProps {
    /// The current model.
    pub model: Rc<Model>,
    /// Dispatch an action.
    pub dispatch: Callback<Action>,
}

impl PartialEq for ModelProps {
    fn eq(&self, other: &Self) -> bool {
        Rc::ptr_eq(&self.model, &other.model) || *self.model == *other.model
    }
}

/// Traces compared by identity (a re-run makes new ones), for memo dependencies.
#[derive(Clone)]
pub struct TracesRef(pub Rc<Vec<epochlab_core::Trace>>);

impl PartialEq for TracesRef {
    fn eq(&self, other: &Self) -> bool {
        Rc::ptr_eq(&self.0, &other.0)
    }
}
