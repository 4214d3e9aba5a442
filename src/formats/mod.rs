//! Pure text and bytes, tested natively: the working state as JSON ([`snapshot`]), My scenarios
//! ([`library`]), share links and their parameters ([`link`]), the embed protocol ([`embed`]), imports
//! and exports (JSON, SVG, PNG), the message diagram as SVG and the event kinds' icons.

pub mod embed;
pub mod export;
pub mod icons;
pub mod import;
pub mod library;
pub mod link;
pub mod sequence_svg;
pub mod snapshot;
pub mod wire;
