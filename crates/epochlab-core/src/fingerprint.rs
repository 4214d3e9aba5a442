//! A stable 64-bit fingerprint of a simulator state and its memory, for deduplication in a search.
//!
//! Stable: fixed seeds and a hasher that feeds every integer as 64 bits little-endian, so the value is the
//! same in native and wasm builds (whose `usize` widths differ) and across runs. Behaviour-preserving: what
//! does not change what happens next is left out (record labels, violation messages, the order in which
//! violations were found), and step numbers are replaced by their rank among the steps the memory mentions,
//! since the rules only compare them ("an unclean election after the record was written").

use std::hash::{Hash, Hasher};

use crate::engine::Memory;
use crate::invariants::StepRanks;
use crate::state::State;

/// FxHash's multiplier, then SplitMix64's finaliser: fast, and well mixed for structured data.
const SEED: u64 = 0x243f_6a88_85a3_08d3;
const MULTIPLIER: u64 = 0x517c_c1b7_2722_0a95;

/// A [`Hasher`] whose output does not depend on the platform.
#[derive(Clone, Debug)]
pub struct StableHasher {
    hash: u64,
}

impl Default for StableHasher {
    fn default() -> Self {
        StableHasher { hash: SEED }
    }
}

impl StableHasher {
    fn word(&mut self, w: u64) {
        self.hash = (self.hash.rotate_left(5) ^ w).wrapping_mul(MULTIPLIER);
    }

    /// What `finish` mixes.
    fn state(&self) -> u64 {
        self.hash
    }
}

/// SplitMix64's finaliser.
pub(crate) fn mix(mut z: u64) -> u64 {
    z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
    z ^ (z >> 31)
}

/// `Hasher` for a type that takes one 64-bit word at a time (its `word`) and is finished by mixing its
/// `state`: bytes go in eight at a time, then their length, and every integer as one word, `usize` too.
macro_rules! word_hasher {
    ($t:ty) => {
        impl std::hash::Hasher for $t {
            fn finish(&self) -> u64 {
                $crate::fingerprint::mix(self.state())
            }
            fn write(&mut self, bytes: &[u8]) {
                for chunk in bytes.chunks(8) {
                    let mut w = [0u8; 8];
                    w[..chunk.len()].copy_from_slice(chunk);
                    self.word(u64::from_le_bytes(w));
                }
                self.word(bytes.len() as u64);
            }
            fn write_u8(&mut self, i: u8) {
                self.word(u64::from(i));
            }
            fn write_u16(&mut self, i: u16) {
                self.word(u64::from(i));
            }
            fn write_u32(&mut self, i: u32) {
                self.word(u64::from(i));
            }
            fn write_u64(&mut self, i: u64) {
                self.word(i);
            }
            fn write_usize(&mut self, i: usize) {
                self.word(i as u64);
            }
            fn write_isize(&mut self, i: isize) {
                self.word(i as i64 as u64);
            }
        }
    };
}
pub(crate) use word_hasher;

word_hasher!(StableHasher);

/// The fingerprint of a state with the simulator's memory: equal for states that behave the same from here on.
pub(crate) fn fingerprint(state: &State, memory: &Memory) -> u64 {
    let mut h = StableHasher::default();
    hash_behaviour(state, memory, &mut h);
    h.finish()
}

/// Feed what the fingerprint covers to any hasher.
pub(crate) fn hash_behaviour<H: Hasher>(state: &State, memory: &Memory, h: &mut H) {
    state.hash(h);
    let steps = memory.records.iter().map(|r| r.step).chain(memory.history.steps());
    let ranks = StepRanks::of(steps);
    for r in memory.records.iter() {
        (r.epoch, r.leader, r.acks, ranks.of_step(r.step)).hash(h);
    }
    memory.pending_acks.hash(h);
    memory.history.hash_ranked(h, &ranks);
    for key in memory.known.keys() {
        key.hash(h);
    }
}
