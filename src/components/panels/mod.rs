//! Panels the lessons' module draws into roots the page leaves empty (so their code is not part of the
//! page's first download): configuration, the message diagram, the scenario as text, the model checker,
//! releases, share and export, and My scenarios.

pub mod checker_panel;
pub mod config;
pub mod editor;
pub mod my_scenarios;
pub mod releases;
pub mod sequence;
pub mod share_panel;
pub mod text_panel;
