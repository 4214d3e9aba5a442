//! `epochlab conformance [--json]`: the table of conformance cases, each a test of apache/kafka re-expressed
//! as a scenario (`epochlab_core::conformance`), with where it holds, where it fails, and how much of the
//! Kafka test it covers. Plain text aligned in columns, or a JSON array of objects.

use epochlab_core::conformance::{cases, Case};

/// The column titles, in the order of [`row`].
const HEADER: [&str; 5] = ["Kafka test (path@tag#method)", "case", "holds under", "fails under", "coverage"];

/// The table as text, or as JSON.
pub(crate) fn table(json: bool) -> Result<String, String> {
    let all = cases();
    if json {
        return serde_json::to_string_pretty(&all).map(|text| text + "\n").map_err(|e| e.to_string());
    }
    Ok(text(&all))
}

/// One case's cells.
fn row(case: &Case) -> [String; 5] {
    [
        case.citation.to_string(),
        case.test.to_string(),
        case.holds_under.to_string(),
        case.fails_under.to_string(),
        case.coverage(),
    ]
}

/// A summary line, then the header and one line per case, each column as wide as its widest cell (the last
/// one left ragged).
fn text(all: &[Case]) -> String {
    let partial = all.iter().filter(|c| c.part.is_some()).count();
    let mut out = format!(
        "{} conformance cases ({} whole, {partial} partial): each re-expresses a test of apache/kafka and runs again under the release before the rule it pins\n\n",
        all.len(),
        all.len() - partial
    );
    let rows: Vec<[String; 5]> = std::iter::once(HEADER.map(String::from)).chain(all.iter().map(row)).collect();
    let mut widths = [0usize; 5];
    for cells in &rows {
        for (width, cell) in widths.iter_mut().zip(cells) {
            *width = (*width).max(cell.chars().count());
        }
    }
    for cells in &rows {
        let padded: Vec<String> = cells.iter().zip(widths).map(|(cell, w)| format!("{cell:<w$}")).collect();
        out.push_str(padded.join("  ").trim_end());
        out.push('\n');
    }
    out
}
