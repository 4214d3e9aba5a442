//! The Kafka release: chosen instead of a variant (each release runs its variant, with what changed in it
//! and the KIPs and JIRAs that changed it, from `epochlab_core::release`), and the bisect strip, which runs
//! the scenario under every release and shows where the outcome changes and why.

use std::fmt::Write;
use std::rc::Rc;

use epochlab_core::invariants::InvariantId;
use epochlab_core::release::{bisect, describe_bisection, KafkaRelease, ReleaseOutcome};
use epochlab_core::scenario::Config;
use epochlab_core::variant::{KafkaVersion, MetadataMode, ProtocolVersion};
use web_sys::HtmlSelectElement;
use yew::prelude::*;

use crate::browser::web;
use crate::components::LessonsProps;
use crate::formats::export::xml_escape;
use crate::model::learn::LessonsModel;
use crate::model::{Action, ConfigAction};

/// `on`, `off`, or anything else for "the release's default".
pub(super) fn setting(value: &str) -> Option<bool> {
    match value {
        "on" => Some(true),
        "off" => Some(false),
        _ => None,
    }
}

/// The three choices of a release setting, the default named with what it is.
pub(super) fn setting_options(chosen: Option<bool>, default: String) -> Html {
    html! {
        <>
            <option value="" selected={chosen.is_none()}>{ default }</option>
            <option value="on" selected={chosen == Some(true)}>{ "on" }</option>
            <option value="off" selected={chosen == Some(false)}>{ "off" }</option>
        </>
    }
}

/// The release picker (every minor release, grouped by the line whose behaviour it ships), what the chosen
/// release changed, its settings, and the bisect strip.
pub fn release_group(m: &Rc<LessonsModel>, d: &Callback<Action>) -> Html {
    let chosen = m.shown.scenario.config.kafka_version;
    let onchange = d.reform(|e: Event| {
        Action::Config(ConfigAction::SetKafkaRelease(
            KafkaVersion::parse(&e.target_unchecked_into::<HtmlSelectElement>().value()).ok(),
        ))
    });
    let groups = KafkaRelease::ALL.iter().map(|line| {
        let options = KafkaVersion::all().filter(|v| v.line() == *line).map(|v| {
            html! { <option value={v.id()} selected={chosen.is_some_and(|c| c.line() == *line && same_minor(c, v))}>{ v.option_label() }</option> }
        });
        html! { <optgroup label={format!("{} ({})", line.label(), line.variant().id())}>{ for options }</optgroup> }
    });
    html! {
        <fieldset class="config__group">
            <legend>{ "Kafka release (instead of a variant)" }</legend>
            <label class="config__field">{ "Release " }
                <select {onchange} data-testid="kafka-release">
                    <option value="" selected={chosen.is_none()}>{ "none: choose variants" }</option>
                    { for groups }
                </select>
            </label>
            <p class="config__about" data-testid="kafka-release-about">{ about(&m.shown.scenario.config) }</p>
            { chosen.map(|v| release_settings(m, d, v)).unwrap_or_default() }
            <BisectStrip model={m.clone()} dispatch={d.clone()} />
        </fieldset>
    }
}

/// The picker's option for a release written with a patch (`4.0.1`) is its minor release's (`4.0`).
fn same_minor(chosen: KafkaVersion, option: KafkaVersion) -> bool {
    chosen == option || (option.id() != "2.8.0" && chosen.id().starts_with(&format!("{}.", option.id())))
}

/// What the chosen release runs and what it changed, in words.
fn about(c: &Config) -> String {
    let Some(v) = c.kafka_version else {
        return "No release chosen: the variants below are shown as they are, with none of a release's controller, HW or consumer rules.".to_string();
    };
    let line = v.line();
    let protocol = c.protocol(v.variant());
    let held = if protocol.generation() == line.variant() {
        String::new()
    } else {
        format!(" With these settings its brokers run the {} rule instead.", protocol.generation().id())
    };
    let mode = if v.has_kraft() { format!(" in {} mode", c.metadata_mode_in_force().title()) } else { String::new() };
    format!(
        "Kafka {}{mode} (the {} line) runs {}: {}. Changed in this line: {}.{held}{}",
        v.id(),
        line.label(),
        line.variant().id(),
        line.variant().title(),
        line.changes(),
        kraft_words(c, v)
    )
}

/// What KRaft's control plane does in this release, where it runs (model §13).
fn kraft_words(c: &Config, v: KafkaVersion) -> &'static str {
    if c.metadata_mode_in_force() != MetadataMode::KRaft {
        return "";
    }
    match (v.at_least("3.6"), v.at_least("3.9")) {
        (false, _) => " KRaft: brokers replay the controller's records; every ISR shrink raises the leader epoch (before 3.6), and the controller never elects uncleanly by itself (before 3.9, KAFKA-12670).",
        (true, false) => " KRaft: brokers replay the controller's records; an ISR change keeps the leader epoch and raises only the partition epoch (KAFKA-15021), and the controller never elects uncleanly by itself (before 3.9, KAFKA-12670).",
        (true, true) => " KRaft: brokers replay the controller's records; an ISR change keeps the leader epoch and raises only the partition epoch (KAFKA-15021).",
    }
}

/// A release's own settings: Eligible Leader Replicas (4.0 and later), the inter-broker protocol and the
/// message format.
fn release_settings(m: &LessonsModel, d: &Callback<Action>, v: KafkaVersion) -> Html {
    let c = &m.shown.scenario.config;
    let (elr_exists, elr_default) = v.line().elr();
    let on_elr = d.reform(|e: Event| {
        Action::Config(ConfigAction::SetElr(setting(&e.target_unchecked_into::<HtmlSelectElement>().value())))
    });
    let elr = elr_exists.then(|| {
        let default = format!("default: {} (Kafka {})", if elr_default { "on" } else { "off" }, v.id());
        html! {
            <label class="config__field">{ "Eligible Leader Replicas (KIP-966) " }
                <select onchange={on_elr} data-testid="config-elr">{ setting_options(c.eligible_leader_replicas, default) }</select>
            </label>
        }
    });
    let on_ibp = d.reform(|e: Event| {
        Action::Config(ConfigAction::SetInterBrokerProtocol(
            ProtocolVersion::parse(&e.target_unchecked_into::<HtmlSelectElement>().value()).ok(),
        ))
    });
    let on_format = d.reform(|e: Event| {
        Action::Config(ConfigAction::SetMessageFormat(
            ProtocolVersion::parse(&e.target_unchecked_into::<HtmlSelectElement>().value()).ok(),
        ))
    });
    if v.line() >= KafkaRelease::V4_0 {
        return html! { <>{ mode_setting(c, d, v) }{ elr.unwrap_or_default() }</> };
    }
    let ibp_ceiling = v.minor_index();
    let format_ceiling = c.inter_broker_protocol_version.map_or(ibp_ceiling, ProtocolVersion::minor_index);
    if c.metadata_mode_in_force() == MetadataMode::KRaft {
        return mode_setting(c, d, v);
    }
    html! {
        <>
            { mode_setting(c, d, v) }
            <label class="config__field">{ "inter.broker.protocol.version " }
                <select onchange={on_ibp} data-testid="config-ibp">{ version_options(c.inter_broker_protocol_version, &IBP_CHOICES, ibp_ceiling) }</select>
            </label>
            <label class="config__field">{ "log.message.format.version " }
                <select onchange={on_format} data-testid="config-format">{ version_options(c.log_message_format_version, &FORMAT_CHOICES, format_ceiling) }</select>
            </label>
        </>
    }
}

/// The metadata mode: a choice where Kafka offered both (2.8 to 3.9), said plainly where it did not.
fn mode_setting(c: &Config, d: &Callback<Action>, v: KafkaVersion) -> Html {
    if !v.has_kraft() || v.line() >= KafkaRelease::V4_0 {
        let only = if v.has_kraft() { "KRaft: 4.0 removed ZooKeeper" } else { "ZooKeeper: KRaft came in 2.8" };
        return html! { <p class="config__about" data-testid="config-metadata-mode-fixed">{ format!("Metadata: {only}.") }</p> };
    }
    let onchange = d.reform(|e: Event| {
        Action::Config(ConfigAction::SetMetadataMode(
            MetadataMode::from_id(&e.target_unchecked_into::<HtmlSelectElement>().value()).ok(),
        ))
    });
    let kraft = if MetadataMode::KRaft.early_access(v) { "KRaft (early access before 3.3)" } else { "KRaft" };
    html! {
        <label class="config__field">{ "Metadata mode " }
            <select {onchange} data-testid="config-metadata-mode">
                <option value="" selected={c.metadata_mode.is_none()}>{ "ZooKeeper (the release's default)" }</option>
                <option value="kraft" selected={c.metadata_mode == Some(MetadataMode::KRaft)}>{ kraft }</option>
            </select>
        </label>
    }
}

/// The inter-broker protocols at which the model's behaviour changes (model §12), and the one above each.
const IBP_CHOICES: [&str; 10] =
    ["0.10.2", "0.11.0-IV1", "0.11.0", "1.1", "2.0", "2.1-IV1", "2.1", "2.7-IV0", "2.7", "3.0"];
/// Message formats: below 0.11 no batch carries an epoch.
const FORMAT_CHOICES: [&str; 2] = ["0.10.2", "0.11.0"];

/// The choices at or below `ceiling` (a minor release's place): Kafka refuses a version above it.
fn version_options(chosen: Option<ProtocolVersion>, choices: &[&str], ceiling: u8) -> Html {
    let allowed =
        choices.iter().filter_map(|id| ProtocolVersion::parse(id).ok()).filter(|v| v.minor_index() <= ceiling);
    let options = allowed.map(|v| {
        html! { <option value={v.id()} selected={chosen == Some(v)}>{ v.id() }</option> }
    });
    html! {
        <>
            <option value="" selected={chosen.is_none()}>{ "the release's own" }</option>
            { for options }
        </>
    }
}

/// The strip as markup: one cell per release (a button that chooses it), a mark where the outcome changes,
/// and what changed there. Text, not markup macros: the page's first download stays smaller.
fn strip_html(outcomes: &[ReleaseOutcome], chosen: Option<KafkaRelease>) -> String {
    let changed = |i: usize| i > 0 && outcomes[i - 1].bugs != outcomes[i].bugs;
    let verdict = |o: &ReleaseOutcome| match o.bugs.is_empty() {
        true => "✓ holds".to_string(),
        false => format!("✕ {}", InvariantId::join(&o.bugs, " ")),
    };
    let mut out = format!(
        r#"<p class="bisect__summary" data-testid="bisect-summary">Across Kafka's history: {}.</p><ol class="bisect__cells" aria-label="The outcome under each Kafka release (choose one to run it)">"#,
        xml_escape(&describe_bisection(outcomes))
    );
    for (i, o) in outcomes.iter().enumerate() {
        let (id, label, v) = (o.release.id(), o.release.label(), verdict(o));
        let class = if o.bugs.is_empty() { "holds" } else { "fails" };
        let mark = if changed(i) { " bisect__cell--changed" } else { "" };
        let title = xml_escape(&format!("Kafka {label}: {v}. Changed: {}", o.release.changes()));
        let _ = write!(
            out,
            r#"<li class="bisect__cell bisect__cell--{class}{mark}"><button type="button" data-release="{id}" aria-pressed="{}" title="{title}" data-testid="bisect-{id}"><span class="bisect__release">{label}</span><span class="bisect__verdict">{v}</span></button></li>"#,
            chosen == Some(o.release)
        );
    }
    out.push_str(r#"</ol><ul class="bisect__changes">"#);
    for o in outcomes.iter().enumerate().filter(|(i, _)| changed(*i)).map(|(_, o)| o) {
        let now =
            if o.bugs.is_empty() { "holds".to_string() } else { format!("fails {}", InvariantId::join(&o.bugs, ", ")) };
        let _ = write!(
            out,
            r#"<li data-testid="bisect-change"><strong>From {} it {now}: </strong>{}</li>"#,
            o.release.id(),
            xml_escape(o.release.changes())
        );
    }
    out.push_str("</ul>");
    out
}

/// The bisect strip, run again only when the scenario is.
#[function_component(BisectStrip)]
pub fn bisect_strip(props: &LessonsProps) -> Html {
    let outcomes = {
        let (scenario, traces) = (props.model.shown.scenario.clone(), props.model.shown.traces.clone());
        use_memo(traces, move |_| bisect(&scenario))
    };
    let markup = strip_html(&outcomes, props.model.shown.scenario.config.kafka_version.map(KafkaVersion::line));
    // A click between the buttons chooses nothing.
    let dispatch = props.dispatch.clone();
    let onclick = Callback::from(move |e: MouseEvent| {
        if let Some(line) = web::closest_attribute(&e, "data-release").and_then(|id| KafkaRelease::from_id(&id)) {
            dispatch.emit(Action::Config(ConfigAction::SetKafkaRelease(Some(KafkaVersion::of_line(line)))));
        }
    });
    html! {
        <div class="bisect" data-testid="bisect" {onclick}>{ Html::from_html_unchecked(AttrValue::from(markup)) }</div>
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use epochlab_core::presets::find;

    #[test]
    fn the_strip_marks_where_the_outcome_changes_and_names_what_changed_it() {
        let s = find("kafka-6361-fast-failover").expect("preset").scenario();
        let html = strip_html(&bisect(&s), Some(KafkaRelease::V2_0));
        assert!(html.contains("holds from 2.0.0: KIP-279"), "{html}");
        assert_eq!(html.matches("bisect__cell--changed").count(), 2, "0.11.0 and 2.0");
        assert!(html.contains(r#"<span class="bisect__release">1.0–1.1</span>"#), "{html}");
        assert!(
            html.contains(r#"data-release="2.0.0" aria-pressed="true""#)
                && html.contains(r#"data-release="1.0" aria-pressed="false""#)
        );
        assert!(html.contains("<strong>From 2.0.0 it holds: </strong>KIP-279"), "{html}");
        assert!(html.contains("<strong>From 0.11.0 it fails I3, I4: </strong>KIP-101"), "{html}");
    }
}
