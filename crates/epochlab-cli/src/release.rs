//! `epochlab run FILE --kafka 2.0` and `epochlab bisect FILE`: scenarios under Kafka releases.

use epochlab_core::invariants::InvariantId;
use epochlab_core::release::{bisect, describe_bisection};
use epochlab_core::report;
use epochlab_core::variant::KafkaVersion;
use epochlab_core::Scenario;
use serde_json::json;

use crate::commands::{self, Shown};
use crate::grid;

pub(crate) fn run(file: &str, id: &str, json: bool, shown: &Shown) -> Result<String, String> {
    let release = KafkaVersion::parse(id)?;
    let mut scenario = commands::load(file)?;
    if scenario.config.eligible_leader_replicas.is_some() && !release.line().elr().0 {
        return Err(format!("--kafka {id}: Kafka {id} has no Eligible Leader Replicas (KIP-966 came in 4.0), but the file sets eligible_leader_replicas"));
    }
    scenario.config.set_release(release);
    // The file's release settings must suit this release (ELR needs 4.0): read it back as a file would be.
    let scenario = epochlab_core::parse_scenario(&scenario.to_json()).map_err(|e| format!("--kafka {id}: {e}"))?;
    let trace = epochlab_core::run(&scenario);
    if json {
        return Ok(report::runs_json(std::slice::from_ref(&trace)) + "\n");
    }
    let mut out = head(&scenario) + &grid::run_block(&trace, shown.at, shown.steps);
    if shown.messages {
        out.push('\n');
        out.push_str(&crate::messages::text(&scenario, &trace));
    }
    Ok(out)
}

/// "Kafka 3.3 (the 2.8.1–3.6 line): runs as diverging-epoch (what changed)", and what its settings change.
pub(crate) fn head(scenario: &Scenario) -> String {
    let Some(v) = scenario.config.kafka_version else { return String::new() };
    let r = v.line();
    let line = if r.label() == v.id() { String::new() } else { format!(" (the {} line)", r.label()) };
    let protocol = scenario.config.protocol(v.variant());
    let held = if protocol.generation() == r.variant() {
        String::new()
    } else {
        format!("; its inter-broker protocol or message format holds it to {}", protocol.generation().id())
    };
    format!("Kafka {}{line}: runs as {} ({}){held}\n", v.id(), r.variant().id(), r.changes())
}

pub(crate) fn bisect_file(file: &str, as_json: bool) -> Result<String, String> {
    let scenario = commands::load(file)?;
    let outcomes = bisect(&scenario);
    if as_json {
        let rows: Vec<_> = outcomes
            .iter()
            .map(|o| json!({"release": o.release.id(), "releases": o.release.label(), "variant": o.release.variant().id(), "bugs": o.bugs.iter().map(|b| b.id()).collect::<Vec<_>>()}))
            .collect();
        let out = json!({"releases": rows, "summary": describe_bisection(&outcomes)});
        return Ok(serde_json::to_string_pretty(&out).unwrap_or_default() + "\n");
    }
    let mut out = format!("{} across Kafka releases:\n", scenario.name);
    for o in &outcomes {
        let verdict =
            if o.bugs.is_empty() { "holds".to_string() } else { format!("fails {}", InvariantId::join(&o.bugs, ", ")) };
        out.push_str(&format!("  {:<10} {:<16} {verdict}\n", o.release.label(), o.release.variant().id()));
    }
    out.push_str(&grid::wrap(&describe_bisection(&outcomes), 96, ""));
    Ok(out)
}
