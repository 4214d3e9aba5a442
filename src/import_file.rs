//! Importing a picked, dropped or pasted file or text: the page's own (a file dropped anywhere on the page
//! is imported without the share panel, which the lessons' module draws).

use epochlab_core::Variant;
use wasm_bindgen_futures::spawn_local;

use crate::import::{import_png, import_text, read_structured, too_large, Read};
use crate::model::{Action, Notice};
use crate::web;

/// The one way to change the model (`components::Dispatch`, named here without depending on components).
type Dispatch = yew::Callback<Action>;

pub fn info(dispatch: &Dispatch, text: impl Into<String>) {
    dispatch.emit(Action::Notify(Notice { error: false, text: text.into(), undo: false }));
}

pub fn error(dispatch: &Dispatch, text: impl Into<String>) {
    dispatch.emit(Action::Notify(Notice { error: true, text: text.into(), undo: false }));
}

/// Import text (a bare scenario under the variants `shown`), or say why not (the scenario stays as it was).
pub fn import_into(dispatch: &Dispatch, shown: &[Variant], source: &str, text: &str) {
    if let Some(why) = too_large(source, text.len()) {
        return error(dispatch, format!("Could not import: {why}. Your scenario is unchanged."));
    }
    match import_text(text, shown) {
        Ok(snapshot) => dispatch.emit(Action::Import(Box::new(snapshot))),
        Err(why) => error(dispatch, format!("Could not import {source}: {why}. Your scenario is unchanged.")),
    }
}

/// Read a picked or dropped file and import it: a PNG by its bytes (an exported picture carries its
/// scenario), anything else as text; a file in the text format is read by the lessons' module
/// (`Action::ImportText`).
pub fn import_file(dispatch: Dispatch, shown: Vec<Variant>, file: web_sys::File) {
    spawn_local(async move {
        let png = file.type_() == "image/png" || file.name().to_ascii_lowercase().ends_with(".png");
        let source = file.name();
        let read = if png {
            web::read_bytes(&file).await.map(|bytes| (import_png(&bytes).map(Read::Snapshot), String::new()))
        } else {
            web::read_file(&file).await.map(|text| (read_structured(&text, &shown), text))
        };
        match read {
            Ok((Ok(Read::Snapshot(snapshot)), _)) => dispatch.emit(Action::Import(Box::new(snapshot))),
            Ok((Ok(Read::TextFormat), text)) => dispatch.emit(Action::ImportText { source, text, shown }),
            Ok((Err(why), _)) => {
                error(&dispatch, format!("Could not import {source}: {why}. Your scenario is unchanged."))
            }
            Err(e) => error(&dispatch, format!("Could not import: {e}. Your scenario is unchanged.")),
        }
    });
}
