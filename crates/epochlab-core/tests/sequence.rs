//! The sequence diagram's lines: variants aligned on shared lanes, the payload difference that makes
//! kip-101 and kip-279 part ways marked, idle fetches folded into runs.

use epochlab_core::messages::{MessageKind, Party};
use epochlab_core::presets::find;
use epochlab_core::scenario::Event;
use epochlab_core::sequence::{diagram, Item, Row};
use epochlab_core::{run_variant, Variant};

fn rows(items: &[Item]) -> Vec<&Row> {
    items
        .iter()
        .flat_map(|i| match i {
            Item::Row(r) => vec![r],
            Item::Run(run) => run.rows.iter().collect(),
        })
        .collect()
}

#[test]
fn the_offsets_for_leader_epoch_answer_is_where_kip_101_and_kip_279_part_ways() {
    let s = find("kafka-6361-fast-failover").expect("preset").scenario();
    let traces = [run_variant(&s, Variant::Kip101), run_variant(&s, Variant::Kip279)];
    let d = diagram(&s, &traces);
    let names: Vec<&str> = d.lanes.iter().map(|l| l.name.as_str()).collect();
    assert_eq!(names, ["producer", "controller", "A", "B", "consumer"]);
    let first = d.first_difference.expect("the variants differ");
    let Item::Row(row) = &d.items[first] else { panic!("a run is never a difference") };
    assert_eq!(row.step, 10);
    assert_eq!(row.first().kind, MessageKind::OffsetsForLeaderEpochResponse);
    let labels: Vec<&str> = row.shown.iter().map(|m| m.as_ref().expect("both answer").label.as_str()).collect();
    assert_eq!(labels, ["offset 2", "epoch 0 ends at 2"]);
    // Only kip-279 truncates: the mark is in its column alone.
    let truncation = rows(&d.items)
        .into_iter()
        .find(|r| r.first().kind == MessageKind::Local && r.first().label.starts_with("truncate"))
        .expect("kip-279 truncates B");
    assert!(truncation.differs && truncation.shown[0].is_none() && truncation.shown[1].is_some());
    // Everything before step 10 is drawn once.
    assert!(rows(&d.items).iter().filter(|r| r.step < 10).all(|r| !r.differs));
    assert_eq!(d.describe(row.shown[1].as_ref().expect("answer")), "step 10, A → B: epoch 0 ends at 2");
}

#[test]
fn one_variant_has_no_difference_and_settles_into_a_folded_run() {
    let s = find("kafka-6361-fast-failover").expect("preset").scenario();
    let d = diagram(&s, &[run_variant(&s, Variant::Kip279)]);
    assert_eq!(d.first_difference, None);
    let runs: Vec<_> = d.items.iter().filter_map(|i| if let Item::Run(r) = i { Some(r) } else { None }).collect();
    assert_eq!(runs.len(), 1);
    assert_eq!(runs[0].rounds, 2);
    assert_eq!(runs[0].label, "Fetch ×2, no new records (step 10, HW 3)");
    assert!(runs[0]
        .rows
        .iter()
        .all(|r| r.first().idle && (r.first().from == Party::Broker(1) || r.first().to == Party::Broker(1))));
}

#[test]
fn idle_fetches_across_many_steps_fold_into_one_run_and_a_new_record_ends_it() {
    let mut s = find("happy-path").expect("preset").scenario();
    let follower = s.brokers[1].clone();
    let before = s.events.len() as u32;
    for _ in 0..40 {
        s.events.push(Event::Fetch { broker: follower.clone(), drop_response: false });
    }
    let t = run_variant(&s, Variant::Kip279);
    let d = diagram(&s, std::slice::from_ref(&t));
    let Some(Item::Run(run)) = d.items.last() else { panic!("the idle fetches end in a run") };
    assert!(run.rounds >= 40);
    assert_eq!(run.last_step(), before + 39);
    assert!(run.first_step() <= before);
    // Every message is in exactly one line: nothing is lost by folding.
    let total: usize = rows(&d.items).len();
    assert_eq!(total, epochlab_core::messages::messages(&s, &t).len());
}

#[test]
fn checkpoint_and_flush_are_marks_on_their_broker() {
    let s = find("kip101-scenario-1").expect("preset").scenario();
    let mut s = s;
    s.config.hw_checkpoint = epochlab_core::scenario::Policy::Manual;
    let a = s.brokers[0].clone();
    s.events.push(Event::CheckpointHw { broker: a.clone() });
    s.events.push(Event::Flush { broker: a });
    let t = run_variant(&s, Variant::Kip279);
    let all = epochlab_core::messages::messages(&s, &t);
    let marks: Vec<&str> = all
        .iter()
        .filter(|m| m.kind == MessageKind::Local && m.from == Party::Broker(0) && m.step as usize >= s.events.len() - 2)
        .map(|m| m.label.as_str())
        .collect();
    assert_eq!(marks.len(), 2, "{marks:?}");
    assert!(marks[0].starts_with("checkpoint HW ") && marks[1].starts_with("flush to "), "{marks:?}");
}
