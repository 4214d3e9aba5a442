//! Configuration: the variants shown side by side, the brokers (add, remove, rename), and the cluster
//! settings and hardening flags.

use epochlab_core::scenario::{Config, Policy, MAX_BROKERS};
use epochlab_core::{Flag, Variant};
use web_sys::{HtmlInputElement, HtmlSelectElement};
use yew::prelude::*;

use crate::components::panels::releases::{release_group, setting, setting_options};
use crate::components::{Dispatch, LessonsProps};
use crate::model::learn::LessonsModel;
use crate::model::VariantsAction;
use crate::model::{Action, ConfigAction, MAX_VARIANTS};

fn policy(v: &str) -> Policy {
    if v == "manual" {
        Policy::Manual
    } else {
        Policy::Always
    }
}

fn policy_options(p: Policy) -> Html {
    html! {
        <>
            <option value="always" selected={p == Policy::Always}>{ "always" }</option>
            <option value="manual" selected={p == Policy::Manual}>{ "manual" }</option>
        </>
    }
}

/// "default: on (Kafka 0.10.2)", or "default: off" without a release.
fn unclean_default(c: &Config) -> String {
    let on = c.protocol(c.variant).rules.line.is_some_and(|l| l.unclean_default());
    let word = if on { "on" } else { "off" };
    match c.kafka_version {
        Some(v) => format!("default: {word} (Kafka {})", v.id()),
        None => format!("default: {word}"),
    }
}

/// One check box per variant; a fifth cannot be added.
fn variants_group(m: &LessonsModel, d: &Dispatch) -> Html {
    let variants = Variant::ALL.iter().map(|v| {
        let v = *v;
        let on = m.shown.variants.contains(&v);
        let onchange = d.reform(move |_| Action::Variants(VariantsAction::Toggle(v)));
        html! {
            <label class="config__check" title={v.title()}>
                <input type="checkbox" checked={on} {onchange} data-testid={format!("variant-toggle-{}", v.id())}
                    disabled={!on && m.shown.variants.len() >= MAX_VARIANTS} />
                { v.id() }
            </label>
        }
    });
    html! {
        <fieldset class="config__group">
            <legend>{ format!("Variants side by side (1 to {MAX_VARIANTS})") }</legend>
            { for variants }
        </fieldset>
    }
}

fn brokers_group(m: &LessonsModel, d: &Dispatch) -> Html {
    let brokers = m.shown.scenario.brokers.iter().map(|b| {
        let old = b.clone();
        let onchange = d.reform(move |e: Event| Action::Config(ConfigAction::RenameBroker(old.clone(), e.target_unchecked_into::<HtmlInputElement>().value())));
        let name = b.clone();
        let remove = d.reform(move |_| Action::Config(ConfigAction::RemoveBroker(name.clone())));
        html! {
            <li class="config__broker">
                <input type="text" value={b.clone()} maxlength="16" aria-label={format!("Rename broker {b}")} {onchange}
                    data-testid={format!("broker-name-{b}")} />
                <button type="button" onclick={remove} disabled={m.shown.scenario.brokers.len() <= 1}
                    aria-label={format!("Remove broker {b} and its events")} data-testid={format!("broker-remove-{b}")}>{ "Remove" }</button>
            </li>
        }
    });
    html! {
        <fieldset class="config__group">
            <legend>{ format!("Brokers (1 to {MAX_BROKERS}, in assignment order)") }</legend>
            <ul class="config__brokers">{ for brokers }</ul>
            <button type="button" onclick={d.reform(|_| Action::Config(ConfigAction::AddBroker))} disabled={m.shown.scenario.brokers.len() >= MAX_BROKERS}
                data-testid="broker-add">{ "Add broker" }</button>
        </fieldset>
    }
}

fn cluster_group(m: &LessonsModel, d: &Dispatch) -> Html {
    let c = &m.shown.scenario.config;
    let on_min = d.reform(|e: Event| {
        Action::Config(ConfigAction::SetMinIsr(
            e.target_unchecked_into::<HtmlInputElement>().value().parse().unwrap_or(1),
        ))
    });
    let on_unclean = d.reform(|e: Event| {
        Action::Config(ConfigAction::SetUnclean(setting(&e.target_unchecked_into::<HtmlSelectElement>().value())))
    });
    let on_ckpt = d.reform(|e: Event| {
        Action::Config(ConfigAction::SetHwCheckpoint(policy(&e.target_unchecked_into::<HtmlSelectElement>().value())))
    });
    let on_flush = d.reform(|e: Event| {
        Action::Config(ConfigAction::SetFlush(policy(&e.target_unchecked_into::<HtmlSelectElement>().value())))
    });
    html! {
        <fieldset class="config__group">
            <legend>{ "Cluster" }</legend>
            <label class="config__field">{ "min.insync.replicas " }
                <input type="number" min="1" max={m.shown.scenario.brokers.len().to_string()} value={c.min_insync_replicas.to_string()}
                    onchange={on_min} data-testid="config-min-isr" />
            </label>
            <label class="config__field">{ "unclean.leader.election.enable " }
                <select onchange={on_unclean} data-testid="config-unclean">
                    { setting_options(c.unclean_leader_election, unclean_default(c)) }
                </select>
            </label>
            <label class="config__field">{ "HW checkpoint " }
                <select onchange={on_ckpt} data-testid="config-hw-checkpoint">{ policy_options(c.hw_checkpoint) }</select>
            </label>
            <label class="config__field">{ "Flush " }
                <select onchange={on_flush} data-testid="config-flush">{ policy_options(c.flush) }</select>
            </label>
        </fieldset>
    }
}

/// The hardening flags: those the configured variant implies (the core says which) are checked and fixed.
fn flags_group(c: &Config, d: &Dispatch) -> Html {
    let flags = Flag::ALL.iter().map(|f| {
        let f = *f;
        let implied = c.variant.implied_flags().contains(&f);
        let on = c.flags.contains(&f);
        let onchange = d.reform(move |_| Action::Config(ConfigAction::ToggleFlag(f)));
        html! {
            <label class="config__check" title={f.summary()}>
                <input type="checkbox" checked={on || implied} disabled={implied} {onchange} data-testid={format!("flag-{}", f.id())} />
                { f.id() }
            </label>
        }
    });
    html! {
        <fieldset class="config__group">
            <legend>{ "Hardening flags (epoch variants)" }</legend>
            { for flags }
        </fieldset>
    }
}

/// The configuration panel.
#[function_component(ConfigPanel)]
pub fn config_panel(props: &LessonsProps) -> Html {
    let (m, d) = (&props.model, &props.dispatch);
    html! {
        <section class="config" aria-label="Configuration">
            { release_group(m, d) }
            { variants_group(m, d) }
            { brokers_group(m, d) }
            { cluster_group(m, d) }
            { flags_group(&m.shown.scenario.config, d) }
        </section>
    }
}
