//! Conformance with Kafka's own tests: each case re-expresses one test of apache/kafka, at a release tag, as an
//! Epochlab scenario, and asserts the outcome that test's assertions require (a log, an epoch cache, a HW, the
//! controller's leader, epochs, ISR or ELR, an error). Every case names its source with [`support::source`] as
//! `path@tag#method` (`citations` checks that each case does), says in a `// Partial:` comment which part it
//! re-expresses when it is not the whole test, and runs again under the release or variant before the rule it
//! pins, where the same events fail or come out otherwise. `epochlab_core::conformance` lists them all.

mod abstract_fetcher;
mod acceptance;
mod citations;
mod elr;
mod epoch_cache;
mod kraft;
mod partition;
mod protocol_versions;
mod replica_fetcher;
mod support;
