//! Pictures and files: the current view as a standalone SVG (legible in a blog post at 720 px wide) that also
//! carries the scenario in its metadata, so that dropping the SVG back onto Epochlab restores it.
//!
//! Pure string building over the core's view model, tested natively. The PNG is the same SVG rasterised by
//! the browser (see `app`).

use epochlab_core::presets::verdict_of;
use epochlab_core::verdict::{held_by_refusal, verdict_text};
use epochlab_core::view::{Cell, CellStatus, StepView};
use epochlab_core::{Scenario, Trace, Variant};

/// The SVG's width in CSS pixels: a blog column.
pub const WIDTH: u32 = 720;
const MARGIN: u32 = 16;
const LABEL_W: u32 = 120;
const ROW_H: u32 = 50;
const EPOCH_COLOURS: [&str; 8] =
    ["#e69f00", "#56b4e9", "#009e73", "#f0e442", "#0072b2", "#d55e00", "#cc79a7", "#999999"];
/// The id of the metadata element that holds the scenario.
pub const METADATA_ID: &str = "epochlab-scenario";

/// Escape text for XML content and attributes.
pub fn xml_escape(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    escape_into(&mut out, text);
    out
}

/// [`xml_escape`] appended to `out`: one pass, no copy of text that needs no escaping (most labels).
pub fn escape_into(out: &mut String, text: &str) {
    let mut rest = text;
    while let Some(at) = rest.find(['&', '<', '>', '"']) {
        out.push_str(&rest[..at]);
        out.push_str(match rest.as_bytes()[at] {
            b'&' => "&amp;",
            b'<' => "&lt;",
            b'>' => "&gt;",
            _ => "&quot;",
        });
        rest = &rest[at + 1..];
    }
    out.push_str(rest);
}

fn xml_unescape(text: &str) -> String {
    text.replace("&lt;", "<").replace("&gt;", ">").replace("&quot;", "\"").replace("&amp;", "&")
}

fn cell_svg(out: &mut String, c: &Cell, x: u32, y: u32, w: u32) {
    let shown = c.record.as_ref().or(c.lost.as_ref()).or(c.ghost.as_ref().map(|g| &g.record));
    let Some(r) = shown else {
        out.push_str(&format!(
            r##"<rect x="{x}" y="{y}" width="{w}" height="26" rx="4" fill="none" stroke="#d9d6cf" stroke-dasharray="2 3"/>"##
        ));
        return;
    };
    let colour = EPOCH_COLOURS[r.epoch.rem_euclid(8) as usize];
    // Stroke widths as text: formatting floats would pull float printing into the wasm.
    let (fill, stroke, dash, width, text_colour) = match c.status {
        CellStatus::Committed => (colour, "#333", "", "1.5", "#111"),
        CellStatus::Uncommitted => (colour, "#5f6368", "4 3", "1.5", "#111"),
        CellStatus::Divergent => (colour, "#b3261e", "", "3.5", "#111"),
        CellStatus::Differs => (colour, "#7a5b00", "6 2", "2.5", "#111"),
        CellStatus::Truncated => ("none", "#5f6368", "4 3", "1.5", "#5f6368"),
        CellStatus::Lost => ("#fde7e5", "#b3261e", "", "2", "#b3261e"),
        CellStatus::LostAllowed => ("#fff4d1", "#7a5b00", "4 2", "2", "#7a5b00"),
        CellStatus::Empty => ("none", "#d9d6cf", "2 3", "1", "#111"),
    };
    let opacity = if c.status == CellStatus::Uncommitted { r#" fill-opacity="0.45""# } else { "" };
    let dash = if dash.is_empty() { String::new() } else { format!(r#" stroke-dasharray="{dash}""#) };
    out.push_str(&format!(
        r#"<rect x="{x}" y="{y}" width="{w}" height="26" rx="4" fill="{fill}"{opacity} stroke="{stroke}" stroke-width="{width}"{dash}/>"#
    ));
    let strike = if matches!(c.status, CellStatus::Truncated | CellStatus::Lost | CellStatus::LostAllowed) {
        r#" text-decoration="line-through""#
    } else {
        ""
    };
    out.push_str(&format!(
        r#"<text x="{}" y="{}" text-anchor="middle" font-size="12" font-weight="600" fill="{text_colour}"{strike}>{}<tspan font-size="8" font-weight="400" dx="2">{}</tspan></text>"#,
        x + w / 2,
        y + 17,
        xml_escape(&r.label),
        r.epoch
    ));
}

/// One variant's block: a title with the verdict, then a row per broker. Returns its height.
fn variant_svg(out: &mut String, scenario: &Scenario, trace: &Trace, view: &StepView, top: u32) -> u32 {
    let (bugs, _) = verdict_of(trace);
    let held = held_by_refusal(scenario, trace);
    // Held only by a refused write: the verdict says so in place of the variant's title (the width is fixed).
    let (title, verdict) = match &held {
        Some(h) => (String::new(), format!("holds only because {}", h.refused())),
        None => (trace.variant.title().to_string(), verdict_text(&bugs, None)),
    };
    let verdict_colour = if bugs.is_empty() { "#1b6e3a" } else { "#b3261e" };
    out.push_str(&format!(
        r##"<text x="{MARGIN}" y="{}" font-size="15" font-weight="700">{} <tspan font-weight="400" fill="#5f6368">{}</tspan> <tspan fill="{verdict_colour}" font-weight="600">· {}</tspan></text>"##,
        top + 16,
        xml_escape(trace.variant.id()),
        xml_escape(&title),
        xml_escape(&verdict)
    ));
    let cols = view.width.max(1);
    let cell_w = ((WIDTH - 2 * MARGIN - LABEL_W) / cols).clamp(18, 56);
    let grid_top = top + 30;
    for o in 0..view.width {
        out.push_str(&format!(
            r##"<text x="{}" y="{}" text-anchor="middle" font-size="10" fill="#5f6368">{o}</text>"##,
            MARGIN + LABEL_W + o * cell_w + cell_w / 2,
            grid_top
        ));
    }
    for (i, b) in view.brokers.iter().enumerate() {
        let y = grid_top + 18 + i as u32 * ROW_H;
        out.push_str(&format!(
            r##"<text x="{MARGIN}" y="{}" font-size="13" font-weight="700">{}</text><text x="{}" y="{}" font-size="11" fill="#5f6368">{}{}</text>"##,
            y + 17,
            xml_escape(&b.name),
            MARGIN + 22,
            y + 17,
            b.role.words(b.stale_leader),
            match (b.in_isr, b.in_elr) {
                (true, _) => " · ISR",
                (false, true) => " · ELR",
                (false, false) => "",
            }
        ));
        for c in &b.cells {
            cell_svg(out, c, MARGIN + LABEL_W + c.offset * cell_w + 2, y, cell_w - 4);
        }
        let marker_x = |at: u32| MARGIN + LABEL_W + at * cell_w;
        let (hx, lx) = (marker_x(b.hw), marker_x(b.leo));
        out.push_str(&format!(
            r##"<line x1="{hx}" y1="{}" x2="{hx}" y2="{}" stroke="#0b5cad" stroke-width="3"/><text x="{}" y="{}" font-size="9" fill="#0b5cad" font-weight="700">HW {}</text>"##,
            y - 3,
            y + 29,
            hx + 3,
            y - 1,
            b.hw
        ));
        out.push_str(&format!(
            r##"<line x1="{lx}" y1="{}" x2="{lx}" y2="{}" stroke="#5f6368" stroke-width="1"/><text x="{}" y="{}" font-size="9" fill="#5f6368">LEO {}</text>"##,
            y + 26,
            y + 34,
            lx + 3,
            y + 35,
            b.leo
        ));
    }
    30 + 18 + view.brokers.len() as u32 * ROW_H
}

/// A picture drawn under the view (the message diagram), a standalone SVG of its size in pixels.
pub struct Below<'a> {
    pub svg: &'a str,
    pub width: u32,
    pub height: u32,
}

/// The whole picture: title, one block per variant, the step's narration, optionally a picture below them,
/// and the scenario in metadata. `share_json` is what the metadata carries (the scenario, variants and cursor
/// as JSON). Returns the SVG and its width and height in pixels (at least [`WIDTH`] wide).
pub fn svg(
    scenario: &Scenario,
    traces: &[Trace],
    views: &[StepView],
    step: Option<usize>,
    share_json: &str,
    below: Option<Below>,
) -> (String, u32, u32) {
    let mut body = String::new();
    let mut y = MARGIN;
    let when = match step {
        Some(i) => format!("after step {i} ({})", scenario.events.get(i).map_or("?", |e| e.kind().id())),
        None => "before the first event".to_string(),
    };
    body.push_str(&format!(
        r##"<text x="{MARGIN}" y="{}" font-size="17" font-weight="700">{}</text><text x="{MARGIN}" y="{}" font-size="12" fill="#5f6368">{}</text>"##,
        y + 16,
        xml_escape(&scenario.name),
        y + 34,
        xml_escape(&when)
    ));
    y += 46;
    for (trace, view) in traces.iter().zip(views) {
        y += variant_svg(&mut body, scenario, trace, view, y);
        if let Some(narration) = step.and_then(|i| trace.steps.get(i)).map(|s| s.narration.as_str()) {
            for line in epochlab_core::text::wrap(narration, 100) {
                body.push_str(&format!(
                    r#"<text x="{MARGIN}" y="{}" font-size="11.5">{}</text>"#,
                    y + 12,
                    xml_escape(&line)
                ));
                y += 15;
            }
        }
        y += 14;
    }
    let mut width = WIDTH;
    if let Some(below) = below {
        // A nested <svg> keeps the diagram's own coordinates and styles.
        body.push_str(&format!(r#"<g transform="translate({MARGIN} {y})">{}</g>"#, below.svg));
        y += below.height + 14;
        width = width.max(below.width + 2 * MARGIN);
    }
    body.push_str(&format!(
        r##"<text x="{MARGIN}" y="{}" font-size="10" fill="#5f6368">Made with Epochlab · drop this picture on Epochlab to open the scenario</text>"##,
        y + 6
    ));
    let height = y + MARGIN;
    let svg = format!(
        r##"<svg xmlns="http://www.w3.org/2000/svg" width="{width}" height="{height}" viewBox="0 0 {width} {height}" font-family="system-ui, -apple-system, 'Segoe UI', Roboto, Arial, sans-serif"><title>{}</title><metadata id="{METADATA_ID}">{}</metadata><rect width="100%" height="100%" fill="#ffffff"/>{body}</svg>"##,
        xml_escape(&scenario.name),
        xml_escape(share_json)
    );
    (svg, width, height)
}

/// The scenario JSON carried by an Epochlab SVG, if this text is one.
pub fn metadata_of(svg: &str) -> Option<String> {
    let open = format!(r#"<metadata id="{METADATA_ID}">"#);
    let start = svg.find(&open)? + open.len();
    let end = start + svg[start..].find("</metadata>")?;
    Some(xml_unescape(&svg[start..end]))
}

/// Whether a text looks like an SVG document rather than JSON.
pub fn looks_like_svg(text: &str) -> bool {
    let t = text.trim_start();
    t.starts_with("<svg") || t.starts_with("<?xml")
}

/// The file name for an export: the scenario name made safe, plus the extension.
pub fn file_name(scenario: &Scenario, extension: &str) -> String {
    let base: String = scenario
        .name
        .chars()
        .map(|c| if c.is_ascii_alphanumeric() { c.to_ascii_lowercase() } else { '-' })
        .collect::<String>()
        .split('-')
        .filter(|s| !s.is_empty())
        .collect::<Vec<_>>()
        .join("-");
    let base = if base.is_empty() { "epochlab-scenario".to_string() } else { base.chars().take(60).collect() };
    format!("{base}.{extension}")
}

/// Variants as ids, for messages.
pub fn variant_ids(variants: &[Variant]) -> Vec<&'static str> {
    variants.iter().map(|v| v.id()).collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use epochlab_core::view::views;

    fn landing() -> (Scenario, Vec<Trace>) {
        let s = epochlab_core::presets::default_scenario();
        let traces = vec![
            epochlab_core::run_variant(&s, Variant::HwTruncation),
            epochlab_core::run_variant(&s, Variant::Kip279),
        ];
        (s, traces)
    }

    #[test]
    fn escaping_replaces_each_special_character_and_reads_back() {
        let text = r#"a&b <c> "d" && é"#;
        assert_eq!(xml_escape(text), "a&amp;b &lt;c&gt; &quot;d&quot; &amp;&amp; é");
        assert_eq!(xml_unescape(&xml_escape(text)), text);
        assert_eq!(xml_escape("plain"), "plain");
    }

    #[test]
    fn the_svg_draws_every_variant_broker_record_and_the_narration() {
        let (s, traces) = landing();
        let vs = views(&traces, Some(9));
        let (svg, width, height) = svg(&s, &traces, &vs, Some(9), r#"{"scenario": {"name": "a <b> & c"}}"#, None);
        assert_eq!(width, WIDTH);
        assert!(svg.contains(&format!("height=\"{height}\"")));
        assert!(svg.starts_with("<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"720\""));
        assert!(svg.contains(">hw-truncation <tspan"));
        assert!(svg.contains("fails I1, I2, I4, I5"));
        assert!(svg.contains("no invariant fails"));
        assert!(svg.contains(">m2<tspan"));
        assert!(svg.contains("HW 1"));
        assert!(svg.contains("B&apos;s process crashes") || svg.contains("B's process crashes"));
        assert!(svg.ends_with("</svg>"));
        // Well-formed enough: every opened text closes.
        assert_eq!(svg.matches("<text").count(), svg.matches("</text>").count());
    }

    #[test]
    fn a_picture_below_is_nested_under_the_variants_and_widens_the_whole() {
        let (s, traces) = landing();
        let vs = views(&traces, Some(9));
        let (alone, _, height) = svg(&s, &traces, &vs, Some(9), "{}", None);
        let part = r#"<svg xmlns="http://www.w3.org/2000/svg" width="900" height="300"><text>diagram</text></svg>"#;
        let (both, w, h) = svg(&s, &traces, &vs, Some(9), "{}", Some(Below { svg: part, width: 900, height: 300 }));
        assert_eq!((w, h), (900 + 2 * MARGIN, height + 300 + 14));
        assert!(both.starts_with(&format!("<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"{w}\" height=\"{h}\"")));
        let at = both.find("<text>diagram</text>").expect("the part");
        assert!(at > both.find(">kip-279 <tspan").unwrap() && at < both.find("Made with Epochlab").unwrap());
        assert!(alone.len() < both.len());
    }

    #[test]
    fn the_metadata_round_trips_the_scenario_json_even_with_markup_in_it() {
        let (s, traces) = landing();
        let vs = views(&traces, Some(9));
        let json = r#"{"scenario": {"name": "a <b> & \"c\" </metadata>"}}"#;
        let (svg, ..) = svg(&s, &traces, &vs, Some(9), json, None);
        assert_eq!(metadata_of(&svg).as_deref(), Some(json));
        assert!(looks_like_svg(&svg));
        assert!(!looks_like_svg("  {\"version\": 1}"));
        assert_eq!(metadata_of("<svg></svg>"), None);
    }

    #[test]
    fn file_names_are_safe() {
        let (s, _) = landing();
        assert_eq!(file_name(&s, "svg"), "kip-101-scenario-1-a-committed-record-lost.svg");
        let mut odd = s.clone();
        odd.name = "///".into();
        assert_eq!(file_name(&odd, "json"), "epochlab-scenario.json");
    }
}
