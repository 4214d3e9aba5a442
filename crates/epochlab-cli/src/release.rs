//! `epochlab run FILE --kafka 2.0` and `epochlab bisect FILE`: scenarios under Kafka releases.

use epochlab_core::invariants::InvariantId;
use epochlab_core::release::{bisect, describe_bisection};
use epochlab_core::report;
use epochlab_core::scenario::Overrides;
use epochlab_core::variant::KafkaVersion;
use serde_json::json;

use crate::commands::{self, Shown};
use crate::grid;

/// `--kafka` and `--metadata-mode`: settings that count as the file's own, so that its release settings
/// (ELR, the inter-broker protocol, the mode) are read against that release, as Kafka reads its config.
pub(crate) fn overrides(kafka: Option<&str>, mode: Option<&str>) -> Result<Overrides, String> {
    if let Some(id) = kafka {
        KafkaVersion::parse(id)?;
    }
    Ok(Overrides { kafka_version: kafka.map(str::to_string), metadata_mode: mode.map(str::to_string) })
}

pub(crate) fn run(file: &str, overrides: &Overrides, json: bool, shown: &Shown) -> Result<String, String> {
    let scenario = commands::load_with(file, overrides)?;
    let trace = epochlab_core::run(&scenario);
    if json {
        return Ok(report::runs_json(std::slice::from_ref(&trace)) + "\n");
    }
    let mut out = commands::head(&scenario) + &grid::run_block(&trace, shown.at, shown.steps);
    if shown.messages {
        out.push('\n');
        out.push_str(&crate::messages::text(&scenario, &trace));
    }
    Ok(out)
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
