//! The subcommands. Each returns the text to print, or the one-line error that exits with status 2.

use std::io::Read;

use epochlab_core::invariants::InvariantId;
use epochlab_core::presets::{verdict_of, PRESETS};
use epochlab_core::scenario::{Overrides, MAX_FILE_BYTES};
use epochlab_core::share::{self, ShareState, MAX_PAYLOAD, MAX_VARIANTS};
use epochlab_core::{report, Scenario, Trace, Variant};

use crate::grid;

/// Read and parse a scenario file, JSON or text (told apart by content; `-` is standard input). Errors name
/// the file and the position.
pub(crate) fn load(file: &str) -> Result<Scenario, String> {
    load_with(file, &Overrides::default())
}

/// [`load`], with the command line's release settings counting as the file's own.
pub(crate) fn load_with(file: &str, overrides: &Overrides) -> Result<Scenario, String> {
    let (text, name) = read_file(file)?;
    epochlab_core::scenario::text::parse_any_with(&text, overrides).map_err(|e| format!("{name}: {e}"))
}

/// A file's text (`-`: standard input) and the name errors give it, read up to the page's import limit
/// ([`MAX_FILE_BYTES`]): `/dev/zero` or a log file is refused, not read until memory runs out.
pub(crate) fn read_file(file: &str) -> Result<(String, &str), String> {
    let name = if file == "-" { "standard input" } else { file };
    let source: Box<dyn Read> = if file == "-" {
        Box::new(std::io::stdin())
    } else {
        Box::new(std::fs::File::open(file).map_err(|e| format!("{file}: cannot read: {e}"))?)
    };
    let mut bytes = Vec::new();
    source.take(MAX_FILE_BYTES as u64 + 1).read_to_end(&mut bytes).map_err(|e| format!("{name}: cannot read: {e}"))?;
    if bytes.len() > MAX_FILE_BYTES {
        return Err(format!(
            "{name}: larger than {} MB, the most a scenario or lesson file may be",
            MAX_FILE_BYTES >> 20
        ));
    }
    let text = String::from_utf8(bytes).map_err(|_| format!("{name}: not UTF-8 text"))?;
    Ok((text, name))
}

fn parse_variants(ids: &[String]) -> Result<Vec<Variant>, String> {
    let mut variants = Vec::new();
    for id in ids {
        let v = Variant::from_id(id)
            .ok_or_else(|| format!("unknown variant \"{id}\" (expected one of {})", Variant::id_list()))?;
        if !variants.contains(&v) {
            variants.push(v);
        }
    }
    Ok(variants)
}

/// What `run` draws besides the logs and verdicts.
pub(crate) struct Shown {
    /// The step whose logs are drawn (default: the last).
    pub(crate) at: Option<usize>,
    /// Every step's narration.
    pub(crate) steps: bool,
    /// The messages.
    pub(crate) messages: bool,
}

pub(crate) fn run(file: &str, variant_ids: &[String], all: bool, json: bool, shown: Shown) -> Result<String, String> {
    let Shown { at, steps, messages } = shown;
    let scenario = load(file)?;
    let variants = if all {
        Variant::ALL.to_vec()
    } else if variant_ids.is_empty() {
        vec![scenario.config.variant]
    } else {
        parse_variants(variant_ids)?
    };
    if let Some(step) = at {
        if step >= scenario.events.len() {
            return Err(format!(
                "--at {step}: the scenario has {} steps (0 to {})",
                scenario.events.len(),
                scenario.events.len().saturating_sub(1)
            ));
        }
    }
    let traces: Vec<Trace> = variants.iter().map(|v| epochlab_core::run_variant(&scenario, *v)).collect();
    if json {
        return Ok(report::runs_json(&traces) + "\n");
    }
    let mut out = String::new();
    // A file that names its Kafka release runs as that release (its variant, no flags beyond): say so.
    if variant_ids.is_empty() && !all {
        out.push_str(&head(&scenario));
    }
    for trace in &traces {
        out.push_str(&grid::run_block(trace, at, steps));
        out.push('\n');
        if messages {
            out.push_str(&crate::messages::text(&scenario, trace));
            out.push('\n');
        }
    }
    if traces.len() > 1 {
        out.push_str(&grid::summary(&traces));
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
    // The mode is named where Kafka had a choice of two (2.8 to 3.9) and where it is KRaft.
    let mode = scenario.config.metadata_mode_in_force();
    let mode = if v.has_kraft() { format!(" in {} mode", mode.title()) } else { String::new() };
    format!("Kafka {}{mode}{line}: runs as {} ({}){held}\n", v.id(), r.variant().id(), r.changes())
}

pub(crate) fn presets(name: Option<&str>) -> Result<String, String> {
    match name {
        Some(id) => {
            let p = epochlab_core::presets::find(id).ok_or_else(|| {
                let ids: Vec<&str> = PRESETS.iter().map(|p| p.id).collect();
                format!("no preset \"{id}\" (presets: {})", ids.join(", "))
            })?;
            Ok(p.scenario().to_json() + "\n")
        }
        None => {
            let mut out = String::new();
            for p in &PRESETS {
                let s = p.scenario();
                out.push_str(&format!("{:<28} {}\n", p.id, s.name));
                out.push_str(&grid::wrap(&s.description, 76, "    "));
                let verdicts: Vec<String> = Variant::ALL
                    .iter()
                    .map(|v| {
                        let e = p.expected(*v);
                        let word = if e.bugs.is_empty() { "ok".to_string() } else { InvariantId::join(e.bugs, "+") };
                        format!("{} {word}", v.id())
                    })
                    .collect();
                out.push_str(&grid::wrap(&format!("expected: {}", verdicts.join(", ")), 76, "    "));
                out.push('\n');
            }
            Ok(out)
        }
    }
}

pub(crate) fn compare(file: &str, variant_ids: &[String]) -> Result<String, String> {
    let scenario = load(file)?;
    let variants = parse_variants(variant_ids)?;
    if variants.len() < 2 {
        return Err("compare needs at least two different --variant values".to_string());
    }
    let cmp = epochlab_core::compare(&scenario, &variants);
    let names: Vec<&str> = variants.iter().map(|v| v.id()).collect();
    let mut out = format!("{}\ncomparing {}\n\n", scenario.name, names.join(", "));
    match cmp.first_difference {
        None => out.push_str("The variants never part ways: every step leaves the same logs, HWs and leadership.\n"),
        Some(step) => {
            let kind = scenario.events.get(step as usize).map_or("?", |e| e.kind().id());
            out.push_str(&format!("They part ways at step {step} ({kind}):\n"));
            for t in &cmp.traces {
                let narration = t.steps.get(step as usize).map_or("", |s| s.narration.as_str());
                out.push_str(&format!("  {:<22}", t.variant.id()));
                out.push_str(grid::wrap(narration, 70, &" ".repeat(24)).trim_start());
            }
        }
    }
    out.push('\n');
    for (t, first_bug) in cmp.traces.iter().zip(&cmp.first_bug) {
        let (bugs, _) = verdict_of(t);
        let line = match first_bug {
            Some(step) => format!("first fails at step {step}: {}", InvariantId::join(&bugs, ", ")),
            None => "no invariant fails (beyond what Kafka allows)".to_string(),
        };
        out.push_str(&format!("  {:<22}{line}\n", t.variant.id()));
    }
    out.push('\n');
    let at = cmp.first_difference.map(|s| s as usize);
    for t in &cmp.traces {
        out.push_str(&grid::run_block(t, at, false));
        out.push('\n');
    }
    Ok(out)
}

/// `#s=<payload>`, after `base` (up to any `#` it has) when one is given.
pub(crate) fn link(
    file: &str,
    base: Option<&str>,
    variant_ids: &[String],
    step: Option<u32>,
) -> Result<String, String> {
    let scenario = load(file)?;
    let variants = if variant_ids.is_empty() { vec![scenario.config.variant] } else { parse_variants(variant_ids)? };
    if variants.len() > MAX_VARIANTS {
        return Err(format!("a link shows at most {MAX_VARIANTS} variants side by side, {} given", variants.len()));
    }
    if let Some(step) = step {
        if step as usize >= scenario.events.len() {
            return Err(format!(
                "--step {step}: the scenario has {} steps (0 to {})",
                scenario.events.len(),
                scenario.events.len().saturating_sub(1)
            ));
        }
    }
    let fragment = share::fragment(&ShareState { scenario, variants, cursor: step });
    if fragment.len() - "s=".len() > MAX_PAYLOAD {
        return Err(format!(
            "the scenario is too large for a link ({} characters, the limit is {MAX_PAYLOAD})",
            fragment.len() - 2
        ));
    }
    let base = base.map_or("", |b| b.split_once('#').map_or(b, |(before, _)| before));
    Ok(format!("{base}#{fragment}\n"))
}

/// `epochlab fmt`: the scenario in canonical text (or JSON with `--to json`).
pub(crate) fn fmt(file: &str, to: &str) -> Result<String, String> {
    if !matches!(to, "text" | "json") {
        return Err(format!("--to {to}: expected text or json"));
    }
    let scenario = load(file)?;
    Ok(if to == "text" { epochlab_core::scenario::text::to_text(&scenario) } else { scenario.to_json() + "\n" })
}
