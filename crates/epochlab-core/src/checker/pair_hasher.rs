//! The search's fingerprint hasher: FxHash's step and SplitMix64's finaliser like
//! [`crate::fingerprint::StableHasher`], but over two chains that take the written words in turn. A node's
//! projection is a long run of small fields, and one chain waits on its previous multiplication at every
//! word; two independent ones overlap. Stable the same way: every integer is fed as 64 bits, `usize` too.

use crate::fingerprint::word_hasher;

const SEED: u64 = 0x243f_6a88_85a3_08d3;
const MULTIPLIER: u64 = 0x517c_c1b7_2722_0a95;

/// A platform-independent [`Hasher`] with two chains.
#[derive(Clone, Debug)]
pub(crate) struct PairHasher {
    /// The chain the next word goes to.
    next: u64,
    /// The other.
    other: u64,
}

impl Default for PairHasher {
    fn default() -> Self {
        PairHasher { next: SEED, other: SEED.rotate_left(32) }
    }
}

impl PairHasher {
    /// Feed `w` to the next chain, which becomes the other (the swap is a renaming: no work).
    fn word(&mut self, w: u64) {
        let fed = (self.next.rotate_left(5) ^ w).wrapping_mul(MULTIPLIER);
        self.next = self.other;
        self.other = fed;
    }

    /// What `finish` mixes: both chains.
    fn state(&self) -> u64 {
        (self.next.rotate_left(5) ^ self.other).wrapping_mul(MULTIPLIER)
    }
}

word_hasher!(PairHasher);
