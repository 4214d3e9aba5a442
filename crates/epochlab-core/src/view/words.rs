//! A log cell in words, for screen readers reading the log grid cell by cell (issue #11): the offset, the
//! record and its epoch, its status, where it stands against the broker's HW and LEO, and what the other
//! brokers hold at the same offset when it differs.

use super::{BrokerView, Cell, CellStatus, StepView};

impl CellStatus {
    /// The status in words: "committed", "committed, lost as Kafka allows".
    pub fn words(self) -> &'static str {
        match self {
            CellStatus::Empty => "empty",
            CellStatus::Committed => "committed",
            CellStatus::Uncommitted => "not yet committed",
            CellStatus::Divergent => "diverges from the leader: a bug",
            CellStatus::Differs => "differs from the leader, no bug yet",
            CellStatus::Truncated => "truncated",
            CellStatus::Lost => "committed, now lost: a bug",
            CellStatus::LostAllowed => "committed, lost as Kafka allows",
        }
    }
}

/// Where an offset stands against a broker's markers.
fn against_markers(b: &BrokerView, offset: u32) -> &'static str {
    if offset < b.hw {
        "below its HW"
    } else if offset < b.leo {
        "at or above its HW"
    } else {
        "at or past its LEO"
    }
}

/// What a broker holds at an offset, for comparing: the record's label, or nothing.
fn held(b: &BrokerView, offset: u32) -> Option<&str> {
    b.cells.get(offset as usize).and_then(|c| c.record.as_ref()).map(|r| r.label.as_str())
}

/// The record held, and what else there is to know about the offset: a committed record lost here, a
/// record a step removed.
fn record_words(c: &Cell) -> (String, Vec<String>) {
    let head = match &c.record {
        Some(r) => format!("{}, epoch {}", r.label, r.epoch),
        None => "no record".to_string(),
    };
    let mut notes = Vec::new();
    if let Some(l) = &c.lost {
        notes.push(format!("{} (epoch {}) was committed here", l.label, l.epoch));
    }
    if let Some(g) = c.ghost.as_ref().filter(|_| c.record.is_none()) {
        notes.push(g.explain());
    }
    (head, notes)
}

impl StepView {
    /// The cell of broker `broker` (its index) at `offset` in words: "offset 2, m2, epoch 0, committed,
    /// below the HW; B has m3 here". `None` when there is no such broker.
    pub fn describe_cell(&self, broker: usize, offset: u32) -> Option<String> {
        let b = self.brokers.get(broker)?;
        let cell = b.cells.get(offset as usize);
        let status = cell.map_or(CellStatus::Empty, |c| c.status);
        let (record, mut notes) = cell.map_or_else(|| ("no record".to_string(), Vec::new()), record_words);
        let mine = held(b, offset);
        let others =
            (self.brokers.iter()).filter(|o| o.id != b.id && held(o, offset) != mine).map(|o| match held(o, offset) {
                Some(label) => format!("{} has {label} here", o.name),
                None => format!("{} has nothing here", o.name),
            });
        notes.extend(others);
        let mut said = format!("offset {offset}, {record}, {}, {}", status.words(), against_markers(b, offset));
        for note in notes {
            said.push_str("; ");
            said.push_str(&note);
        }
        Some(said)
    }
}

#[cfg(test)]
mod tests {
    use crate::{presets, run_variant, view, Variant};

    /// KIP-101 scenario 1 at its last step.
    fn last_step(variant: Variant) -> super::StepView {
        let scenario = presets::find("kip101-scenario-1").unwrap().scenario();
        let trace = run_variant(&scenario, variant);
        view::view(&trace, Some(trace.steps.len() - 1), 0)
    }

    #[test]
    fn a_cell_says_its_record_status_markers_and_how_other_brokers_differ() {
        let v = last_step(Variant::HwTruncation);
        let cells: Vec<String> =
            (0..2).flat_map(|b| (0..3).map(move |o| (b, o))).map(|(b, o)| v.describe_cell(b, o).unwrap()).collect();
        assert_eq!(cells[0], "offset 0, m1, epoch 0, committed, below its HW", "every broker holds m1 there");
        // A, the leader now, lost m2 at offset 1 by truncating it; B still has it.
        assert_eq!(
            cells[1],
            "offset 1, no record, committed, now lost: a bug, at or past its LEO; m2 (epoch 0) was committed here; \
             m2 removed at step 8: truncated to its own high watermark on becoming follower; B has m2 here"
        );
        assert_eq!(cells[4], "offset 1, m2, epoch 0, not yet committed, below its HW; A has nothing here");
        assert_eq!(v.describe_cell(9, 0), None);
    }
}
