//! One icon and short label per event kind, for the palette and the timeline chips.

/// `(icon, label, one-line help)` for an event kind.
pub fn kind_info(kind: &str) -> (&'static str, &'static str, &'static str) {
    match kind {
        "produce" => ("✎", "Produce", "A producer writes one record to the leader"),
        "fetch" => ("⇣", "Fetch", "One fetcher iteration of a follower"),
        "settle" => ("≋", "Settle", "Every follower fetches until nothing changes"),
        "crash" => ("✕", "Crash", "The broker goes down and loses its memory"),
        "restart" => ("↻", "Restart", "The broker recovers its log and rejoins"),
        "elect" => ("★", "Elect", "The controller elects a leader"),
        "deliver" => ("✉", "Deliver", "A held-back LeaderAndIsr arrives"),
        "shrink_isr" => ("⊖", "Shrink ISR", "The leader drops a lagging follower"),
        "shutdown" => ("⊘", "Shutdown", "Controlled shutdown"),
        "checkpoint_hw" => ("⚑", "Checkpoint HW", "Persist the broker's HW"),
        "flush" => ("⤓", "Flush", "Make the broker's log durable"),
        "consume" => ("◉", "Consume", "A consumer reads below the HW"),
        "zombie" => ("☠", "Zombie", "The broker ignores the controller but keeps fetching"),
        _ => ("?", "Unknown", ""),
    }
}
