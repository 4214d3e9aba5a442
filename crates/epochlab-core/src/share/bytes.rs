//! Bytes in and out of a layout: a writer, and a bounded reader whose every failure names what it read.

use super::{corrupt, ShareError};

// ---------------------------------------------------------------------------------------------------------
// Byte writer and reader
// ---------------------------------------------------------------------------------------------------------

pub(super) struct Writer(pub(super) Vec<u8>);

impl Writer {
    pub(super) fn byte(&mut self, b: u8) {
        self.0.push(b);
    }

    pub(super) fn varint(&mut self, mut n: u64) {
        while n >= 0x80 {
            self.0.push((n as u8 & 0x7f) | 0x80);
            n >>= 7;
        }
        self.0.push(n as u8);
    }

    pub(super) fn string(&mut self, s: &str) {
        self.varint(s.len() as u64);
        self.0.extend_from_slice(s.as_bytes());
    }
}

pub(super) enum VarintError {
    /// The bytes ran out inside it.
    End,
    /// Over 64 bits, or with needless trailing zero groups.
    Malformed,
}

pub(super) struct Reader<'a> {
    bytes: &'a [u8],
    pub(super) pos: usize,
}

impl<'a> Reader<'a> {
    pub(super) fn new(bytes: &'a [u8]) -> Self {
        Reader { bytes, pos: 0 }
    }

    pub(super) fn remaining(&self) -> usize {
        self.bytes.len() - self.pos
    }

    pub(super) fn byte(&mut self) -> Option<u8> {
        let b = *self.bytes.get(self.pos)?;
        self.pos += 1;
        Some(b)
    }

    pub(super) fn take(&mut self, n: usize) -> Option<&'a [u8]> {
        let end = self.pos.checked_add(n).filter(|end| *end <= self.bytes.len())?;
        let taken = &self.bytes[self.pos..end];
        self.pos = end;
        Some(taken)
    }

    pub(super) fn varint(&mut self) -> Result<u64, VarintError> {
        let mut n: u64 = 0;
        for i in 0..10u32 {
            let b = self.byte().ok_or(VarintError::End)?;
            let group = u64::from(b & 0x7f);
            if i == 9 && group > 1 {
                return Err(VarintError::Malformed);
            }
            n |= group << (7 * i);
            if b & 0x80 == 0 {
                return if i > 0 && group == 0 { Err(VarintError::Malformed) } else { Ok(n) };
            }
        }
        Err(VarintError::Malformed)
    }
}

/// Reading the layout: the frame was whole and its checksum matched, so running out of bytes or a bad value
/// means the link was made wrongly, and is reported as damage naming the field.
pub(super) struct Layout<'a>(pub(super) Reader<'a>);

impl Layout<'_> {
    pub(super) fn byte(&mut self, what: &str) -> Result<u8, ShareError> {
        self.0.byte().ok_or_else(|| corrupt(format!("its layout ends inside {what}")))
    }

    pub(super) fn varint(&mut self, what: &str) -> Result<u64, ShareError> {
        self.0.varint().map_err(|e| match e {
            VarintError::End => corrupt(format!("its layout ends inside {what}")),
            VarintError::Malformed => corrupt(format!("{what} is not a well-formed number")),
        })
    }

    pub(super) fn string(&mut self, what: &str) -> Result<String, ShareError> {
        let len = self.varint(what)?;
        // The length is checked against the bytes left before anything is allocated.
        let bytes = usize::try_from(len)
            .ok()
            .and_then(|n| self.0.take(n))
            .ok_or_else(|| corrupt(format!("{what} runs past the end of the layout")))?;
        String::from_utf8(bytes.to_vec()).map_err(|_| corrupt(format!("{what} is not valid UTF-8")))
    }
}
