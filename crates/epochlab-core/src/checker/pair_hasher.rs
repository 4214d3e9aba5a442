//! The search's fingerprint hasher: FxHash's step and SplitMix64's finaliser like
//! [`crate::fingerprint::StableHasher`], but over two chains that take the written words in turn. A node's
//! projection is a long run of small fields, and one chain waits on its previous multiplication at every
//! word; two independent ones overlap. Stable the same way: every integer is fed as 64 bits, `usize` too.

use std::hash::Hasher;

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
}

impl Hasher for PairHasher {
    fn finish(&self) -> u64 {
        let mut z = (self.next.rotate_left(5) ^ self.other).wrapping_mul(MULTIPLIER);
        z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
        z ^ (z >> 31)
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
