//! Share and export: the link (copied to the clipboard), the embed code, the scenario as a JSON file, the view
//! as SVG or PNG, and importing a file or pasted JSON.

use epochlab_core::share;
use wasm_bindgen_futures::spawn_local;
use web_sys::{HtmlInputElement, HtmlTextAreaElement};
use yew::prelude::*;

use super::ModelProps;
use crate::export;
use crate::import::import_text;
use crate::link::{self, EmbedMode};
use crate::model::{Action, Model, Notice};
use crate::storage;
use crate::web;

fn info(dispatch: &Callback<Action>, text: impl Into<String>) {
    dispatch.emit(Action::Notify(Notice { error: false, text: text.into() }));
}

fn error(dispatch: &Callback<Action>, text: impl Into<String>) {
    dispatch.emit(Action::Notify(Notice { error: true, text: text.into() }));
}

/// Import text, or say why not (the scenario stays as it was).
pub fn import_into(dispatch: &Callback<Action>, source: &str, text: &str) {
    match import_text(text) {
        Ok(imported) => dispatch.emit(Action::Import(Box::new(imported))),
        Err(why) => error(dispatch, format!("Could not import {source}: {why}. Your scenario is unchanged.")),
    }
}

/// The SVG of the current view.
pub fn current_svg(m: &Model) -> (String, u32, u32) {
    let views = epochlab_core::view::views(&m.traces, m.cursor);
    let (svg, height) = export::svg(&m.scenario, &m.traces, &views, m.cursor, &storage::encode(m));
    (svg, export::WIDTH, height)
}

/// What a link holds: links made for another key are out of date.
type ShareKey = (epochlab_core::Scenario, Vec<epochlab_core::Variant>, Option<usize>);

fn share_key(m: &Model) -> ShareKey {
    (m.scenario.clone(), m.variants.clone(), m.cursor)
}

/// The panel.
#[function_component(SharePanel)]
pub fn share_panel(props: &ModelProps) -> Html {
    let m = props.model.clone();
    let d = props.dispatch.clone();
    let page = web::page_url();
    // The browser compresses the link a moment after each change; until then it is shown uncompressed.
    let compact = use_state(|| None::<(ShareKey, String)>);
    let latest = use_mut_ref(|| None::<ShareKey>);
    let key = share_key(&m);
    {
        let (compact, m) = (compact.clone(), m.clone());
        use_effect_with(key.clone(), move |key| {
            *latest.borrow_mut() = Some(key.clone());
            let key = key.clone();
            spawn_local(async move {
                let share = link::compact_fragment(&m, None).await;
                // A slower answer for an older change must not replace a newer one.
                if latest.borrow().as_ref() == Some(&key) {
                    compact.set(Some((key, share)));
                }
            });
        });
    }
    let (share_fragment, compacted) = match &*compact {
        Some((done, share)) if *done == key => (share.clone(), true),
        _ => (link::fragment(&m, None), false),
    };
    let view_fragment = link::with_embed(share_fragment.clone(), Some(EmbedMode::View));
    // A link longer than any link Epochlab opens (a long imported description, say) would only fail later.
    let payload = share_fragment.len().saturating_sub("s=".len());
    let too_long = (compacted && link::too_long(&share_fragment)).then(|| {
        format!(
            "This scenario is too large for a link ({payload} characters; a link holds up to {}): share it as a JSON file instead.",
            share::MAX_PAYLOAD
        )
    });
    let share_link = format!("{page}#{share_fragment}");
    let embed = link::embed_code(&page, &m, &view_fragment);

    let copy = |text: String, what: &'static str| {
        let d = d.clone();
        Callback::from(move |_| {
            let (d, text) = (d.clone(), text.clone());
            spawn_local(async move {
                if web::copy_text(&text).await {
                    info(&d, format!("{what} copied to the clipboard."));
                } else {
                    info(
                        &d,
                        format!(
                            "The clipboard is not available here: select the {} below and copy it.",
                            what.to_lowercase()
                        ),
                    );
                }
            });
        })
    };
    let export_json = {
        let (m, d) = (m.clone(), d.clone());
        Callback::from(move |_| {
            if let Err(e) =
                web::download_text(&export::file_name(&m.scenario, "json"), "application/json", &m.scenario.to_json())
            {
                error(&d, e);
            }
        })
    };
    let export_svg = {
        let (m, d) = (m.clone(), d.clone());
        Callback::from(move |_| {
            let (svg, _, _) = current_svg(&m);
            if let Err(e) = web::download_text(&export::file_name(&m.scenario, "svg"), "image/svg+xml", &svg) {
                error(&d, e);
            }
        })
    };
    let export_png = {
        let (m, d) = (m.clone(), d.clone());
        Callback::from(move |_| {
            let (m, d) = (m.clone(), d.clone());
            spawn_local(async move {
                let (svg, w, h) = current_svg(&m);
                if let Err(e) = web::download_png(&export::file_name(&m.scenario, "png"), &svg, w, h).await {
                    error(&d, e);
                }
            });
        })
    };
    let on_file = {
        let d = d.clone();
        Callback::from(move |e: Event| {
            let input: HtmlInputElement = e.target_unchecked_into();
            let Some(file) = input.files().and_then(|f| f.get(0)) else { return };
            input.set_value("");
            let d = d.clone();
            spawn_local(async move {
                match web::read_file(&file).await {
                    Ok(text) => import_into(&d, &file.name(), &text),
                    Err(e) => error(&d, format!("Could not import: {e}. Your scenario is unchanged.")),
                }
            });
        })
    };
    let pasted = use_node_ref();
    let on_paste_import = {
        let (d, pasted) = (d.clone(), pasted.clone());
        Callback::from(move |_| {
            if let Some(area) = pasted.cast::<HtmlTextAreaElement>() {
                import_into(&d, "the pasted text", &area.value());
            }
        })
    };
    let select_all = Callback::from(|e: FocusEvent| {
        if let Some(el) = e.target_dyn_into::<HtmlInputElement>() {
            el.select();
        }
    });
    html! {
        <section class="share" aria-label="Share and export">
            <div class="share__row">
                <button type="button" onclick={copy(share_link.clone(), "Link")} data-testid="share-copy">{ "Copy link" }</button>
                <input class="share__link" type="text" readonly=true value={share_link} aria-label="Share link" onfocus={select_all} data-testid="share-link" />
            </div>
            if let Some(why) = too_long { <p class="share__hint share__hint--warn" role="status" data-testid="share-too-long">{ why }</p> }
            <div class="share__row">
                <button type="button" onclick={copy(embed.clone(), "Embed code")} data-testid="embed-copy">{ "Copy embed code" }</button>
                <textarea class="share__code" readonly=true rows="2" aria-label="Embed code" data-testid="embed-code" value={embed} />
            </div>
            <div class="share__row">
                <button type="button" onclick={export_json} data-testid="export-json">{ "Export JSON" }</button>
                <button type="button" onclick={export_svg} data-testid="export-svg">{ "Export SVG" }</button>
                <button type="button" onclick={export_png} data-testid="export-png">{ "Export PNG" }</button>
                <label class="share__file">{ "Import a file (JSON or Epochlab SVG) " }
                    <input type="file" accept=".json,.svg,application/json,image/svg+xml" onchange={on_file} data-testid="import-file" />
                </label>
            </div>
            <div class="share__row">
                <textarea ref={pasted} class="share__paste" rows="3" placeholder="…or paste a scenario's JSON here" aria-label="Scenario JSON to import" data-testid="import-text" />
                <button type="button" onclick={on_paste_import} data-testid="import-paste">{ "Import pasted JSON" }</button>
            </div>
            <p class="share__hint">{ "You can also drop a scenario file or an exported SVG anywhere on the page." }</p>
        </section>
    }
}
