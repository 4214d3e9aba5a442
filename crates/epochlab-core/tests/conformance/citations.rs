//! Every case cites the Kafka test it re-expresses, in the shape `path@tag#method`, no two cite the same, and
//! the conformance table (`epochlab_core::conformance`) lists exactly these cases, partial where they say so.

use std::collections::BTreeMap;

use crate::support::{parse_citation, source, Citation};

/// The case files, by name, as compiled.
const CASE_FILES: [(&str, &str); 8] = [
    ("abstract_fetcher.rs", include_str!("abstract_fetcher.rs")),
    ("acceptance.rs", include_str!("acceptance.rs")),
    ("elr.rs", include_str!("elr.rs")),
    ("epoch_cache.rs", include_str!("epoch_cache.rs")),
    ("kraft.rs", include_str!("kraft.rs")),
    ("partition.rs", include_str!("partition.rs")),
    ("protocol_versions.rs", include_str!("protocol_versions.rs")),
    ("replica_fetcher.rs", include_str!("replica_fetcher.rs")),
];

/// One `#[test]` of a case file: its name (`file::function`), its citation, whether it is ignored, and whether
/// a `// Partial:` comment says it re-expresses only part of the Kafka test.
struct Case {
    name: String,
    citation: Citation,
    ignored: bool,
    partial: bool,
}

/// The `#[test]` functions of a file, each with the first `source("…")` of its body.
fn cases(file: &str, text: &str) -> Vec<Case> {
    let marker = "#[test]";
    let mut found = Vec::new();
    for chunk in text.split(marker).skip(1) {
        let name = chunk.split("fn ").nth(1).and_then(|s| s.split('(').next()).unwrap_or("?").to_string();
        let cited = chunk.split("source(").nth(1).and_then(|s| s.trim_start().strip_prefix('"'));
        let cited = cited.and_then(|s| s.split('"').next());
        let cited = cited.unwrap_or_else(|| panic!("{file}: {name} names no Kafka test with source(\"…\")"));
        let citation = parse_citation(cited).unwrap_or_else(|e| panic!("{file}: {name} cites {cited:?}: {e}"));
        let ignored = chunk.trim_start().starts_with("#[ignore");
        let name = format!("{}::{name}", file.trim_end_matches(".rs"));
        found.push(Case { name, citation, ignored, partial: chunk.contains("// Partial:") });
    }
    found
}

fn all_cases() -> Vec<Case> {
    CASE_FILES.iter().flat_map(|(file, text)| cases(file, text)).collect()
}

fn cited(c: &Citation) -> String {
    format!("{}@{}#{}", c.path, c.tag, c.method)
}

#[test]
fn a_citation_is_a_test_file_a_release_tag_and_a_method() {
    let c = source("core/src/test/scala/unit/kafka/cluster/PartitionTest.scala@2.1.0#testMakeLeaderUpdatesEpochCache");
    assert_eq!(
        (c.path.as_str(), c.tag.as_str()),
        ("core/src/test/scala/unit/kafka/cluster/PartitionTest.scala", "2.1.0")
    );
    assert_eq!(c.method, "testMakeLeaderUpdatesEpochCache");
    let java =
        "metadata/src/test/java/org/apache/kafka/controller/PartitionChangeBuilderTest.java@3.8.0#testElectLeader";
    assert!(parse_citation(java).is_ok());
    assert!(parse_citation(
        "core/src/test/scala/unit/kafka/server/epoch/LeaderEpochFileCacheTest.scala@0.11.0.0#shouldClearAllEntries"
    )
    .is_ok());
    let refused = [
        "core/src/test/scala/unit/kafka/cluster/PartitionTest.scala@trunk#testIsrExpansion",
        "core/src/test/scala/unit/kafka/cluster/PartitionTest.scala@3.9.0-rc3#testIsrExpansion",
        "core/src/test/scala/unit/kafka/cluster/PartitionTest.scala@2.1#testIsrExpansion",
        "core/src/test/scala/unit/kafka/cluster/PartitionTest.scala#testIsrExpansion",
        "core/src/test/scala/unit/kafka/cluster/PartitionTest.scala@2.1.0",
        "core/src/test/scala/unit/kafka/cluster/PartitionTest.scala@2.1.0#TestIsrExpansion",
        "core/src/test/scala/unit/kafka/cluster/PartitionTest.scala@2.1.0#test Isr",
        "core/src/main/scala/kafka/cluster/Partition.scala@2.1.0#makeLeader",
        "core/src/test/scala/unit/kafka/cluster/Partition.scala@2.1.0#testIsrExpansion",
        "core/src/test/scala/unit/kafka//PartitionTest.scala@2.1.0#testIsrExpansion",
        "PartitionTest.scala@2.1.0#testIsrExpansion",
    ];
    for bad in refused {
        assert!(parse_citation(bad).is_err(), "{bad} should be refused");
    }
}

#[test]
#[should_panic(expected = "bad citation")]
fn source_refuses_a_citation_of_another_shape() {
    source("PartitionTest#testIsrExpansion");
}

#[test]
fn every_case_cites_one_kafka_test_and_none_is_cited_twice() {
    let cases = all_cases();
    let mut seen = BTreeMap::new();
    for case in &cases {
        let key = cited(&case.citation);
        if let Some(other) = seen.insert(key.clone(), case.name.clone()) {
            panic!("{} and {other} both cite {key}", case.name);
        }
    }
    let ignored = cases.iter().filter(|c| c.ignored).count();
    assert!(cases.len() >= 65, "{} cases", cases.len());
    assert!(cases.len() - ignored >= 20, "only {} cases run", cases.len() - ignored);
}

#[test]
fn every_ignored_case_waits_for_the_release_model() {
    for (file, text) in CASE_FILES {
        for chunk in text.split("#[test]").skip(1).filter(|c| c.trim_start().starts_with("#[ignore")) {
            assert!(
                chunk.trim_start().starts_with("#[ignore = \"needs the release model (issue 20)\"]"),
                "{file}: {chunk}"
            );
        }
    }
}

#[test]
fn the_conformance_table_lists_every_case_and_nothing_else() {
    let in_files: BTreeMap<String, (String, bool)> =
        all_cases().into_iter().map(|c| (cited(&c.citation), (c.name, c.partial))).collect();
    let table = epochlab_core::conformance::cases();
    let in_table: BTreeMap<String, (String, bool)> =
        table.iter().map(|c| (c.citation.to_string(), (c.test.to_string(), c.part.is_some()))).collect();
    for (citation, case) in &in_files {
        assert_eq!(in_table.get(citation), Some(case), "{citation}: the table and the case files differ");
    }
    for citation in in_table.keys() {
        assert!(in_files.contains_key(citation), "{citation} is in the table but no case cites it");
    }
    assert_eq!((table.len(), in_table.len()), (in_files.len(), in_files.len()), "same count, no duplicates");
}
