//! A bounded-proof stamp: "no failure within these bounds, N states", written into a share link as
//! `proof=<stamp>` so that whoever opens the link can re-run the search and see whether it confirms.
//!
//! ```text
//! stamp = "1" ~ variant ~ alphabet ~ brokers ~ records ~ epochs ~ depth ~ goal ~ states ~ end ~ config
//!   goal   = invariant ids joined by "."      end = "exhausted" or "depth" (stopped by the depth bound)
//!   config = CRC-32, 8 hex digits, of the contract JSON of the cluster settings searched (the link's
//!            scenario's, with the searched variant): a re-check under other settings is told apart
//! ```
//!
//! Only bounds a search accepts as they are (`checker::bounds`: 2 to 4 brokers, 1 to 6 records, epochs 1
//! to 10, depth 1 to 30), so a re-check runs exactly the stamped search. Pure text, no serde: the page reads it.

use std::fmt;

use super::bounds::{Bound, BROKERS, DEPTH, EPOCHS, RECORDS};
use super::{Alphabet, CheckConfig, CheckResult, SearchEnd};
use crate::invariants::InvariantId;
use crate::scenario::{Config, Scenario};
use crate::share::crc32;
use crate::variant::Variant;

/// The stamp format this build writes and reads.
const VERSION: &str = "1";

/// A "none within the bounds" result and what it was searched under.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Stamp {
    /// The variant searched.
    pub variant: Variant,
    /// The events offered.
    pub alphabet: Alphabet,
    /// Brokers, records, epochs, depth.
    pub bounds: [u32; 4],
    /// The invariants looked for.
    pub goal: Vec<InvariantId>,
    /// Unique states the search saw.
    pub states: u64,
    /// Every state within the bounds was seen (else the depth bound stopped it).
    pub exhausted: bool,
    /// [`settings_crc`] of the settings searched.
    pub config: u32,
}

/// The bounds a stamp may carry, as a search takes them: brokers, records, epochs, depth.
const RANGES: [(&str, u32, u32); 4] = [range(BROKERS), range(RECORDS), range(EPOCHS), range(DEPTH)];

const fn range(b: Bound) -> (&'static str, u32, u32) {
    (b.name, b.min as u32, b.max as u32)
}

/// The CRC-32 of the contract JSON of cluster settings `config` as a search under `variant` runs them.
pub fn settings_crc(config: &Config, variant: Variant) -> u32 {
    let searched = super::space::searched_config(config, variant);
    crc32(Scenario { config: searched, ..Scenario::empty() }.to_json().as_bytes())
}

impl Stamp {
    /// The search this stamp names, under the settings `config` (a re-check: whether the settings are the
    /// stamp's is then the CRC's to say).
    pub fn search(&self, config: &Config) -> CheckConfig {
        let [brokers, records, epochs, depth] = self.bounds;
        CheckConfig {
            variant: self.variant,
            brokers: brokers as u8,
            records: records as u8,
            epochs: epochs as i32,
            depth,
            goal: self.goal.clone(),
            alphabet: self.alphabet,
            config: config.clone(),
            ..CheckConfig::default()
        }
    }

    /// The stamp of a search that ended with no failure, unless it was cancelled or hit the state limit
    /// (then it proves nothing) or its bounds are ones a stamp cannot carry.
    pub fn of(c: &CheckConfig, r: &CheckResult) -> Option<Stamp> {
        if !matches!(r.end, SearchEnd::Exhausted | SearchEnd::DepthBound) {
            return None;
        }
        let bounds = [u32::from(c.brokers), u32::from(c.records), u32::try_from(c.epochs).ok()?, c.depth];
        let fits = bounds.iter().zip(RANGES).all(|(v, (_, lo, hi))| (lo..=hi).contains(v));
        let config = settings_crc(&c.config, c.variant);
        let goal = c.goal.clone();
        let stamp = Stamp {
            variant: c.variant,
            alphabet: c.alphabet,
            bounds,
            goal,
            states: r.unique_states,
            exhausted: r.end == SearchEnd::Exhausted,
            config,
        };
        (fits && !stamp.goal.is_empty()).then_some(stamp)
    }

    /// Read a stamp (what follows `proof=`), or say in words what is wrong with it.
    pub fn parse(text: &str) -> Result<Stamp, String> {
        let fields: Vec<&str> = text.split('~').collect();
        if fields.first() != Some(&VERSION) {
            return Err(format!("it is not a version {VERSION} stamp"));
        }
        let [_, variant, alphabet, b, r, e, d, goal, states, end, config] = fields[..] else {
            return Err(format!("it has {} fields instead of 11", fields.len()));
        };
        let variant = Variant::from_id(variant).ok_or_else(|| format!("it names no variant \"{variant}\""))?;
        let alphabet = Alphabet::from_id(alphabet).ok_or_else(|| format!("it names no alphabet \"{alphabet}\""))?;
        let mut bounds = [0; 4];
        for (slot, (text, (name, lo, hi))) in bounds.iter_mut().zip([b, r, e, d].into_iter().zip(RANGES)) {
            *slot = text
                .parse()
                .ok()
                .filter(|v| (lo..=hi).contains(v))
                .ok_or_else(|| format!("its {name} \"{text}\" is not a number from {lo} to {hi}"))?;
        }
        let goal = goal
            .split('.')
            .map(|id| InvariantId::from_id(id).ok_or_else(|| format!("it names no invariant \"{id}\"")))
            .collect::<Result<Vec<_>, _>>()?;
        let states = states.parse().map_err(|_| format!("its state count \"{states}\" is not a number"))?;
        let exhausted = match end {
            "exhausted" => true,
            "depth" => false,
            _ => return Err(format!("it ends with \"{end}\" instead of exhausted or depth")),
        };
        let crc = (config.len() == 8).then(|| u32::from_str_radix(config, 16).ok()).flatten();
        let config = crc.ok_or_else(|| format!("its settings checksum \"{config}\" is not 8 hex digits"))?;
        Ok(Stamp { variant, alphabet, bounds, goal, states, exhausted, config })
    }

    /// The stamp in a URL fragment (`#s=…&proof=…`): `None` when there is none, else it read or why not.
    pub fn in_fragment(fragment: &str) -> Option<Result<Stamp, String>> {
        let params = fragment.split_once('#').map_or(fragment, |(_, after)| after);
        params.split('&').find_map(|p| p.strip_prefix("proof=")).map(Stamp::parse)
    }

    /// The claim in words: "kafka-2.1: no failure within 2 brokers, 2 records, epoch 3, depth 13: 8166
    /// states, every state explored".
    pub fn summary(&self) -> String {
        let [b, r, e, d] = self.bounds;
        let end = if self.exhausted { "every state explored" } else { "stopped by the depth bound" };
        format!(
            "{}: {} within {b} brokers, {r} records, epoch {e}, depth {d}: {} states, {end}",
            self.variant.id(),
            super::no_failure_words(&self.goal),
            self.states
        )
    }

    /// What a narrower stamp leaves out, in words ("I2, I3, I4, I5, I7, L1 were not looked for"), so that a
    /// stamp cut down to one invariant never reads like one that covers them all; `None` when it covers all.
    pub fn not_covered(&self) -> Option<String> {
        let left: Vec<&str> =
            super::default_goal().into_iter().filter(|i| !self.goal.contains(i)).map(|i| i.id()).collect();
        (!left.is_empty())
            .then(|| format!("{} {} not looked for", left.join(", "), if left.len() == 1 { "was" } else { "were" }))
    }

    /// Whether a re-run's stamp (`None`: it found a failure or did not finish) confirms this one: the same
    /// search with the same verdict and state count. `Err` says how it differs.
    pub fn confirmed_by(&self, rerun: Option<&Stamp>) -> Result<(), String> {
        let Some(rerun) = rerun else { return Err("the re-check did not end with no failure".to_string()) };
        if rerun.config != self.config {
            return Err("the scenario's cluster settings are not the ones the stamp was made with".to_string());
        }
        if (rerun.variant, rerun.alphabet, rerun.bounds, &rerun.goal)
            != (self.variant, self.alphabet, self.bounds, &self.goal)
        {
            return Err("the re-check searched other bounds".to_string());
        }
        if (rerun.states, rerun.exhausted) != (self.states, self.exhausted) {
            return Err(format!("the re-check saw {} states, the stamp says {}", rerun.states, self.states));
        }
        Ok(())
    }
}

impl fmt::Display for Stamp {
    /// The text after `proof=`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let [b, r, e, d] = self.bounds;
        let goal: Vec<&str> = self.goal.iter().map(|i| i.id()).collect();
        let end = if self.exhausted { "exhausted" } else { "depth" };
        write!(
            f,
            "{VERSION}~{}~{}~{b}~{r}~{e}~{d}~{}~{}~{end}~{:08x}",
            self.variant.id(),
            self.alphabet.id(),
            goal.join("."),
            self.states,
            self.config
        )
    }
}
