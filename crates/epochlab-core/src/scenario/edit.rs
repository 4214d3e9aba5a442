//! Pure edit operations on a scenario: what the timeline does when a user drags, drops, retargets or deletes
//! an event, or edits the brokers. The UI calls these and re-runs; nothing here knows about the DOM.
//!
//! Every operation validates first and leaves the scenario untouched on error, with a message meant for the
//! drop indicator or a notice.

use super::parse::valid_broker_name;
use super::{BrokerFieldMut, Delivery, Event, EventKind, Scenario, MAX_BROKERS, MAX_EVENTS};

/// A timeline lane: one per broker, plus the cluster lane for events without a broker.
#[derive(Clone, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub enum Lane {
    /// Events left to the controller or aimed at every follower (elect, produce, consume, settle).
    Cluster,
    /// Events aimed at one broker.
    Broker(String),
}

impl Lane {
    /// The lane an event sits on.
    pub fn of(event: &Event) -> Lane {
        event.broker().map_or(Lane::Cluster, |b| Lane::Broker(b.to_string()))
    }
}

/// Why a drop or edit was refused.
pub type EditError = String;

/// Whether an event of `kind` makes sense on `lane`. The message says why not, in words for a drop indicator.
pub fn can_place(kind: EventKind, lane: &Lane, scenario: &Scenario) -> Result<(), EditError> {
    match lane {
        Lane::Cluster if !kind.fits_cluster_lane() => {
            Err(format!("a {} needs a broker: drop it on a broker's lane", kind.words()))
        }
        Lane::Broker(_) if !kind.fits_broker_lane() => {
            Err("settle lets every follower fetch: drop it on the cluster lane".to_string())
        }
        Lane::Broker(name) if scenario.broker_index(name).is_none() => Err(format!("there is no broker {name}")),
        _ => Ok(()),
    }
}

fn check_index(scenario: &Scenario, index: usize, inclusive: bool) -> Result<(), EditError> {
    let len = scenario.events.len();
    if index < len || (inclusive && index == len) {
        Ok(())
    } else {
        Err(format!("step {index} is outside the timeline (0 to {len})"))
    }
}

/// Insert a fresh event of `kind` (with its defaults) at `index` on `lane`.
pub fn insert(scenario: &mut Scenario, index: usize, kind: EventKind, lane: &Lane) -> Result<(), EditError> {
    check_index(scenario, index, true)?;
    if scenario.events.len() >= MAX_EVENTS {
        return Err(format!("a scenario holds at most {MAX_EVENTS} events"));
    }
    can_place(kind, lane, scenario)?;
    let broker = match lane {
        Lane::Cluster => None,
        Lane::Broker(b) => Some(b.as_str()),
    };
    let event = Event::new_of_kind(kind, broker).ok_or_else(|| format!("a {} needs a broker", kind.words()))?;
    scenario.events.insert(index, event);
    Ok(())
}

/// The same event aimed at another lane, keeping its other fields.
pub fn retargeted(event: &Event, lane: &Lane) -> Event {
    let target = match lane {
        Lane::Cluster => None,
        Lane::Broker(b) => Some(b.clone()),
    };
    let mut e = event.clone();
    match e.broker_field_mut() {
        BrokerFieldMut::Optional(broker) => *broker = target,
        BrokerFieldMut::Required(broker) => {
            if let Some(t) = target {
                *broker = t;
            }
        }
        BrokerFieldMut::None => {}
    }
    e
}

/// Move the event at `from` so that it ends up at position `to` (in the timeline after the move), on `lane`.
pub fn move_event(scenario: &mut Scenario, from: usize, to: usize, lane: &Lane) -> Result<(), EditError> {
    check_index(scenario, from, false)?;
    check_index(scenario, to, false)?;
    let event = &scenario.events[from];
    can_place(event.kind(), lane, scenario)?;
    let moved = retargeted(event, lane);
    scenario.events.remove(from);
    scenario.events.insert(to, moved);
    Ok(())
}

/// Remove the event at `index`.
pub fn remove(scenario: &mut Scenario, index: usize) -> Result<Event, EditError> {
    check_index(scenario, index, false)?;
    Ok(scenario.events.remove(index))
}

/// Replace the event at `index` (the field editor), checking that its brokers exist.
pub fn replace(scenario: &mut Scenario, index: usize, event: Event) -> Result<(), EditError> {
    check_index(scenario, index, false)?;
    can_place(event.kind(), &Lane::of(&event), scenario)?;
    for name in event.mentioned_brokers() {
        if scenario.broker_index(name).is_none() {
            return Err(format!("there is no broker {name}"));
        }
    }
    scenario.events[index] = event;
    Ok(())
}

/// Add a broker with the first free name of A to E (then B1, …). Returns its name.
pub fn add_broker(scenario: &mut Scenario) -> Result<String, EditError> {
    if scenario.brokers.len() >= MAX_BROKERS {
        return Err(format!("a partition has at most {MAX_BROKERS} replicas here"));
    }
    let candidates =
        ["A", "B", "C", "D", "E", "F", "G"].iter().map(|s| s.to_string()).chain((1..=9).map(|i| format!("B{i}")));
    let name = candidates.into_iter().find(|n| !scenario.brokers.contains(n)).unwrap_or_else(|| "X".to_string());
    scenario.brokers.push(name.clone());
    Ok(name)
}

/// Remove a broker and every event aimed at it; it also leaves every delivery list. At least one broker
/// stays, and min.insync.replicas shrinks to fit. Returns how many events were removed.
pub fn remove_broker(scenario: &mut Scenario, name: &str) -> Result<usize, EditError> {
    let index = scenario.broker_index(name).ok_or_else(|| format!("there is no broker {name}"))?;
    if scenario.brokers.len() == 1 {
        return Err("a partition needs at least one broker".to_string());
    }
    scenario.brokers.remove(index);
    let before = scenario.events.len();
    scenario.events.retain(|e| e.broker() != Some(name));
    for e in &mut scenario.events {
        if let Event::Elect { deliver: Delivery::Only(list), .. } = e {
            list.retain(|n| n != name);
        }
    }
    let max = scenario.brokers.len() as u8;
    scenario.config.min_insync_replicas = scenario.config.min_insync_replicas.min(max);
    Ok(before - scenario.events.len())
}

/// Rename a broker everywhere it is mentioned.
pub fn rename_broker(scenario: &mut Scenario, old: &str, new: &str) -> Result<(), EditError> {
    let index = scenario.broker_index(old).ok_or_else(|| format!("there is no broker {old}"))?;
    if old == new {
        return Ok(());
    }
    if !valid_broker_name(new) {
        return Err(format!("\"{new}\" is not a valid name (1 to 16 of A-Z, a-z, 0-9, _ and -)"));
    }
    if scenario.brokers.iter().any(|b| b == new) {
        return Err(format!("there is already a broker {new}"));
    }
    scenario.brokers[index] = new.to_string();
    let rename = |n: &mut String| {
        if n == old {
            *n = new.to_string();
        }
    };
    for e in &mut scenario.events {
        match e.broker_field_mut() {
            BrokerFieldMut::Optional(broker) => {
                broker.as_mut().map(rename);
            }
            BrokerFieldMut::Required(broker) => rename(broker),
            BrokerFieldMut::None => {}
        }
        if let Event::Elect { deliver: Delivery::Only(list), .. } = e {
            list.iter_mut().for_each(rename);
        }
    }
    Ok(())
}

/// Whether an elect's delivery list names `broker` (the editor's check box for it).
pub fn delivers_to(deliver: &Delivery, broker: &str) -> bool {
    match deliver {
        Delivery::All => true,
        Delivery::None => false,
        Delivery::Only(list) => list.iter().any(|x| x == broker),
    }
}

/// An elect's delivery list with `broker` switched in or out. Listed brokers stay in assignment order
/// (`brokers`), and the list is normalised: every broker is [`Delivery::All`], nobody is [`Delivery::None`].
pub fn toggle_delivery(deliver: &Delivery, broker: &str, brokers: &[String]) -> Delivery {
    // Each broker keeps its place, and the toggled one flips.
    let list: Vec<String> =
        brokers.iter().filter(|b| delivers_to(deliver, b) != (b.as_str() == broker)).cloned().collect();
    if list.len() == brokers.len() {
        Delivery::All
    } else if list.is_empty() {
        Delivery::None
    } else {
        Delivery::Only(list)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::scenario::Acks;

    fn s() -> Scenario {
        crate::presets::find("kip101-scenario-1").map(|p| p.scenario()).unwrap_or_else(Scenario::empty)
    }

    fn b(n: &str) -> Lane {
        Lane::Broker(n.to_string())
    }

    #[test]
    fn a_fetch_on_the_cluster_lane_or_a_settle_on_a_broker_is_refused_with_a_reason() {
        let sc = s();
        assert_eq!(
            can_place(EventKind::Fetch, &Lane::Cluster, &sc),
            Err("a fetch needs a broker: drop it on a broker's lane".into())
        );
        assert_eq!(
            can_place(EventKind::ShrinkIsr, &Lane::Cluster, &sc),
            Err("a shrink isr needs a broker: drop it on a broker's lane".into())
        );
        assert!(can_place(EventKind::Settle, &b("A"), &sc).unwrap_err().contains("cluster lane"));
        assert_eq!(can_place(EventKind::Crash, &b("Z"), &sc), Err("there is no broker Z".into()));
        assert!(can_place(EventKind::Produce, &Lane::Cluster, &sc).is_ok());
        assert!(can_place(EventKind::Produce, &b("B"), &sc).is_ok());
    }

    #[test]
    fn insert_places_a_default_event_and_refuses_without_changing_anything() {
        let mut sc = s();
        insert(&mut sc, 2, EventKind::Crash, &b("B")).unwrap();
        assert_eq!(sc.events[2], Event::Crash { broker: "B".into(), power: false, notify_controller: true });
        let before = sc.clone();
        assert!(insert(&mut sc, 0, EventKind::Fetch, &Lane::Cluster).is_err());
        assert!(insert(&mut sc, 99, EventKind::Crash, &b("A")).is_err());
        assert_eq!(sc, before);
        let end = sc.events.len();
        insert(&mut sc, end, EventKind::Settle, &Lane::Cluster).unwrap();
        assert_eq!(sc.events.last(), Some(&Event::Settle));
    }

    #[test]
    fn move_changes_time_and_lane_and_keeps_the_other_fields() {
        let mut sc = s();
        // Event 5 is A's dropped fetch.
        move_event(&mut sc, 5, 1, &b("B")).unwrap();
        assert_eq!(sc.events[1], Event::Fetch { broker: "B".into(), drop_response: true });
        assert_eq!(sc.events.len(), s().events.len());
        let mut sc = s();
        move_event(&mut sc, 1, 1, &b("A")).unwrap();
        assert_eq!(
            sc.events[1],
            Event::Produce { record: Some("m1".into()), acks: Acks::All, broker: Some("A".into()) }
        );
        let before = sc.clone();
        assert!(move_event(&mut sc, 2, 0, &Lane::Cluster).is_err());
        assert_eq!(sc, before);
    }

    #[test]
    fn remove_takes_the_event_out() {
        let mut sc = s();
        let gone = remove(&mut sc, 0).unwrap();
        assert_eq!(gone.kind(), EventKind::Elect);
        assert_eq!(sc.events.len(), s().events.len() - 1);
        assert!(remove(&mut sc, 100).is_err());
    }

    #[test]
    fn brokers_can_be_added_renamed_and_removed_with_their_events() {
        let mut sc = s();
        assert_eq!(add_broker(&mut sc).unwrap(), "C");
        rename_broker(&mut sc, "A", "alpha").unwrap();
        assert!(sc.events.iter().all(|e| e.broker() != Some("A")));
        assert!(sc.events.iter().any(|e| e.broker() == Some("alpha")));
        assert!(rename_broker(&mut sc, "B", "alpha").is_err());
        assert!(rename_broker(&mut sc, "B", "bad name").is_err());
        sc.config.min_insync_replicas = 3;
        let removed = remove_broker(&mut sc, "alpha").unwrap();
        assert_eq!(removed, 5, "A's three fetches, crash and restart go with it");
        assert_eq!(sc.brokers, ["B", "C"]);
        assert_eq!(sc.config.min_insync_replicas, 2);
        assert!(crate::scenario::parse_scenario(&sc.to_json()).is_ok());
        remove_broker(&mut sc, "C").unwrap();
        assert!(remove_broker(&mut sc, "B").is_err());
        for _ in 0..4 {
            add_broker(&mut sc).unwrap();
        }
        assert!(add_broker(&mut sc).is_err());
    }

    #[test]
    fn replace_checks_the_brokers_named() {
        let mut sc = s();
        let bad = Event::Elect { broker: None, deliver: Delivery::Only(vec!["Q".into()]) };
        assert!(replace(&mut sc, 0, bad).is_err());
        replace(&mut sc, 0, Event::Elect { broker: Some("A".into()), deliver: Delivery::None }).unwrap();
        assert_eq!(sc.events[0].broker(), Some("A"));
    }

    #[test]
    fn toggling_a_delivery_keeps_assignment_order_and_normalises_all_and_none() {
        let brokers: Vec<String> = ["A", "B", "C"].iter().map(|s| s.to_string()).collect();
        let only = |names: &[&str]| Delivery::Only(names.iter().map(|s| s.to_string()).collect());
        assert_eq!(toggle_delivery(&Delivery::All, "B", &brokers), only(&["A", "C"]));
        assert_eq!(toggle_delivery(&Delivery::None, "C", &brokers), only(&["C"]));
        // Added in any order, listed in assignment order.
        assert_eq!(toggle_delivery(&only(&["C"]), "A", &brokers), only(&["A", "C"]));
        assert_eq!(toggle_delivery(&only(&["A", "C"]), "B", &brokers), Delivery::All);
        assert_eq!(toggle_delivery(&only(&["B"]), "B", &brokers), Delivery::None);
        // A single broker: on is everyone, off is nobody.
        assert_eq!(toggle_delivery(&Delivery::All, "A", &brokers[..1]), Delivery::None);
        assert_eq!(toggle_delivery(&Delivery::None, "A", &brokers[..1]), Delivery::All);
        assert!(delivers_to(&Delivery::All, "B") && !delivers_to(&Delivery::None, "B"));
        assert!(delivers_to(&only(&["B"]), "B") && !delivers_to(&only(&["B"]), "A"));
    }
}
