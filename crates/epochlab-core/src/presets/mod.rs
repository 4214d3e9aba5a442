//! Preset scenarios, shipped as contract-v1 files and shared by the UI, the CLI and the tests. Each carries
//! its expected verdict per variant (model §5.1 to §5.5): which invariants fail as bugs, and which losses are
//! by design.

use crate::invariants::InvariantId::{self, I1, I2, I3, I4, I5, I7, O1};
use crate::scenario::{parse_scenario, Scenario};
use crate::variant::Variant::{self, DivergingEpoch, HwTruncation, Kip101, Kip279, LeaderHwTruncation};

/// The invariants a run violates, split into bugs and allowed (by-design) ones. Ids sorted.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Verdict {
    /// Non-by-design violations.
    pub bugs: &'static [InvariantId],
    /// By-design violations (allowed losses, O1).
    pub by_design: &'static [InvariantId],
}

/// A shipped scenario.
#[derive(Clone, Copy, Debug)]
pub struct Preset {
    /// Stable id, used by `epochlab presets NAME` and share links.
    pub id: &'static str,
    /// The scenario file.
    pub json: &'static str,
    /// The variants it is about, shown side by side when it opens: its configured variant first, then those
    /// that tell its story (the one whose failure it describes, and one that holds).
    pub variants: &'static [Variant],
    /// The expected verdict under each variant, in [`Variant::ALL`] order.
    pub expected: [Verdict; 6],
}

impl Preset {
    /// The parsed scenario. Presets are checked by the tests; a broken one would give an empty scenario.
    pub fn scenario(&self) -> Scenario {
        parse_scenario(self.json).unwrap_or_else(|_| Scenario::empty())
    }

    /// The variants it is about, for a picker: "kip-279 vs kip-101".
    pub fn about(&self) -> String {
        self.variants.iter().map(|v| v.id()).collect::<Vec<_>>().join(" vs ")
    }

    /// The expected verdict under one variant.
    pub fn expected(&self, variant: Variant) -> Verdict {
        self.expected[variant.index()]
    }
}

const fn v(bugs: &'static [InvariantId], by_design: &'static [InvariantId]) -> Verdict {
    Verdict { bugs, by_design }
}

/// Which preset a scenario is: the preset itself (under any configured variant: a preset shown under other
/// variants is still the preset), or one edited but still carrying its description (a page marks it as
/// possibly stale). Pure: nothing is run.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Recognised {
    /// The preset the scenario is.
    pub preset: Option<&'static str>,
    /// The preset whose description an edited scenario still carries.
    pub edited: Option<&'static str>,
}

/// What [`Recognised`] says of `scenario`.
pub fn recognise(scenario: &Scenario) -> Recognised {
    // Every preset has a description (a test checks): one without is none of them, nor an edited one, and
    // opening it (a long link) parses none of the presets.
    if scenario.description.is_empty() {
        return Recognised::default();
    }
    let under = |mut s: Scenario| {
        s.config.variant = scenario.config.variant;
        s
    };
    let presets: Vec<(&'static str, Scenario)> = PRESETS.iter().map(|p| (p.id, under(p.scenario()))).collect();
    let preset = presets.iter().find(|(_, s)| s == scenario).map(|(id, _)| *id);
    let described = |s: &Scenario| s.description == scenario.description;
    let edited = presets.iter().find(|(_, s)| preset.is_none() && described(s)).map(|(id, _)| *id);
    Recognised { preset, edited }
}

/// Every preset, in the order the picker shows them. The first is the landing scenario.
pub const PRESETS: [Preset; 9] = [
    Preset {
        id: "kip101-scenario-1",
        variants: &[HwTruncation, Kip279],
        json: include_str!("kip101-scenario-1.json"),
        // hw-truncation, kip-101, kip-279, kafka-2.1, diverging-epoch, leader-hw-truncation
        expected: [
            v(&[I1, I2, I4, I5], &[O1]),
            // A keeps m2 and, alone in the ISR, takes its HW to its LEO at once: nothing regresses.
            v(&[], &[]),
            v(&[], &[]),
            v(&[], &[]),
            v(&[], &[]),
            v(&[], &[]),
        ],
    },
    Preset {
        id: "kip101-scenario-2",
        variants: &[HwTruncation, Kip101],
        json: include_str!("kip101-scenario-2.json"),
        expected: [
            v(&[I3, I4], &[I1, I2, O1]),
            v(&[], &[I1, I2, O1]),
            v(&[], &[I1, I2, O1]),
            v(&[], &[I1, I2, O1]),
            v(&[], &[I1, I2, O1]),
            v(&[I3, I4], &[I1, I2, O1]),
        ],
    },
    Preset {
        id: "kafka-6361-fast-failover",
        variants: &[Kip101, Kip279],
        json: include_str!("kafka-6361-fast-failover.json"),
        expected: [v(&[], &[I2]), v(&[I3, I4], &[I2]), v(&[], &[I2]), v(&[], &[I2]), v(&[], &[I2]), v(&[], &[I2])],
    },
    Preset {
        id: "unclean-elections-diverge",
        variants: &[Kip279, Kip101],
        json: include_str!("unclean-elections-diverge.json"),
        expected: [
            v(&[I3, I4, I7], &[I1, I2, O1]),
            v(&[I3, I4, I7], &[I1, I2, O1]),
            v(&[], &[I1, I2, O1]),
            v(&[], &[I1, I2, O1]),
            v(&[], &[I1, I2, O1]),
            v(&[I3, I4, I7], &[I1, I2, O1]),
        ],
    },
    Preset {
        id: "leader-hw-no-fix",
        variants: &[LeaderHwTruncation, HwTruncation, Kip279],
        json: include_str!("leader-hw-no-fix.json"),
        expected: [v(&[], &[I2]), v(&[], &[I2]), v(&[], &[I2]), v(&[], &[I2]), v(&[], &[I2]), v(&[I3, I4], &[I2])],
    },
    Preset {
        id: "three-brokers-clean-elections",
        variants: &[HwTruncation, Kip279],
        json: include_str!("three-brokers-clean-elections.json"),
        // C's leader changes while its HW lags: it cuts m2, then leads. Every election is clean.
        expected: [
            v(&[I1, I2, I5], &[O1]),
            v(&[], &[O1]),
            v(&[], &[O1]),
            v(&[], &[O1]),
            v(&[], &[O1]),
            v(&[I1, I2, I5], &[O1]),
        ],
    },
    Preset {
        id: "acks-all-min-isr",
        variants: &[HwTruncation, Kip101],
        json: include_str!("acks-all-min-isr.json"),
        // Every write acks=all with the ISR at min.insync.replicas, and still two records at one offset.
        expected: [
            v(&[I3, I4], &[I1, I2, O1]),
            v(&[], &[I1, I2, O1]),
            v(&[], &[I1, I2, O1]),
            v(&[], &[I1, I2, O1]),
            v(&[], &[I1, I2, O1]),
            v(&[I3, I4], &[I1, I2, O1]),
        ],
    },
    Preset {
        id: "last-replica-standing",
        variants: &[DivergingEpoch],
        json: include_str!("last-replica-standing.json"),
        // Run as Kafka 4.1 (its own variant): ELR waits for B. Under the bare variants A leads again and m2
        // goes, allowed because every ISR member (A alone) lost power since it was written.
        expected: [
            v(&[], &[I1, I2, O1]),
            v(&[], &[I1, I2, O1]),
            v(&[], &[I1, I2, O1]),
            v(&[], &[I1, O1]),
            v(&[], &[]),
            v(&[], &[I1, I2, O1]),
        ],
    },
    Preset {
        id: "happy-path",
        variants: &[Kip279],
        json: include_str!("happy-path.json"),
        expected: [v(&[], &[]), v(&[], &[]), v(&[], &[]), v(&[], &[]), v(&[], &[]), v(&[], &[])],
    },
];

/// A preset by id.
pub fn find(id: &str) -> Option<&'static Preset> {
    PRESETS.iter().find(|p| p.id == id)
}

/// The landing scenario: KIP-101 scenario 1.
pub fn default_scenario() -> Scenario {
    PRESETS[0].scenario()
}

/// The verdict a trace actually reached, in the same shape as [`Verdict`] (owned ids).
pub fn verdict_of(trace: &crate::Trace) -> (Vec<InvariantId>, Vec<InvariantId>) {
    // Marks the ids seen, then lists them in order: the same sorted, deduplicated lists as sorting would give,
    // without a sort compiled into the page for one small enum.
    let mut seen = [[false; InvariantId::ALL.len()]; 2];
    for v in &trace.violations {
        seen[usize::from(v.by_design)][v.invariant.index()] = true;
    }
    let listed = |marks: [bool; InvariantId::ALL.len()]| {
        InvariantId::ALL.into_iter().zip(marks).filter(|(_, m)| *m).map(|(id, _)| id).collect()
    };
    (listed(seen[0]), listed(seen[1]))
}
