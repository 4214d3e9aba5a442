//! The lessons' own components, drawn by the lessons' module: the lesson list, a lesson's step, its
//! question and a comparison of releases.

pub mod learn_panel;
pub mod lesson_builder;
pub mod lesson_panel;
pub mod lesson_question;
pub mod lesson_releases;
