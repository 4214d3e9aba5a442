//! The page: the first download. [`app`] wires the model, the components, the listeners and the effect
//! runner together; [`startup`] decides what the page opens with (a link, an embed, the stored state).

pub mod app;
pub mod startup;
