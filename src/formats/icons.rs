//! One icon and short label per event kind, for the palette and the timeline chips.

use epochlab_core::scenario::EventKind;

/// `(icon, label, one-line help)` for an event kind.
pub fn kind_info(kind: EventKind) -> (&'static str, &'static str, &'static str) {
    match kind {
        EventKind::Produce => ("✎", "Produce", "A producer writes one record to the leader"),
        EventKind::Fetch => ("⇣", "Fetch", "One fetcher iteration of a follower"),
        EventKind::Settle => ("≋", "Settle", "Every follower fetches until nothing changes"),
        EventKind::Crash => ("✕", "Crash", "The broker goes down and loses its memory"),
        EventKind::Restart => ("↻", "Restart", "The broker recovers its log and rejoins"),
        EventKind::Elect => ("★", "Elect", "The controller elects a leader"),
        EventKind::Deliver => ("✉", "Deliver", "A held-back LeaderAndIsr arrives"),
        EventKind::ShrinkIsr => ("⊖", "Shrink ISR", "The leader drops a lagging follower"),
        EventKind::Shutdown => ("⊘", "Shutdown", "Controlled shutdown"),
        EventKind::CheckpointHw => ("⚑", "Checkpoint HW", "Persist the broker's HW"),
        EventKind::Flush => ("⤓", "Flush", "Make the broker's log durable"),
        EventKind::Consume => ("◉", "Consume", "A consumer reads below the HW"),
        EventKind::Zombie => ("☠", "Zombie", "The broker ignores the controller but keeps fetching"),
    }
}
