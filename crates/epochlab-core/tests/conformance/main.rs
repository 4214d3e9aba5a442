//! Conformance with Kafka's own tests: each case re-expresses one test of apache/kafka, at a release tag, as an
//! Epochlab scenario, and asserts the outcome that test's assertions require (a log, an epoch cache, a HW, the
//! controller's leader, ISR or ELR, an error). Every case names its source with [`support::source`] as
//! `path@tag#method`; `citations` checks that each case does. Cases that need the release model (issue 20:
//! KAFKA-15583, KIP-966 ELR, inter-broker protocol versions) are written against its contract and ignored
//! until it lands.

mod abstract_fetcher;
mod acceptance;
mod citations;
mod elr;
mod epoch_cache;
mod partition;
mod protocol_versions;
mod replica_fetcher;
mod support;
