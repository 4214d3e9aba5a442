//! What both programs show: the scenario, the variants side by side, their traces, and the step under the
//! cursor. The page's model and the lessons' model each hold one; the lessons' is a mirror of the page's.

use std::rc::Rc;

use epochlab_core::scenario::edit::Lane;
use epochlab_core::scenario::Scenario;
use epochlab_core::variant::MAX_VARIANTS;
use epochlab_core::verdict::{held_by_refusal, HeldByRefusal};
use epochlab_core::{recompare, Resumes, Trace, Variant};

use super::Shared;
use crate::formats::snapshot::Snapshot;

/// A scenario shown under some variants, run, at a step.
#[derive(Clone, Debug, PartialEq)]
pub struct Shown {
    // The derived comparison goes field by field in this order: the traces first, compared by identity, so
    // that after a re-run two models differ at once, without comparing 1,000 events of their scenarios.
    /// One trace per variant, recomputed on every edit.
    pub traces: Shared<Vec<Trace>>,
    /// What the next re-run goes on from (one run per trace).
    pub resumes: Shared<Resumes>,
    /// Per trace: whether it holds every invariant only because min.insync.replicas refused writes.
    pub held: Shared<Vec<Option<HeldByRefusal>>>,
    /// The step whose state is shown (`None`: before the first event).
    pub cursor: Option<usize>,
    /// The first step after which the shown variants' states differ.
    pub first_difference: Option<u32>,
    /// Variants shown side by side (1 to 4); the first is the scenario's configured variant.
    pub variants: Vec<Variant>,
    /// The scenario, shared: copying copies a pointer, and an edit copies the scenario once
    /// ([`Shown::scenario_mut`]).
    pub scenario: Rc<Scenario>,
}

impl Shown {
    /// `scenario` under `variants` (not run yet: see [`Shown::rerun`]).
    pub fn new(scenario: Scenario, variants: Vec<Variant>) -> Shown {
        let mut shown = Shown {
            traces: Shared::default(),
            resumes: Shared::default(),
            held: Shared::default(),
            cursor: None,
            first_difference: None,
            variants: Vec::new(),
            scenario: Rc::new(scenario),
        };
        shown.set_variants(variants);
        shown
    }

    /// `scenario` under `variants`, run, on its last step: a story opened.
    pub fn opened(scenario: Scenario, variants: Vec<Variant>) -> Shown {
        let mut shown = Shown::new(scenario, variants);
        shown.rerun();
        shown.cursor = shown.last_step();
        shown
    }

    /// The scenario to edit: copied first if another model shares it.
    pub fn scenario_mut(&mut self) -> &mut Scenario {
        Rc::make_mut(&mut self.scenario)
    }

    /// Show these variants (deduplicated, at most [`MAX_VARIANTS`], at least the scenario's); the first
    /// becomes the scenario's configured variant. Not run again: see [`Shown::rerun`].
    pub fn set_variants(&mut self, mut variants: Vec<Variant>) {
        variants.dedup();
        variants.truncate(MAX_VARIANTS);
        if variants.is_empty() {
            variants.push(self.scenario.config.variant);
        }
        let config = &mut self.scenario_mut().config;
        config.variant = variants[0];
        config.keep_release_consistent();
        self.variants = variants;
    }

    /// Re-run every shown variant and compare them; the cursor stays on the timeline.
    pub fn rerun(&mut self) {
        // Each variant goes on from its previous trace where the scenario did not change.
        let (cmp, resumes) = recompare(&self.resumes, &self.scenario, &self.variants);
        self.resumes = Shared::new(resumes);
        self.first_difference = cmp.first_difference;
        self.traces = Shared::new(cmp.traces);
        // A counterfactual run only where a write was refused and nothing fails (see `held_by_refusal`).
        self.held = Shared::new(self.traces.iter().map(|t| held_by_refusal(&self.scenario, t)).collect());
        self.cursor = match (self.cursor, self.last_step()) {
            (Some(c), Some(last)) => Some(c.min(last)),
            _ => None,
        };
    }

    /// The timeline's lanes: one per broker, then the cluster lane.
    pub fn lanes(&self) -> Vec<Lane> {
        self.scenario.brokers.iter().map(|b| Lane::Broker(b.clone())).chain(std::iter::once(Lane::Cluster)).collect()
    }

    /// The lane (index into [`Shown::lanes`]) of the event at `event`; `None` when there is no such event or
    /// its broker has no lane.
    pub fn lane_of(&self, event: usize) -> Option<usize> {
        match self.scenario.events.get(event)?.broker() {
            Some(broker) => self.scenario.broker_index(broker),
            // The cluster lane comes after the brokers'.
            None => Some(self.scenario.brokers.len()),
        }
    }

    /// The last step, if any.
    pub fn last_step(&self) -> Option<usize> {
        self.scenario.events.len().checked_sub(1)
    }

    /// The trace of the first shown variant (chips show its outcomes).
    pub fn primary(&self) -> Option<&Trace> {
        self.traces.first()
    }

    /// What links, storage and exports keep of it.
    pub fn snapshot(&self) -> Snapshot {
        Snapshot {
            scenario: (*self.scenario).clone(),
            variants: self.variants.clone(),
            cursor: self.cursor.map(|c| c as u32),
        }
    }
}
