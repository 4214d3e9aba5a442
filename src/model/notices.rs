//! The banner: what the model says to the reader, and how the reducer says it.

use super::Model;

/// A message shown in the banner.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Notice {
    /// Something went wrong (vs. a plain information).
    pub error: bool,
    /// The text.
    pub text: String,
    /// It follows an edit the user may want back: the banner offers Undo.
    pub undo: bool,
}

impl Notice {
    /// Why something was refused or went wrong.
    pub fn error(text: impl Into<String>) -> Notice {
        Notice { error: true, text: text.into(), undo: false }
    }

    /// What an action did.
    pub fn info(text: impl Into<String>) -> Notice {
        Notice { error: false, text: text.into(), undo: false }
    }

    /// What an edit did, offering to undo it.
    pub fn undoable(text: impl Into<String>) -> Notice {
        Notice { error: false, text: text.into(), undo: true }
    }
}

/// Why a view-only embed refuses an edit.
pub(super) const READ_ONLY: &str = "this embed is read-only: open it in Epochlab to change the scenario";

impl Model {
    /// The same model showing a notice.
    pub fn with_notice(mut self, notice: Notice) -> Model {
        self.notice = Some(notice);
        self
    }

    /// Say why an action was refused.
    pub(super) fn error(&mut self, text: impl Into<String>) {
        self.notice = Some(Notice::error(text));
    }

    /// Say what an action did.
    pub(super) fn inform(&mut self, text: impl Into<String>) {
        self.notice = Some(Notice::info(text));
    }

    /// Say what an edit did, offering to undo it.
    pub(super) fn inform_undoable(&mut self, text: impl Into<String>) {
        self.notice = Some(Notice::undoable(text));
    }

    /// An edit that worked leaves no error standing (the one it fixed, say), but keeps a plain information.
    /// An offer to undo goes too: its Undo would now undo this edit, not the one it names.
    pub(super) fn clear_error(&mut self) {
        self.notice = self.notice.take().filter(|n| !n.error && !n.undo);
    }
}
