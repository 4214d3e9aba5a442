//! The message-sequence diagram as SVG text, over the core's [`Diagram`]: one line per message (per variant
//! where the variants differ), folded runs of idle fetches, the cursor's step highlighted and later ones
//! faded. Built as a string (one DOM insertion, and far less wasm than markup macros); the page listens for
//! clicks on the whole drawing and finds the line by its `data-step` or `data-run`. Pure, tested natively;
//! the same text, with its own colours, is the downloadable picture.

use std::fmt::Write;

use epochlab_core::messages::{Message, MessageKind, Party};
use epochlab_core::sequence::{Diagram, Item, Row, Run};

use crate::formats::export::xml_escape;

/// One line's height.
const ROW_H: i32 = 30;

/// Horizontal sizes, in pixels.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Geometry {
    /// Left margin for the step number and the difference mark.
    pub gutter: i32,
    /// One lane's width.
    pub lane_w: i32,
    /// Room on the right for the last lane's labels.
    pub right: i32,
}

/// A desktop's, and the picture's.
pub const WIDE: Geometry = Geometry { gutter: 64, lane_w: 124, right: 150 };
/// A phone's: the brokers' lanes fit on the screen.
pub const COMPACT: Geometry = Geometry { gutter: 40, lane_w: 76, right: 100 };

impl Geometry {
    /// The drawing's width for this many lanes.
    pub fn width(self, lanes: usize) -> i32 {
        self.gutter + lanes as i32 * self.lane_w + self.right
    }

    fn x(self, lane: usize) -> i32 {
        self.gutter + lane as i32 * self.lane_w + self.lane_w / 2
    }
}

/// The width and height in pixels of a diagram of `lines` lines.
fn size(d: &Diagram, lines: usize, g: Geometry, standalone: bool) -> (i32, i32) {
    let top = if standalone { ROW_H } else { 0 };
    (g.width(d.lanes.len()), top + lines as i32 * ROW_H + 8)
}

/// The width and height in pixels of [`svg`]'s drawing.
pub fn drawn_size(d: &Diagram, open: &[usize], g: Geometry, standalone: bool) -> (u32, u32) {
    let (w, h) = size(d, lines(d, open).len(), g, standalone);
    (w.max(0) as u32, h.max(0) as u32)
}

/// One drawn line.
enum Line<'a> {
    /// A message (`variant`: the shown variant it belongs to, when the variants differ here).
    Message { message: &'a Message, variant: Option<usize>, first_of_step: bool },
    /// A folded run's header (`open`: its rows follow).
    Run { item: usize, run: &'a Run, open: bool },
}

/// The lines, runs folded unless opened.
fn lines<'a>(d: &'a Diagram, open: &[usize]) -> Vec<Line<'a>> {
    let mut out = Vec::new();
    let mut last_step = None;
    let mut push_row = |row: &'a Row, out: &mut Vec<Line<'a>>| {
        for (v, m) in row.shown.iter().enumerate() {
            let Some(message) = m else { continue };
            let first_of_step = last_step != Some(row.step);
            last_step = Some(row.step);
            out.push(Line::Message { message, variant: row.differs.then_some(v), first_of_step });
            if !row.differs {
                break;
            }
        }
    };
    for (item, it) in d.items.iter().enumerate() {
        match it {
            Item::Row(row) => push_row(row, &mut out),
            Item::Run(run) => {
                let is_open = open.contains(&item);
                out.push(Line::Run { item, run, open: is_open });
                if is_open {
                    run.rows.iter().for_each(|r| push_row(r, &mut out));
                }
            }
        }
    }
    out
}

fn lane_x(g: Geometry, d: &Diagram, party: Party) -> i32 {
    g.x(d.lane(party))
}

/// "current" at the cursor's step, "later" after it (before the first step, every step is later).
fn when(first: u32, last: u32, cursor: Option<usize>) -> &'static str {
    match cursor {
        Some(c) if (first as usize..=last as usize).contains(&c) => " seq__line--current",
        Some(c) if (last as usize) < c => "",
        _ => " seq__line--later",
    }
}

/// The arrow (or mark) of a message, its label above it.
fn shape(out: &mut String, g: Geometry, d: &Diagram, m: &Message, y: i32, label: &str) {
    let (x1, x2) = (lane_x(g, d, m.from), lane_x(g, d, m.to));
    let label = xml_escape(label);
    if m.kind == MessageKind::Local {
        let _ = write!(
            out,
            r#"<rect class="seq__mark" x="{}" y="{}" width="10" height="10"/><text class="seq__label" x="{}" y="{}">{label}</text>"#,
            x1 - 5,
            y + 15,
            x1 + 10,
            y + 24
        );
        return;
    }
    let dir = if x2 >= x1 { 1 } else { -1 };
    let end = if m.lost { (x1 + x2) / 2 } else { x2 - dir * 6 };
    let ay = y + 21;
    let held = if m.held { " seq__arrow--held" } else { "" };
    let _ = write!(out, r#"<line class="seq__arrow{held}" x1="{x1}" y1="{ay}" x2="{end}" y2="{ay}"/>"#);
    if m.lost {
        let _ = write!(out, r#"<text class="seq__cross" x="{end}" y="{}" text-anchor="middle">✕</text>"#, ay + 5);
    } else {
        let back = end - dir * 8;
        let _ = write!(out, r#"<polygon class="seq__tip" points="{end},{ay} {back},{} {back},{}"/>"#, ay - 4, ay + 4);
    }
    let _ = write!(
        out,
        r#"<text class="seq__label" x="{}" y="{}" text-anchor="middle">{label}</text>"#,
        (x1 + x2) / 2,
        y + 14
    );
}

/// The start of a line's group: a button with its words, and a transparent target the width of the line.
/// What it draws is hidden from screen readers (its name says it all), so that the name is the whole of
/// what they and a speech user have to match. [`close_group`] ends it.
fn open_group(out: &mut String, class: &str, data: &str, describe: &str, y: i32, width: i32) {
    let describe = xml_escape(describe);
    let _ = write!(
        out,
        r#"<g class="seq__line{class}" {data} role="button" tabindex="0" aria-label="{describe}"><title>{describe}</title><rect class="seq__hit" x="0" y="{y}" width="{width}" height="{ROW_H}"/><g aria-hidden="true">"#
    );
}

fn close_group(out: &mut String) {
    out.push_str("</g></g>");
}

fn message_line(out: &mut String, g: Geometry, d: &Diagram, line: &Line, y: i32, cursor: Option<usize>) {
    let width = g.width(d.lanes.len());
    let Line::Message { message: m, variant, first_of_step } = line else { return };
    let tag = variant.and_then(|v| d.variants.get(v)).map(|v| v.id());
    let label = tag.map_or_else(|| m.label.clone(), |t| format!("{t}: {}", m.label));
    // The name holds the line's visible words (WCAG 2.5.3), then where it goes.
    let describe = match tag {
        Some(_) => format!("{label} (the variants differ here); {}", d.describe(m)),
        None => d.describe(m),
    };
    let mut class = when(m.step, m.step, cursor).to_string();
    if let Some(v) = variant {
        let _ = write!(class, " seq__line--differs seq__line--v{v}");
    }
    let testid = if variant.is_some() { "seq-differs" } else { "seq-line" };
    // The step's number is the gutter's, outside the line's button.
    if *first_of_step {
        let _ = write!(out, r#"<text class="seq__step" x="6" y="{}">{}</text>"#, y + 20, m.step);
    }
    open_group(out, &class, &format!(r#"data-testid="{testid}" data-step="{}""#, m.step), &describe, y, width);
    if variant.is_some() {
        let _ = write!(out, r#"<text class="seq__differs" x="{}" y="{}">≠</text>"#, g.gutter - 22, y + 20);
    }
    shape(out, g, d, m, y, &label);
    close_group(out);
}

fn run_line(out: &mut String, g: Geometry, line: &Line, y: i32, width: i32, cursor: Option<usize>) {
    let Line::Run { item, run, open } = line else { return };
    let (first, last) = (run.first_step(), run.last_step());
    let state = if *open { "fold" } else { "show each" };
    let describe = format!("{} — {state} (steps {first} to {last}, {} round trips)", run.label, run.rounds);
    let class = format!(" seq__run{}", when(first, last, cursor));
    let data = format!(r#"data-testid="seq-run" data-run="{item}" data-open="{open}" aria-expanded="{open}""#);
    let steps = if first == last { first.to_string() } else { format!("{first}–{last}") };
    let _ = write!(out, r#"<text class="seq__step" x="6" y="{}">{steps}</text>"#, y + 20);
    open_group(out, &class, &data, &describe, y, width);
    let _ = write!(
        out,
        r#"<rect class="seq__band" x="{}" y="{}" width="{}" height="{}" rx="4"/><text class="seq__label seq__label--run" x="{}" y="{}">{} {} — {state}</text>"#,
        g.gutter + 4,
        y + 4,
        width - g.gutter - 8 - g.right,
        ROW_H - 8,
        g.gutter + 12,
        y + 19,
        if *open { "▾" } else { "▸" },
        xml_escape(&run.label),
    );
    close_group(out);
}

/// Colours for the picture outside the page (the page's stylesheet gives its own, in both schemes).
const STANDALONE_STYLE: &str = "<style>text{font:11px system-ui,sans-serif;fill:#1d1d1f}.seq__lifeline{stroke:#d9d6cf;stroke-width:2}\
.seq__hit{fill:transparent}.seq__current{fill:#fff4d1}.seq__line--later{opacity:.38}.seq__arrow{stroke:#1d1d1f;stroke-width:1.5}\
.seq__arrow--held{stroke-dasharray:5 4;stroke:#5f6368}.seq__tip{fill:#1d1d1f}text.seq__cross,text.seq__differs{fill:#b3261e;font-weight:700}\
.seq__mark{fill:#0b5cad}text.seq__step{fill:#5f6368}.seq__band{fill:#f3f1ec;stroke:#d9d6cf;stroke-dasharray:3 3}\
.seq__line--v0 .seq__arrow{stroke:#0072b2}.seq__line--v0 .seq__tip{fill:#0072b2}.seq__line--v1 .seq__arrow{stroke:#d55e00}\
.seq__line--v1 .seq__tip{fill:#d55e00}.seq__line--v2 .seq__arrow{stroke:#009e73}.seq__line--v2 .seq__tip{fill:#009e73}\
.seq__line--v3 .seq__arrow{stroke:#cc79a7}.seq__line--v3 .seq__tip{fill:#cc79a7}text.seq__head{font-weight:700}</style>";

/// The drawing. `standalone`: a file of its own, with its colours and the lane names on top (the page
/// shows the names in a header that stays visible while scrolling).
pub fn svg(d: &Diagram, open: &[usize], cursor: Option<usize>, g: Geometry, standalone: bool) -> String {
    let lines = lines(d, open);
    let (width, height) = size(d, lines.len(), g, standalone);
    let top = if standalone { ROW_H } else { 0 };
    let mut out = String::with_capacity(256 + lines.len() * 400);
    let xmlns = if standalone { r#" xmlns="http://www.w3.org/2000/svg""# } else { "" };
    let _ = write!(
        out,
        r#"<svg{xmlns} class="seq__svg" width="{width}" height="{height}" viewBox="0 0 {width} {height}" role="group" aria-label="Messages, one button per line">"#
    );
    if standalone {
        out.push_str(STANDALONE_STYLE);
        for (i, lane) in d.lanes.iter().enumerate() {
            let x = g.x(i);
            let _ = write!(
                out,
                r#"<text class="seq__head" x="{x}" y="20" text-anchor="middle">{}</text>"#,
                xml_escape(&lane.name)
            );
        }
    }
    // Backgrounds of the cursor's lines, then the lifelines, then the lines: the lifelines show through.
    for (i, line) in lines.iter().enumerate() {
        let current = match line {
            Line::Message { message, .. } => when(message.step, message.step, cursor),
            Line::Run { run, .. } => when(run.first_step(), run.last_step(), cursor),
        };
        if current == " seq__line--current" {
            let _ = write!(
                out,
                r#"<rect class="seq__current" x="0" y="{}" width="{width}" height="{ROW_H}"/>"#,
                top + i as i32 * ROW_H + 4
            );
        }
    }
    for i in 0..d.lanes.len() {
        let x = g.x(i);
        let _ = write!(out, r#"<line class="seq__lifeline" x1="{x}" y1="{top}" x2="{x}" y2="{height}"/>"#);
    }
    for (i, line) in lines.iter().enumerate() {
        let y = top + i as i32 * ROW_H + 4;
        match line {
            Line::Message { .. } => message_line(&mut out, g, d, line, y, cursor),
            Line::Run { .. } => run_line(&mut out, g, line, y, width, cursor),
        }
    }
    out.push_str("</svg>");
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use epochlab_core::presets::find;
    use epochlab_core::sequence::diagram;
    use epochlab_core::{run_variant, Variant};

    fn fast_failover() -> Diagram {
        let s = find("kafka-6361-fast-failover").expect("preset").scenario();
        diagram(&s, &[run_variant(&s, Variant::Kip101), run_variant(&s, Variant::Kip279)])
    }

    #[test]
    fn the_differing_answer_is_drawn_once_per_variant_and_marked() {
        let svg = svg(&fast_failover(), &[], Some(3), WIDE, false);
        assert!(svg.contains("kip-101: offset 2") && svg.contains("kip-279: epoch 0 ends at 2"));
        assert!(svg.matches(r#"data-testid="seq-differs""#).count() >= 2);
        assert!(svg.contains("≠"));
        // Step 3 is the cursor's, step 10 later.
        assert!(svg.contains(r#"seq__line seq__line--current" data-testid="seq-line" data-step="3""#), "{svg}");
        assert!(svg.contains(
            r#"seq__line seq__line--later seq__line--differs seq__line--v0" data-testid="seq-differs" data-step="10""#
        ));
    }

    #[test]
    fn a_folded_run_opens_into_its_lines() {
        let d = fast_failover();
        let run = d.items.iter().position(|i| matches!(i, Item::Run(_))).expect("a run");
        let folded = svg(&d, &[], None, WIDE, false);
        let opened = svg(&d, &[run], None, WIDE, false);
        assert!(folded.contains(r#"data-open="false""#) && folded.contains("Fetch ×2, no new records"));
        assert!(opened.contains(r#"data-open="true""#));
        let drawn = |svg: &str| svg.matches(">Fetch at 3</text>").count();
        assert_eq!((drawn(&folded), drawn(&opened)), (0, 2));
    }

    #[test]
    fn labels_are_escaped_and_the_file_has_its_own_colours_and_lane_names() {
        let mut s = find("happy-path").expect("preset").scenario();
        s.events.insert(
            1,
            epochlab_core::scenario::Event::Produce {
                record: Some("<b>&".into()),
                acks: Default::default(),
                broker: None,
            },
        );
        let d = diagram(&s, &[run_variant(&s, Variant::Kip279)]);
        let file = svg(&d, &[], None, WIDE, true);
        assert!(file.contains("Produce &lt;b&gt;&amp;") && !file.contains("<b>&"));
        assert!(file.starts_with(r#"<svg xmlns="http://www.w3.org/2000/svg""#) && file.contains("<style>"));
        assert!(file.contains(">producer</text>") && file.contains(">consumer</text>"));
    }
}
