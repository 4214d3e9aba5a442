//! `epochlab shrink`: the 1-minimal scenario that still breaks the invariant, and why each event is needed.

use epochlab_core::checker::shrink;
use epochlab_core::invariants::InvariantId;
use epochlab_core::Variant;
use serde_json::json;

use crate::{commands, grid};

pub(crate) fn run(file: &str, variant: Option<&str>, invariant: Option<&str>, as_json: bool) -> Result<String, String> {
    let scenario = commands::load(file)?;
    let variant = match variant {
        Some(id) => Variant::from_id(id)
            .ok_or_else(|| format!("unknown variant \"{id}\" (expected one of {})", Variant::id_list()))?,
        None => scenario.config.variant,
    };
    let invariant = invariant
        .map(|id| InvariantId::from_id(id).ok_or_else(|| format!("unknown invariant \"{id}\"")))
        .transpose()?;
    let shrunk = shrink(&scenario, variant, invariant).map_err(|e| format!("{file}: {e}"))?;
    if as_json {
        let minimal: serde_json::Value = serde_json::from_str(&shrunk.scenario.to_json()).unwrap_or_default();
        let passes_now: Vec<&str> = shrunk.passes_now.iter().map(|v| v.id()).collect();
        let out = json!({"scenario": minimal, "invariant": shrunk.invariant.id(), "reasons": shrunk.reasons,
            "variant": variant.id(), "passes_now": passes_now});
        return Ok(serde_json::to_string_pretty(&out).unwrap_or_default() + "\n");
    }
    let mut out = format!(
        "{} breaks {} under {} in {} of its {} events:\n",
        scenario.name,
        shrunk.invariant.id(),
        variant.id(),
        shrunk.scenario.events.len(),
        scenario.events.len()
    );
    for reason in &shrunk.reasons {
        let lines = grid::wrap(reason, 94, "    ");
        out.push_str(&format!("  - {}", lines.trim_start()));
    }
    if let Some(caveat) = shrunk.caveat(variant) {
        out.push_str(&grid::wrap(&caveat, 96, ""));
    }
    out.push('\n');
    out.push_str(&grid::run_block(&epochlab_core::run_variant(&shrunk.scenario, variant), None, true));
    Ok(out)
}
