//! The thirteen event kinds of contract v1, as a type: the one place that knows their spelling, their palette
//! order, and where on the timeline each may sit (model §3.4 lists what each does).

use std::fmt;

use serde::Serialize;

/// What a timeline event does. `ALL` is the palette's order and the share codec's numbering.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum EventKind {
    /// A producer writes one record.
    Produce,
    /// One fetcher iteration of a follower.
    Fetch,
    /// Fetch rounds until nothing changes.
    Settle,
    /// A broker goes down.
    Crash,
    /// A broker comes back with log recovery.
    Restart,
    /// A controller election.
    Elect,
    /// A held-back LeaderAndIsr reaches its broker.
    Deliver,
    /// The leader drops a lagging follower from its ISR.
    ShrinkIsr,
    /// Controlled shutdown.
    Shutdown,
    /// The broker persists its HW.
    CheckpointHw,
    /// The broker makes its log durable.
    Flush,
    /// A consumer reads below a broker's HW.
    Consume,
    /// The broker ignores the controller from now on (KAFKA-6880).
    Zombie,
}

impl EventKind {
    /// Every kind, in palette order.
    pub const ALL: [EventKind; 13] = [
        EventKind::Produce,
        EventKind::Fetch,
        EventKind::Settle,
        EventKind::Crash,
        EventKind::Restart,
        EventKind::Elect,
        EventKind::Deliver,
        EventKind::ShrinkIsr,
        EventKind::Shutdown,
        EventKind::CheckpointHw,
        EventKind::Flush,
        EventKind::Consume,
        EventKind::Zombie,
    ];

    /// The contract's spelling (`"shrink_isr"`).
    pub fn id(self) -> &'static str {
        match self {
            EventKind::Produce => "produce",
            EventKind::Fetch => "fetch",
            EventKind::Settle => "settle",
            EventKind::Crash => "crash",
            EventKind::Restart => "restart",
            EventKind::Elect => "elect",
            EventKind::Deliver => "deliver",
            EventKind::ShrinkIsr => "shrink_isr",
            EventKind::Shutdown => "shutdown",
            EventKind::CheckpointHw => "checkpoint_hw",
            EventKind::Flush => "flush",
            EventKind::Consume => "consume",
            EventKind::Zombie => "zombie",
        }
    }

    /// The kind spelled `id`, if any.
    pub fn from_id(id: &str) -> Option<EventKind> {
        EventKind::ALL.into_iter().find(|k| k.id() == id)
    }

    /// Its position in [`EventKind::ALL`] (the share codec's number for it).
    pub fn index(self) -> u8 {
        self as u8
    }

    /// The kind numbered `index` in [`EventKind::ALL`].
    pub fn from_index(index: u8) -> Option<EventKind> {
        EventKind::ALL.get(usize::from(index)).copied()
    }

    /// The id in words, for sentences: `"shrink isr"`.
    pub fn words(self) -> String {
        self.id().replace('_', " ")
    }

    /// Whether the kind names a broker at all (`settle` does not).
    pub fn takes_broker(self) -> bool {
        self != EventKind::Settle
    }

    /// Whether it may leave the broker out and so sit on the cluster lane (the controller or the current
    /// leader then decides, or, for `settle`, every follower takes part).
    pub fn fits_cluster_lane(self) -> bool {
        matches!(self, EventKind::Elect | EventKind::Produce | EventKind::Consume | EventKind::Settle)
    }

    /// Whether it may sit on a broker's lane.
    pub fn fits_broker_lane(self) -> bool {
        self.takes_broker()
    }

    /// The fields an event of this kind accepts in the file, besides `kind`.
    pub fn fields(self) -> &'static [&'static str] {
        match self {
            EventKind::Elect => &["broker", "deliver"],
            EventKind::Produce => &["record", "acks", "broker"],
            EventKind::Fetch => &["broker", "drop_response"],
            EventKind::Crash => &["broker", "power", "notify_controller"],
            EventKind::Restart => &["broker", "deliver"],
            EventKind::Settle => &[],
            _ => &["broker"],
        }
    }
}

impl fmt::Display for EventKind {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.pad(self.id())
    }
}

impl Serialize for EventKind {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.serialize_str(self.id())
    }
}

#[cfg(test)]
mod tests {
    use super::EventKind;

    #[test]
    fn every_kind_round_trips_through_its_id_and_its_index() {
        for (i, kind) in EventKind::ALL.into_iter().enumerate() {
            assert_eq!(EventKind::from_id(kind.id()), Some(kind));
            assert_eq!(usize::from(kind.index()), i);
            assert_eq!(EventKind::from_index(kind.index()), Some(kind));
        }
        assert_eq!(EventKind::from_id("crsh"), None);
        // Padded like a string: the CLI's step table aligns on it.
        assert_eq!(format!("{:<8}|", EventKind::Crash), "crash   |");
        assert_eq!(EventKind::from_index(13), None);
    }

    #[test]
    fn only_settle_takes_no_broker_and_four_kinds_fit_the_cluster_lane() {
        let cluster: Vec<_> = EventKind::ALL.into_iter().filter(|k| k.fits_cluster_lane()).collect();
        assert_eq!(cluster, [EventKind::Produce, EventKind::Settle, EventKind::Elect, EventKind::Consume]);
        assert!(!EventKind::Settle.fits_broker_lane());
        assert!(EventKind::ALL.into_iter().filter(|k| *k != EventKind::Settle).all(EventKind::fits_broker_lane));
    }
}
