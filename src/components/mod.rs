//! The components. Each turns part of the model (and the core's view model) into markup; none of them
//! re-derives a protocol rule. Those at this level are the page's; [`panels`] and [`lessons`] are drawn by
//! the lessons' module.

pub mod controls;
pub mod explanation;
pub mod header;
pub mod lazy_panel;
pub mod lessons;
pub mod log_grid;
pub mod notice;
pub mod palette;
pub mod panels;
pub mod reads;
pub mod timeline;
pub mod variant_panel;
pub mod variant_switch;

use std::rc::Rc;

use yew::prelude::*;

use crate::model::learn::LessonsModel;
use crate::model::{Action, Model};

pub use crate::browser::Dispatch;

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

/// What the lessons' module's components take: its model and a way to change it.
#[derive(Properties, Clone, PartialEq)]
pub struct LessonsProps {
    /// The lessons' model (a mirror of what the page shows, and the lessons).
    pub model: Rc<LessonsModel>,
    /// Dispatch an action (the page's are forwarded to it).
    pub dispatch: Callback<Action>,
}
