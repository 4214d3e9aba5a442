//! An edit of the timeline as the lessons' module learns of it: the events from one step on that were
//! replaced, and what replaced them. A drop at the 1,000-event limit then sends one event across, not the whole
//! scenario as JSON for the module to parse back on every change.

use epochlab_core::scenario::Event;
use epochlab_core::Scenario;
use serde_json::Value;

use crate::formats::wire::{number, object, quote, Fields};

/// `removed` events from step `at` on were replaced by `inserted`'s events; the cursor is then `cursor`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Splice {
    pub at: u32,
    pub removed: u32,
    /// The events put in, in a scenario of the same brokers and settings: what they are read against.
    pub inserted: Box<Scenario>,
    /// The length of the timeline it applies to: a module whose copy has another length asks for the whole.
    pub before: u32,
    pub cursor: Option<u32>,
}

/// `events` in a scenario of `on`'s brokers and settings, nameless: how events travel between the page and
/// the lessons' module, read back by the one scenario reader, which checks each against those brokers.
pub fn carrier(on: &Scenario, events: Vec<Event>) -> Scenario {
    Scenario {
        version: on.version,
        name: String::new(),
        description: String::new(),
        brokers: on.brokers.clone(),
        config: on.config.clone(),
        events,
    }
}

impl Splice {
    /// The splice that turns `before` into `after`, if only their events differ.
    pub fn between(before: &Scenario, after: &Scenario, cursor: Option<u32>) -> Option<Splice> {
        let same_rest = before.name == after.name
            && before.description == after.description
            && before.brokers == after.brokers
            && before.config == after.config;
        if !same_rest {
            return None;
        }
        let (old, new) = (&before.events, &after.events);
        let head = old.iter().zip(new).take_while(|(a, b)| a == b).count();
        let room = old.len().min(new.len()) - head;
        let tail = old.iter().rev().zip(new.iter().rev()).take(room).take_while(|(a, b)| a == b).count();
        Some(Splice {
            at: head as u32,
            removed: (old.len() - head - tail) as u32,
            inserted: Box::new(carrier(after, new[head..new.len() - tail].to_vec())),
            before: old.len() as u32,
            cursor,
        })
    }

    /// Applies it to `scenario`; `false` (and nothing changed) when it was made for another timeline.
    pub fn apply(&self, scenario: &mut Scenario) -> bool {
        let (at, end) = (self.at as usize, self.at as usize + self.removed as usize);
        if scenario.events.len() != self.before as usize || end > scenario.events.len() {
            return false;
        }
        scenario.events.splice(at..end, self.inserted.events.iter().cloned());
        true
    }

    /// Written with [`wire::object`](crate::formats::wire::object): the page sends it.
    pub fn to_json(&self) -> String {
        object(&[
            ("type", quote("splice")),
            ("at", self.at.to_string()),
            ("removed", self.removed.to_string()),
            ("before", self.before.to_string()),
            ("cursor", number(self.cursor)),
            ("events", self.inserted.to_json()),
        ])
    }

    /// Read back from its JSON (the events by the one scenario reader, against their brokers).
    pub fn from_value(v: &Value) -> Result<Splice, String> {
        let f = Fields::of(v)?;
        Ok(Splice {
            at: f.small("at")?,
            removed: f.small("removed")?,
            inserted: f.scenario("events")?,
            before: f.small("before")?,
            cursor: f.maybe_small("cursor")?,
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use epochlab_core::presets::PRESETS;
    use epochlab_core::scenario::Event;

    fn edited(events: impl FnOnce(&mut Vec<Event>)) -> (Scenario, Scenario) {
        let before = PRESETS[1].scenario();
        let mut after = before.clone();
        events(&mut after.events);
        (before, after)
    }

    #[test]
    fn a_splice_travels_and_turns_the_old_timeline_into_the_new() {
        let flush = Event::Flush { broker: "A".into() };
        let cases: [fn(&mut Vec<Event>); 5] = [
            |e| e.push(Event::Flush { broker: "A".into() }),
            |e| e.insert(2, Event::Settle),
            |e| drop(e.remove(3)),
            |e| e.swap(1, 4),
            |e| e.clear(),
        ];
        for (i, change) in cases.into_iter().enumerate() {
            let (before, after) = edited(change);
            let splice = Splice::between(&before, &after, Some(2)).expect("only the events differ");
            let read = Splice::from_value(&serde_json::from_str(&splice.to_json()).unwrap()).unwrap();
            assert_eq!(read, splice, "case {i}");
            let mut copy = before.clone();
            assert!(read.apply(&mut copy), "case {i}");
            assert_eq!(copy, after, "case {i}");
        }
        let (before, after) = edited(|e| e.push(flush.clone()));
        let splice = Splice::between(&before, &after, None).unwrap();
        assert_eq!(
            (splice.at, splice.removed, splice.inserted.events.as_slice()),
            (before.events.len() as u32, 0, &[flush][..])
        );
    }

    #[test]
    fn a_splice_refuses_another_timeline_and_a_changed_header() {
        let (before, after) = edited(|e| e.push(Event::Settle));
        let splice = Splice::between(&before, &after, None).unwrap();
        let mut other = after.clone();
        assert!(!splice.apply(&mut other), "made for a timeline one event shorter");
        assert_eq!(other, after);
        let mut renamed = after.clone();
        renamed.name.push('!');
        assert_eq!(Splice::between(&before, &renamed, None), None);
    }
}
