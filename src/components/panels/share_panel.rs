//! Share and export: the link (copied to the clipboard), the embed code, the scenario as a JSON or text file,
//! the view as SVG or PNG, and importing a file or pasted JSON or text.

use std::rc::Rc;

use wasm_bindgen_futures::spawn_local;
use web_sys::{HtmlInputElement, HtmlTextAreaElement};
use yew::prelude::*;

use crate::browser::import_file::{error, import_file, import_into, info};
use crate::browser::web;
use crate::components::{Dispatch, LessonsProps};
use crate::formats::export;
use crate::formats::link::{self, EmbedMode};
use crate::formats::sequence_svg;
use crate::formats::snapshot::{self, Snapshot};
use crate::model::learn::LessonsModel;

/// The SVG of the current view, carrying the model's snapshot, and the message diagram under it if asked.
pub fn current_svg(m: &LessonsModel, with_messages: bool) -> (String, u32, u32) {
    let views = epochlab_core::view::views(&m.shown.traces, m.shown.cursor);
    let diagram = with_messages.then(|| {
        let d = epochlab_core::sequence::diagram(&m.shown.scenario, &m.shown.traces);
        let (width, height) = sequence_svg::drawn_size(&d, &[], sequence_svg::WIDE, true);
        (sequence_svg::svg(&d, &[], m.shown.cursor, sequence_svg::WIDE, true), width, height)
    });
    let below = diagram.as_ref().map(|(svg, width, height)| export::Below { svg, width: *width, height: *height });
    export::svg(
        &m.shown.scenario,
        &m.shown.traces,
        &views,
        m.shown.cursor,
        &snapshot::to_json(&m.shown.snapshot()),
        below,
    )
}

/// The share link's fragment, and whether the browser has compressed it yet: it does so a moment after each
/// change, and until then the link is shown uncompressed.
#[hook]
fn use_share_fragment(snapshot: &Snapshot) -> (String, bool) {
    let compact = use_state(|| None::<(Snapshot, String)>);
    let latest = use_mut_ref(|| None::<Snapshot>);
    {
        let compact = compact.clone();
        use_effect_with(snapshot.clone(), move |snapshot| {
            *latest.borrow_mut() = Some(snapshot.clone());
            let snapshot = snapshot.clone();
            spawn_local(async move {
                let share = crate::browser::compress::compact_fragment(&snapshot, None).await;
                // A slower answer for an older change must not replace a newer one.
                if latest.borrow().as_ref() == Some(&snapshot) {
                    compact.set(Some((snapshot, share)));
                }
            });
        });
    }
    match &*compact {
        Some((done, share)) if done == snapshot => (share.clone(), true),
        _ => (link::fragment(snapshot, None), false),
    }
}

/// A button's callback that copies `text` and says how it went.
pub(crate) fn copy(d: &Dispatch, text: String, what: &'static str) -> Callback<MouseEvent> {
    let d = d.clone();
    Callback::from(move |_| {
        let (d, text) = (d.clone(), text.clone());
        spawn_local(async move {
            if web::copy_text(&text).await {
                info(&d, format!("{what} copied to the clipboard."));
            } else {
                let what = what.to_lowercase();
                info(&d, format!("The clipboard is not available here: select the {what} below and copy it."));
            }
        });
    })
}

/// A button's callback that offers a download made from the model, or says why it failed.
fn download(
    m: &Rc<LessonsModel>,
    d: &Dispatch,
    make: impl Fn(&LessonsModel) -> Result<(), String> + 'static,
) -> Callback<MouseEvent> {
    let (m, d) = (m.clone(), d.clone());
    Callback::from(move |_| {
        if let Err(e) = make(&m) {
            error(&d, e);
        }
    })
}

fn export_json(m: &LessonsModel) -> Result<(), String> {
    web::download_text(&export::file_name(&m.shown.scenario, "json"), "application/json", &m.shown.scenario.to_json())
}

fn export_txt(m: &LessonsModel) -> Result<(), String> {
    let text = epochlab_core::scenario::text::to_text(&m.shown.scenario);
    web::download_text(&export::file_name(&m.shown.scenario, "txt"), "text/plain", &text)
}

fn export_svg(m: &LessonsModel, with_messages: bool) -> Result<(), String> {
    web::download_text(&export::file_name(&m.shown.scenario, "svg"), "image/svg+xml", &current_svg(m, with_messages).0)
}

/// The message-sequence diagram of the shown variants, every run of idle fetches folded, at the cursor.
fn export_messages(m: &LessonsModel) -> Result<(), String> {
    let d = epochlab_core::sequence::diagram(&m.shown.scenario, &m.shown.traces);
    let svg = sequence_svg::svg(&d, &[], m.shown.cursor, sequence_svg::WIDE, true);
    web::download_text(&export::file_name(&m.shown.scenario, "messages.svg"), "image/svg+xml", &svg)
}

/// Rasterising waits for the browser, so the PNG is offered later (or its failure said later).
fn export_png(m: &Rc<LessonsModel>, d: &Dispatch, with_messages: bool) -> Callback<MouseEvent> {
    let (m, d) = (m.clone(), d.clone());
    Callback::from(move |_| {
        let (m, d) = (m.clone(), d.clone());
        spawn_local(async move {
            let (svg, w, h) = current_svg(&m, with_messages);
            let json = snapshot::to_json(&m.shown.snapshot());
            if let Err(e) = web::download_png(&export::file_name(&m.shown.scenario, "png"), &svg, w, h, &json).await {
                error(&d, e);
            }
        });
    })
}

/// The export buttons, whether the pictures carry the message diagram, and the file picker.
fn export_row(m: &Rc<LessonsModel>, d: &Dispatch, with_messages: &UseStateHandle<bool>) -> Html {
    let with = **with_messages;
    let on_with = {
        let with_messages = with_messages.clone();
        Callback::from(move |e: Event| with_messages.set(e.target_unchecked_into::<HtmlInputElement>().checked()))
    };
    let on_file = {
        let (d, shown) = (d.clone(), m.shown.variants.clone());
        Callback::from(move |e: Event| {
            let input: HtmlInputElement = e.target_unchecked_into();
            let Some(file) = input.files().and_then(|f| f.get(0)) else { return };
            input.set_value("");
            import_file(d.clone(), shown.clone(), file);
        })
    };
    html! {
        <div class="share__row">
            <button type="button" onclick={download(m, d, export_json)} data-testid="export-json">{ "Export JSON" }</button>
            <button type="button" onclick={download(m, d, export_txt)} data-testid="export-txt">{ "Download .txt" }</button>
            <button type="button" onclick={download(m, d, move |m| export_svg(m, with))} data-testid="export-svg">{ "Export SVG" }</button>
            <button type="button" onclick={export_png(m, d, with)} data-testid="export-png">{ "Export PNG" }</button>
            <label class="share__check">
                <input type="checkbox" checked={with} onchange={on_with} data-testid="export-with-messages" />
                { " with the message diagram" }
            </label>
            <button type="button" onclick={download(m, d, export_messages)} data-testid="export-messages">{ "Export the message diagram (SVG)" }</button>
            <label class="share__file">{ "Import a file (JSON, text, or an Epochlab SVG or PNG) " }
                <input type="file" accept=".json,.txt,.svg,.png,application/json,text/plain,image/svg+xml,image/png" onchange={on_file} data-testid="import-file" />
            </label>
        </div>
    }
}

/// While a lesson is followed: the iframe that embeds it, at the step shown, for a blog post.
fn lesson_embed_row(m: &LessonsModel, d: &Dispatch, page: &str) -> Html {
    let Some((run, reference)) = m.learn.run.as_ref().and_then(|r| Some((r, r.reference()?))) else {
        return Html::default();
    };
    let code = link::lesson_embed_code(page, reference, &run.lesson.title, run.step + 1);
    html! {
        <div class="share__row">
            <button type="button" onclick={copy(d, code.clone(), "Lesson embed code")} data-testid="lesson-embed-copy">{ "Copy lesson embed code" }</button>
            <textarea class="share__code" readonly=true rows="2" aria-label="Lesson embed code" data-testid="lesson-embed-code" value={code} />
        </div>
    }
}

/// The panel.
#[function_component(SharePanel)]
pub fn share_panel(props: &LessonsProps) -> Html {
    let (m, d) = (&props.model, &props.dispatch);
    let page = web::page_url();
    let snapshot = m.shown.snapshot();
    let (share_fragment, compacted) = use_share_fragment(&snapshot);
    let view_fragment = link::with_embed(share_fragment.clone(), Some(EmbedMode::View));
    // A link Epochlab itself would refuse (a long imported description, say) would only fail later.
    let too_long = compacted.then(|| link::unopenable(&share_fragment, &snapshot)).flatten().map(|why| {
        let why = why.to_string();
        let why = why.strip_prefix("the link is too large: ").unwrap_or(&why);
        format!("This scenario is too large for a link ({why}): share it as a JSON file instead.")
    });
    // A bounded-proof stamp the checker put on the address travels with the link.
    let share_link = format!("{page}#{share_fragment}{}", link::proof_param(&web::hash()));
    let embed = link::embed_code(&page, &snapshot, &view_fragment);
    let pasted = use_node_ref();
    let with_messages = use_state(|| false);
    let on_paste_import = {
        let (d, pasted, shown) = (d.clone(), pasted.clone(), m.shown.variants.clone());
        Callback::from(move |_| {
            if let Some(area) = pasted.cast::<HtmlTextAreaElement>() {
                import_into(&d, &shown, "the pasted text", &crate::model::FileContent::Text(area.value()));
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
                <button type="button" onclick={copy(d, share_link.clone(), "Link")} data-testid="share-copy">{ "Copy link" }</button>
                <input class="share__link" type="text" readonly=true value={share_link} aria-label="Share link" onfocus={select_all} data-testid="share-link" />
            </div>
            if let Some(why) = too_long { <p class="share__hint share__hint--warn" role="status" data-testid="share-too-long">{ why }</p> }
            <div class="share__row">
                <button type="button" onclick={copy(d, embed.clone(), "Embed code")} data-testid="embed-copy">{ "Copy embed code" }</button>
                <textarea class="share__code" readonly=true rows="2" aria-label="Embed code" data-testid="embed-code" value={embed} />
            </div>
            { lesson_embed_row(m, d, &page) }
            { export_row(m, d, &with_messages) }
            <div class="share__row">
                <textarea ref={pasted} class="share__paste" rows="3" placeholder="…or paste a scenario's JSON or text here" aria-label="Scenario JSON or text to import" data-testid="import-text" />
                <button type="button" onclick={on_paste_import} data-testid="import-paste">{ "Import pasted scenario" }</button>
            </div>
            <p class="share__hint">{ "You can also drop a scenario file or an exported SVG or PNG anywhere on the page." }</p>
        </section>
    }
}
