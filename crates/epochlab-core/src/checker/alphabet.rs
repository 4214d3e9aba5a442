//! The events a search may take from any state (the alphabets), in the order successors are tried.

use crate::scenario::{Acks, Delivery, Event};

/// Which events a search offers.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Alphabet {
    /// Elections, acks=all produce, fetches (kept or dropped), crashes (noticed or not), restarts, ISR shrinks.
    Default,
    /// The default, plus acks=1 produce, HW checkpoints, power crashes and flushes.
    Full,
}

impl Alphabet {
    /// `default` or `full`.
    pub fn from_id(id: &str) -> Option<Alphabet> {
        match id {
            "default" => Some(Alphabet::Default),
            "full" => Some(Alphabet::Full),
            _ => None,
        }
    }

    /// `default` or `full`.
    pub fn id(self) -> &'static str {
        match self {
            Alphabet::Default => "default",
            Alphabet::Full => "full",
        }
    }

    /// The events, for `brokers` in assignment order. Produces write auto-named records (r0, r1, …).
    pub fn events(self, brokers: &[String]) -> Vec<Event> {
        let full = self == Alphabet::Full;
        let mut events: Vec<Event> =
            brokers.iter().map(|b| Event::Elect { broker: Some(b.clone()), deliver: Delivery::All }).collect();
        events.push(Event::Produce { record: None, acks: Acks::All, broker: None });
        if full {
            events.push(Event::Produce { record: None, acks: Acks::One, broker: None });
        }
        for b in brokers {
            let broker = || b.clone();
            events.push(Event::Fetch { broker: broker(), drop_response: false });
            events.push(Event::Fetch { broker: broker(), drop_response: true });
            events.push(Event::Crash { broker: broker(), power: false, notify_controller: true });
            events.push(Event::Crash { broker: broker(), power: false, notify_controller: false });
            events.push(Event::Restart { broker: broker(), deliver: true });
            events.push(Event::ShrinkIsr { broker: broker() });
            if full {
                events.push(Event::CheckpointHw { broker: broker() });
                events.push(Event::Crash { broker: broker(), power: true, notify_controller: true });
                events.push(Event::Flush { broker: broker() });
            }
        }
        events
    }
}
