//! The checker's bounds, stated once: each with its least, default and greatest value. The CLI, the page's
//! form, the worker and a bounded-proof stamp all read them, and a value outside one is refused with the
//! reason, never clamped.

/// One bound of a search.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Bound {
    /// Its name, as the CLI's flag and the form's field.
    pub name: &'static str,
    /// The least value taken.
    pub min: u64,
    /// The value when none is given.
    pub default: u64,
    /// The greatest value taken.
    pub max: u64,
}

impl Bound {
    /// The value, or why it is out of range.
    pub fn check(self, value: u64) -> Result<u64, String> {
        if (self.min..=self.max).contains(&value) {
            Ok(value)
        } else {
            Err(format!("{} {value} is out of range ({} to {})", self.name, self.min, self.max))
        }
    }
}

/// Brokers in the cluster searched.
pub const BROKERS: Bound = Bound { name: "brokers", min: 2, default: 2, max: 4 };
/// Records a path may append (produce is not offered past this).
pub const RECORDS: Bound = Bound { name: "records", min: 1, default: 2, max: 6 };
/// The highest controller leader epoch a path may reach.
pub const EPOCHS: Bound = Bound { name: "epochs", min: 1, default: 3, max: 10 };
/// The longest path. The default is 13, not 12: the whole space within the other defaults needs 13 events
/// to close (model §11.1), so at 13 a search of a safe variant has seen every state and can say so.
pub const DEPTH: Bound = Bound { name: "depth", min: 1, default: 13, max: 30 };
/// Unique states at which a search stops.
pub const MAX_STATES: Bound = Bound { name: "max-states", min: 1, default: 2_000_000, max: 100_000_000 };
