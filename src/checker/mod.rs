//! The model checker in the browser. The search and the shrinker run in a Web Worker ([`worker`]: a second
//! wasm that Trunk builds from index.html's `data-type="worker"` link, fetched only when the checker panel
//! is first used). The page's side is kept small, since it is in the first download: requests and replies
//! are short JSON texts (serde_json's `Value`, which the page already has), and the worker words its own
//! progress lines and verdicts, so the page only shows them.

pub mod protocol;
pub mod worker;

use serde_json::{json, Value};

/// Ask for a search: the variant and invariant ids, the bounds, the alphabet id, the scenario (JSON) whose
/// cluster settings the search runs under, and for a re-check the link's stamp (the worker says whether the
/// search confirms it, so the page carries no comparison of its own).
pub fn check_request(
    variant: &str,
    invariants: &[&str],
    bounds: [u32; 4],
    alphabet: &str,
    settings: &str,
    claim: Option<&str>,
) -> String {
    let [brokers, records, epochs, depth] = bounds;
    json!({ "t": "check", "variant": variant, "invariants": invariants, "brokers": brokers, "records": records,
        "epochs": epochs, "depth": depth, "alphabet": alphabet, "settings": settings, "claim": claim })
    .to_string()
}

/// Ask to stop the search under way.
pub fn cancel_request() -> String {
    json!({ "t": "cancel" }).to_string()
}

/// Ask to shrink a scenario (JSON) under a variant (id).
pub fn shrink_request(scenario: &str, variant: &str) -> String {
    json!({ "t": "shrink", "scenario": scenario, "variant": variant }).to_string()
}

/// What the worker said.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Reply {
    /// `ready`, `progress`, `done` (a search or a shrink ended) or `failed`.
    pub kind: String,
    /// The line to show.
    pub text: String,
    /// Progress: the depth explored, of `max`.
    pub depth: u32,
    pub max: u32,
    /// Lines under the text (a shrunk scenario's reasons).
    pub list: Vec<String>,
    /// A scenario to open (JSON), the step to put the cursor on, and the notice to say.
    pub open: Option<(String, Option<usize>, String)>,
    /// A search that found no failure: its bounded-proof stamp (`epochlab_core::checker::Stamp`'s text).
    pub stamp: Option<String>,
}

impl Reply {
    /// Read a reply; a garbled one is a failure to show, never a panic.
    pub fn parse(text: &str) -> Reply {
        let Ok(v) = serde_json::from_str::<Value>(text) else {
            return Reply {
                kind: "failed".into(),
                text: "the checker sent a garbled message".into(),
                ..Reply::default()
            };
        };
        let s = |k: &str| v.get(k).and_then(Value::as_str).unwrap_or_default().to_string();
        let n = |k: &str| v.get(k).and_then(Value::as_u64).unwrap_or_default() as u32;
        let list = v
            .get("list")
            .and_then(Value::as_array)
            .map_or_else(Vec::new, |l| l.iter().filter_map(|x| x.as_str().map(str::to_string)).collect());
        let open = v.get("open").filter(|o| o.is_object()).map(|o| {
            let cursor = o.get("cursor").and_then(Value::as_u64).map(|c| c as usize);
            let notice = o.get("notice").and_then(Value::as_str).unwrap_or_default().to_string();
            (o.get("scenario").and_then(Value::as_str).unwrap_or_default().to_string(), cursor, notice)
        });
        let stamp = v.get("stamp").and_then(Value::as_str).map(str::to_string);
        Reply { kind: s("t"), text: s("text"), depth: n("depth"), max: n("max"), list, open, stamp }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use epochlab_core::checker::{check, CheckConfig};
    use epochlab_core::Variant;

    #[test]
    fn the_workers_verdict_reads_back_with_the_scenario_to_open() {
        let config = CheckConfig { variant: Variant::HwTruncation, ..CheckConfig::default() };
        let r = check(&config, |_| true);
        let reply = Reply::parse(&protocol::finished(&config, &r, 0.5, None));
        assert_eq!(reply.kind, "done");
        assert!(reply.text.contains("Found the shortest failure under hw-truncation"), "{}", reply.text);
        assert_eq!(reply.stamp, None, "a failure proves nothing");
        let (json, cursor, notice) = reply.open.expect("a scenario to open");
        let scenario = epochlab_core::scenario::Scenario::from_json(&json).expect("valid");
        assert_eq!(cursor, Some(scenario.events.len() - 1));
        assert!(notice.contains("hw-truncation"));
    }

    #[test]
    fn a_search_with_no_failure_sends_its_stamp_and_the_stamp_reads_back() {
        use epochlab_core::checker::Stamp;
        let config = CheckConfig { variant: Variant::Kafka21, depth: 5, ..CheckConfig::default() };
        let r = check(&config, |_| true);
        let reply = Reply::parse(&protocol::finished(&config, &r, 0.5, None));
        let stamp = Stamp::parse(reply.stamp.as_deref().expect("a stamp")).expect("it reads back");
        assert_eq!((stamp.variant, stamp.states), (Variant::Kafka21, r.unique_states));
        assert_eq!(reply.open, None);
        let claim = reply.stamp.clone().unwrap_or_default();
        let recheck = Reply::parse(&protocol::finished(&config, &r, 0.5, Some(&claim)));
        assert!(
            recheck.text.starts_with("Re-check confirms the link's stamp: kafka-2.1: no failure"),
            "{}",
            recheck.text
        );
        assert_eq!(recheck.stamp, None, "the link has it already");
        let other = CheckConfig { depth: 4, ..config.clone() };
        let smaller = Reply::parse(&protocol::finished(&other, &check(&other, |_| true), 0.5, Some(&claim)));
        assert!(
            smaller.text.contains("does not confirm the link's stamp: the re-check searched other bounds"),
            "{}",
            smaller.text
        );
        let garbled = Reply::parse(&protocol::finished(&config, &r, 0.5, Some("1~x")));
        assert!(garbled.text.contains("does not confirm the link's stamp: it has 2 fields"), "{}", garbled.text);
    }

    #[test]
    fn a_request_reads_back_in_the_worker_and_bad_ones_are_refused() {
        let settings = epochlab_core::scenario::Scenario::empty().to_json();
        let text = check_request("kafka-2.1", &["I1", "I3"], [3, 2, 3, 9], "full", &settings, Some("1~x"));
        let Ok(protocol::Request::Check(c, claim)) = protocol::read(&text) else { panic!("{text}") };
        assert_eq!(claim.as_deref(), Some("1~x"));
        assert_eq!((c.variant, c.brokers, c.depth, c.goal.len()), (Variant::Kafka21, 3, 9, 2));
        assert_eq!(c.alphabet, epochlab_core::checker::Alphabet::Full);
        assert!(protocol::read(&check_request("nope", &["I1"], [2, 2, 3, 9], "default", &settings, None)).is_err());
        assert!(protocol::read(&check_request("kip-279", &[], [2, 2, 3, 9], "default", &settings, None)).is_err());
        assert!(protocol::read(&check_request("kip-279", &["I1"], [2, 2, 3, 9], "tiny", &settings, None)).is_err());
        assert!(protocol::read("{").is_err());
        assert_eq!(Reply::parse("garbage").kind, "failed");
        // A bound out of range or missing is refused with the reason, not clamped (issue 22).
        let deep = protocol::read(&check_request("kip-279", &["I1"], [2, 2, 3, 99], "default", &settings, None));
        assert_eq!(deep.err().as_deref(), Some("depth 99 is out of range (1 to 30)"));
        let mut partial: serde_json::Value =
            serde_json::from_str(&check_request("kip-279", &["I1"], [2, 2, 3, 9], "default", &settings, None)).unwrap();
        partial.as_object_mut().unwrap().remove("records");
        let none = protocol::read(&partial.to_string());
        assert_eq!(none.err().as_deref(), Some("no records given"));
    }
}
