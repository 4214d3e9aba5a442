//! A lesson's story under several Kafka releases, side by side (`epochlab_core::lesson::release_columns`):
//! one column per release, a row for the leader, one per broker's log, and one for the committed records
//! lost. The page shows one release at a time; this table is the comparison.

use epochlab_core::lesson::{release_columns, ReleaseColumn};
use epochlab_core::scenario::Scenario;
use epochlab_core::variant::KafkaVersion;
use yew::prelude::*;

/// The story and the releases to run it as.
#[derive(Properties, PartialEq)]
pub struct ReleaseTableProps {
    pub scenario: Scenario,
    pub releases: Vec<KafkaVersion>,
}

/// The table, its runs made once per story and releases, not at every render.
#[function_component(ReleaseTable)]
pub fn release_table_component(props: &ReleaseTableProps) -> Html {
    let columns = use_memo((props.scenario.clone(), props.releases.clone()), |(s, r)| release_columns(s, r));
    release_table(&columns)
}

fn records(log: &[String]) -> String {
    if log.is_empty() {
        "empty".to_string()
    } else {
        log.join(", ")
    }
}

fn lost_words(c: &ReleaseColumn) -> String {
    if c.lost.is_empty() {
        return "none".to_string();
    }
    let each =
        c.lost.iter().map(|(r, allowed)| if *allowed { format!("{r} (allowed)") } else { format!("{r} (a bug)") });
    each.collect::<Vec<_>>().join(", ")
}

/// One row: its header, and a cell per release.
fn row(header: &str, testid: &str, columns: &[ReleaseColumn], cell: impl Fn(&ReleaseColumn) -> String) -> Html {
    let cells = columns.iter().map(|c| {
        html! { <td data-testid={format!("release-{}-{testid}", c.release.id())}>{ cell(c) }</td> }
    });
    html! { <tr><th scope="row">{ header }</th>{ for cells }</tr> }
}

/// The table of columns already run.
fn release_table(columns: &[ReleaseColumn]) -> Html {
    let brokers: Vec<String> =
        columns.first().map(|c| c.logs.iter().map(|(b, _)| b.clone()).collect()).unwrap_or_default();
    let log_rows = brokers
        .iter()
        .enumerate()
        .map(|(i, b)| row(&format!("{b}'s log"), &format!("log-{b}"), columns, |c| records(&c.logs[i].1)));
    html! {
        <table class="release-compare" data-testid="release-compare">
            <caption>{ "The same events under each release, at the end" }</caption>
            <thead><tr><td></td>{ for columns.iter().map(|c| html! { <th scope="col">{ format!("Kafka {}", c.release.id()) }</th> }) }</tr></thead>
            <tbody>
                { row("Leader", "leader", columns, |c| c.leader.clone().unwrap_or_else(|| "none (offline)".to_string())) }
                { for log_rows }
                { row("Committed records lost", "lost", columns, lost_words) }
            </tbody>
        </table>
    }
}
