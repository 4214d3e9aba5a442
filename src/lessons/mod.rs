//! The lessons' module: a second wasm program, loaded when the Learn panel, a lesson link or a panel it
//! draws is first used. [`app`] runs the lessons; [`mirror`] keeps what the page shows; [`portals`]
//! draws the panels it owns into the page's roots; [`paint`] takes a painted log's clicks and keys, and
//! [`point`] the cells an author points at while writing a lesson.

pub mod app;
pub mod mirror;
pub mod paint;
pub mod point;
pub mod portals;
