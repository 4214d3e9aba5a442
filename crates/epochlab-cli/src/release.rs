//! `epochlab run FILE --kafka 2.0` and `epochlab bisect FILE`: scenarios under Kafka releases.

use epochlab_core::invariants::InvariantId;
use epochlab_core::release::{bisect, describe_bisection, KafkaRelease};
use epochlab_core::report;
use serde_json::json;

use crate::commands::{self, Shown};
use crate::grid;

fn release(id: &str) -> Result<KafkaRelease, String> {
    KafkaRelease::from_id(id).ok_or_else(|| {
        let all: Vec<&str> = KafkaRelease::ALL.iter().map(|r| r.id()).collect();
        format!("unknown Kafka release \"{id}\" (expected one of {})", all.join(", "))
    })
}

pub(crate) fn run(file: &str, id: &str, json: bool, shown: &Shown) -> Result<String, String> {
    let r = release(id)?;
    let scenario = commands::load(file)?;
    let trace = epochlab_core::run_protocol(&scenario, r.protocol());
    if json {
        return Ok(report::runs_json(std::slice::from_ref(&trace)) + "\n");
    }
    let mut out = head(r) + &grid::run_block(&trace, shown.at, shown.steps);
    if shown.messages {
        out.push('\n');
        out.push_str(&crate::messages::text(&scenario, &trace));
    }
    Ok(out)
}

/// "Kafka 2.0: runs as kip-279 (what changed)".
pub(crate) fn head(r: KafkaRelease) -> String {
    format!("Kafka {}: runs as {} ({})\n", r.id(), r.variant().id(), r.changes())
}

pub(crate) fn bisect_file(file: &str, as_json: bool) -> Result<String, String> {
    let scenario = commands::load(file)?;
    let outcomes = bisect(&scenario);
    if as_json {
        let rows: Vec<_> = outcomes
            .iter()
            .map(|o| json!({"release": o.release.id(), "variant": o.release.variant().id(), "bugs": o.bugs.iter().map(|b| b.id()).collect::<Vec<_>>()}))
            .collect();
        let out = json!({"releases": rows, "summary": describe_bisection(&outcomes)});
        return Ok(serde_json::to_string_pretty(&out).unwrap_or_default() + "\n");
    }
    let mut out = format!("{} across Kafka releases:\n", scenario.name);
    for o in &outcomes {
        let verdict =
            if o.bugs.is_empty() { "holds".to_string() } else { format!("fails {}", InvariantId::join(&o.bugs, ", ")) };
        out.push_str(&format!("  {:<7} {:<16} {verdict}\n", o.release.id(), o.release.variant().id()));
    }
    out.push_str(&grid::wrap(&describe_bisection(&outcomes), 96, ""));
    Ok(out)
}
