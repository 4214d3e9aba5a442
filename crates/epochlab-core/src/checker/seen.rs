//! The set of fingerprints a search has visited: open addressing over the fingerprints themselves (they are
//! already well-mixed hashes), deterministic, one `u64` a slot.

/// A set of non-zero-hashed fingerprints.
pub(crate) struct Seen {
    slots: Vec<u64>,
    len: usize,
}

/// Zero marks an empty slot, so the fingerprint 0 is stored as this instead (a collision costs nothing
/// but the one state).
const ZERO: u64 = 0x9e37_79b9_7f4a_7c15;

impl Seen {
    pub(crate) fn new() -> Seen {
        Seen { slots: vec![0; 1 << 16], len: 0 }
    }

    pub(crate) fn len(&self) -> usize {
        self.len
    }

    /// Whether it holds `fingerprint`.
    pub(crate) fn contains(&self, fingerprint: u64) -> bool {
        let key = if fingerprint == 0 { ZERO } else { fingerprint };
        let mask = self.slots.len() - 1;
        let mut i = (key as usize) & mask;
        for _ in 0..self.slots.len() {
            match self.slots[i] {
                0 => return false,
                k if k == key => return true,
                _ => i = (i + 1) & mask,
            }
        }
        false
    }

    /// Insert; false when it was already there.
    pub(crate) fn insert(&mut self, fingerprint: u64) -> bool {
        if (self.len + 1) * 4 > self.slots.len() * 3 {
            self.grow();
        }
        let key = if fingerprint == 0 { ZERO } else { fingerprint };
        let mask = self.slots.len() - 1;
        let mut i = (key as usize) & mask;
        // The table is at most three quarters full, so an empty slot comes before the scan wraps.
        for _ in 0..self.slots.len() {
            match self.slots[i] {
                0 => {
                    self.slots[i] = key;
                    self.len += 1;
                    return true;
                }
                k if k == key => return false,
                _ => i = (i + 1) & mask,
            }
        }
        false
    }

    fn grow(&mut self) {
        let bigger = vec![0; self.slots.len() * 2];
        let old = std::mem::replace(&mut self.slots, bigger);
        self.len = 0;
        for key in old.into_iter().filter(|k| *k != 0) {
            self.insert(key);
        }
    }

    /// Bytes the table holds.
    pub(crate) fn bytes(&self) -> usize {
        self.slots.len() * 8
    }
}

#[cfg(test)]
mod tests {
    use super::Seen;

    #[test]
    fn remembers_every_fingerprint_once_across_growth() {
        let mut seen = Seen::new();
        for i in 0..200_000u64 {
            assert!(seen.insert((i + 1).wrapping_mul(0x2545_f491_4f6c_dd1d)));
        }
        for i in 0..200_000u64 {
            assert!(seen.contains((i + 1).wrapping_mul(0x2545_f491_4f6c_dd1d)));
            assert!(!seen.insert((i + 1).wrapping_mul(0x2545_f491_4f6c_dd1d)));
        }
        assert!(!seen.contains(0x1234_5678));
        assert_eq!(seen.len(), 200_000);
    }
}
