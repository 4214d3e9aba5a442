//! What a keyboard or touch placement moves and where it stands: data the actions carry and the model holds,
//! apart from the reducer that moves it (`placing`).

use epochlab_core::scenario::EventKind;

/// What a keyboard placement moves: a new event from the palette, or an existing one.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum PlaceSource {
    /// A palette chip of this kind.
    New(EventKind),
    /// The event at this index.
    Existing(usize),
}

/// A keyboard placement in progress: the chosen lane (index into `Shown::lanes`) and insertion position.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Placing {
    /// What is being placed.
    pub source: PlaceSource,
    /// Lane index.
    pub lane: usize,
    /// Insertion position (0 to the number of events).
    pub position: usize,
    /// Started by a tap: placed by tapping a gap, so the help speaks of taps, not arrow keys.
    pub touch: bool,
}
