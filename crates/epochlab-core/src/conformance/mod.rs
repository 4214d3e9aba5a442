//! The conformance table: every case of `crates/epochlab-core/tests/conformance`, each the re-expression of
//! one test of apache/kafka at a release tag, with the release (or variant, or mode) it holds under, the one
//! before the rule it pins, under which the same events fail or come out otherwise, and whether it
//! re-expresses the whole Kafka test or only a part of it (and which part).
//!
//! The cases live in the test crate; this table is data, so that the CLI (`epochlab conformance`) and the
//! README can list them. A test of the conformance suite checks that the table and the case files agree.

mod controller;
mod epochs;
mod fetcher;
mod partition;

use serde::ser::{Serialize, SerializeStruct, Serializer};

/// One conformance case.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Case {
    /// The Kafka test, as `path@tag#method` (a test file of apache/kafka, a release tag, a test method).
    pub citation: &'static str,
    /// The case, as `file::function` under `crates/epochlab-core/tests/conformance`.
    pub test: &'static str,
    /// Where the case's assertions hold: a Kafka release (`2.1`), a mode (`KRaft 3.8`), with settings.
    pub holds_under: &'static str,
    /// The release before the rule the case pins, and what happens there instead.
    pub fails_under: &'static str,
    /// `None` when the case re-expresses the whole Kafka test; otherwise the part it re-expresses.
    pub part: Option<&'static str>,
}

impl Case {
    /// `whole`, or `partial: ` and the part.
    pub fn coverage(&self) -> String {
        match self.part {
            None => "whole".to_string(),
            Some(part) => format!("partial: {part}"),
        }
    }

    /// The Kafka test class and method with the tag, without the directory: `PartitionTest@2.1.0#testIsr…`.
    pub fn short_citation(&self) -> &'static str {
        self.citation.rsplit('/').next().unwrap_or(self.citation)
    }
}

impl Serialize for Case {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        let mut fields = s.serialize_struct("Case", 6)?;
        fields.serialize_field("citation", self.citation)?;
        fields.serialize_field("test", self.test)?;
        fields.serialize_field("holds_under", self.holds_under)?;
        fields.serialize_field("fails_under", self.fails_under)?;
        fields.serialize_field("whole", &self.part.is_none())?;
        fields.serialize_field("part", &self.part)?;
        fields.end()
    }
}

/// Every case, grouped as the case files are: the fetcher, the epochs end to end and in the cache, the
/// partition's leader, the controller.
pub fn cases() -> Vec<Case> {
    [fetcher::CASES, epochs::CASES, partition::CASES, controller::CASES].concat()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_case_names_a_kafka_test_and_a_case_once() {
        let all = cases();
        let mut citations: Vec<&str> = all.iter().map(|c| c.citation).collect();
        let mut tests: Vec<&str> = all.iter().map(|c| c.test).collect();
        citations.sort_unstable();
        citations.dedup();
        tests.sort_unstable();
        tests.dedup();
        assert_eq!((citations.len(), tests.len()), (all.len(), all.len()));
        assert!(all.iter().all(|c| c.citation.contains('@') && c.citation.contains('#') && c.test.contains("::")));
        assert!(all.iter().all(|c| !c.holds_under.is_empty() && !c.fails_under.is_empty()));
    }

    #[test]
    fn a_case_reads_as_json_with_its_coverage() {
        let case = cases().into_iter().find(|c| c.part.is_some()).expect("a partial case");
        let json = serde_json::to_value(case).expect("json");
        assert_eq!(json["whole"], false);
        assert_eq!(json["part"], case.part.unwrap_or_default());
        assert!(case.coverage().starts_with("partial: "));
        assert!(!case.short_citation().contains('/'));
    }
}
