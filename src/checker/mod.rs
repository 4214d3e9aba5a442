//! The model checker's program: the search and the shrinker run in a Web Worker ([`worker`]: a third wasm
//! that Trunk builds from index.html's `data-type="worker"` link, fetched only when the checker panel is
//! first used). [`protocol`] is what the panel (drawn by the lessons module) and the worker say to each
//! other, compiled into both; [`verdict`] words the worker's replies, so the panel only shows them.

pub mod protocol;
pub mod verdict;
pub mod worker;

#[cfg(test)]
mod tests {
    use super::protocol::{CheckReply, CheckRequest};
    use super::verdict;
    use epochlab_core::checker::{check, CheckConfig, Stamp};
    use epochlab_core::Variant;

    /// A reply as the panel reads it: encoded by the worker, decoded once.
    fn sent(reply: CheckReply) -> super::protocol::Verdict {
        match CheckReply::from_json(&reply.to_json()) {
            Ok(CheckReply::Done(v)) => *v,
            other => panic!("{other:?}"),
        }
    }

    #[test]
    fn the_workers_verdict_reads_back_with_the_scenario_to_open() {
        let config = CheckConfig { variant: Variant::HwTruncation, ..CheckConfig::default() };
        let r = check(&config, |_| true);
        let v = sent(verdict::finished(&config, &r, 0.5, None));
        assert!(v.text.contains("Found the shortest failure under hw-truncation"), "{}", v.text);
        assert_eq!(v.stamp, None, "a failure proves nothing");
        let found = v.found.expect("a scenario to open");
        assert_eq!(found.cursor, Some(found.scenario.events.len() - 1));
        assert_eq!(Some(&*found.scenario), r.counterexample.as_ref());
        assert!(found.notice.contains("hw-truncation"));
    }

    #[test]
    fn a_search_with_no_failure_sends_its_stamp_and_a_recheck_says_whether_it_confirms_it() {
        let config = CheckConfig { variant: Variant::Kafka21, depth: 5, ..CheckConfig::default() };
        let r = check(&config, |_| true);
        let v = sent(verdict::finished(&config, &r, 0.5, None));
        let stamp = v.stamp.expect("a stamp");
        assert_eq!((stamp.variant, stamp.states), (Variant::Kafka21, r.unique_states));
        assert_eq!(v.found, None);
        let recheck = sent(verdict::finished(&config, &r, 0.5, Some(&stamp)));
        assert!(
            recheck.text.starts_with("Re-check confirms the link's stamp: kafka-2.1: no failure"),
            "{}",
            recheck.text
        );
        assert_eq!(recheck.stamp, None, "the link has it already");
        let other = CheckConfig { depth: 4, ..config.clone() };
        let smaller = sent(verdict::finished(&other, &check(&other, |_| true), 0.5, Some(&stamp)));
        assert!(
            smaller.text.contains("does not confirm the link's stamp: the re-check searched other bounds"),
            "{}",
            smaller.text
        );
        assert!(Stamp::parse("1~x").is_err(), "a garbled stamp never becomes a request");
    }

    #[test]
    fn a_request_reads_back_in_the_worker() {
        let search = CheckConfig { variant: Variant::Kafka21, brokers: 3, depth: 9, ..CheckConfig::default() };
        let request = CheckRequest::Check { search: Box::new(search.clone()), claim: None };
        let Ok(CheckRequest::Check { search: read, claim: None }) = CheckRequest::from_json(&request.to_json()) else {
            panic!("{}", request.to_json())
        };
        assert_eq!(*read, search);
    }
}
