//! The banner for notices and errors, with a way out.

use yew::prelude::*;

use super::ModelProps;
use crate::model::Action;
use crate::model::{EditAction, NoticeAction};

/// The notice banner (nothing when there is no notice).
#[function_component(NoticeBanner)]
pub fn notice_banner(props: &ModelProps) -> Html {
    let Some(notice) = &props.model.notice else { return html! {} };
    let dismiss = props.dispatch.reform(|_| Action::Notice(NoticeAction::Dismiss));
    let undo = props.dispatch.reform(|_: MouseEvent| Action::Edit(EditAction::Undo));
    let class = classes!("notice", notice.error.then_some("notice--error"));
    html! {
        <div {class} role={if notice.error { "alert" } else { "status" }} data-testid="notice">
            <span class="notice__text">{ &notice.text }</span>
            if notice.undo && props.model.history.can_undo() {
                <button type="button" class="notice__undo" onclick={undo} data-testid="notice-undo">{ "Undo" }</button>
            }
            <button type="button" class="notice__close" onclick={dismiss} aria-label="Dismiss this notice"><span aria-hidden="true">{ "×" }</span></button>
        </div>
    }
}
