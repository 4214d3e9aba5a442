//! Importing a picked, dropped or pasted file or text. The page only reads a file (a file dropped anywhere
//! on the page is imported without the share panel) and hands it to the lessons' module, which has the
//! readers (`import`): the text format's, a PNG's and an SVG's are not part of the page's first download.

use epochlab_core::Variant;
use wasm_bindgen_futures::spawn_local;

use crate::browser::web;
use crate::formats::import::{import_png, import_text, too_large};
use crate::model::{Action, FileContent, ModuleAction, Notice};

use crate::browser::Dispatch;
use crate::model::{LoadAction, NoticeAction};

pub fn info(dispatch: &Dispatch, text: impl Into<String>) {
    dispatch.emit(Action::Notice(NoticeAction::Show(Notice { error: false, text: text.into(), undo: false })));
}

pub fn error(dispatch: &Dispatch, text: impl Into<String>) {
    dispatch.emit(Action::Notice(NoticeAction::Show(Notice { error: true, text: text.into(), undo: false })));
}

/// In the lessons' module: import a file's content (a bare scenario opens under the variants `shown`), or
/// say why not (the scenario stays as it was).
pub fn import_into(dispatch: &Dispatch, shown: &[Variant], source: &str, content: &FileContent) {
    dispatch.emit(import_action(shown, source, content));
}

/// What importing a file's content does: open its snapshot, or a notice of why it cannot be opened.
pub fn import_action(shown: &[Variant], source: &str, content: &FileContent) -> Action {
    let refused = |why: String| Action::Notice(NoticeAction::Show(Notice { error: true, text: why, undo: false }));
    let read = match content {
        FileContent::Text(text) => match too_large(source, text.len()) {
            Some(why) => return refused(format!("Could not import: {why}. Your scenario is unchanged.")),
            None => import_text(text, shown),
        },
        FileContent::Png(bytes) => import_png(bytes),
    };
    match read {
        Ok(snapshot) => Action::Load(LoadAction::Import(Box::new(snapshot))),
        Err(why) => refused(format!("Could not import {source}: {why}. Your scenario is unchanged.")),
    }
}

/// Read a picked or dropped file, a PNG by its bytes (an exported picture carries its scenario), anything
/// else as text, and hand it to the lessons' module to import (`Action::Module(ModuleAction::ImportFile)`).
pub fn import_file(dispatch: Dispatch, shown: Vec<Variant>, file: web_sys::File) {
    spawn_local(async move {
        let png = file.type_() == "image/png" || file.name().to_ascii_lowercase().ends_with(".png");
        let source = file.name();
        let read = if png {
            web::read_bytes(&file).await.map(FileContent::Png)
        } else {
            web::read_file(&file).await.map(FileContent::Text)
        };
        match read {
            Ok(content) => dispatch.emit(Action::Module(ModuleAction::ImportFile { source, content, shown })),
            Err(e) => error(&dispatch, format!("Could not import: {e}. Your scenario is unchanged.")),
        }
    });
}
