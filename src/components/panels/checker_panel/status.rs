//! What the worker last said, and a stamp the page was opened with.

use epochlab_core::checker::Stamp;
use yew::prelude::*;

use crate::checker::protocol::CheckReply;

#[derive(Properties, PartialEq)]
pub struct StatusProps {
    pub reply: Option<CheckReply>,
    /// "Add to the share link", for a verdict with a stamp.
    pub on_add_stamp: Callback<Stamp>,
}

/// The last reply: progress with its bar, a verdict with its reasons, or a failure.
#[function_component(CheckStatus)]
pub fn check_status(props: &StatusProps) -> Html {
    let Some(reply) = props.reply.as_ref() else { return Html::default() };
    let (text, bar, reasons, stamp) = match reply {
        CheckReply::Progress(p) => {
            let bar = (p.max > 0).then(|| html! { <><progress max={p.max.to_string()} value={p.depth.to_string()} aria-label="Depth explored"></progress>{ " " }</> });
            (p.text.as_str(), bar, &[][..], None)
        }
        CheckReply::Done(v) => (v.text.as_str(), None, &v.reasons[..], v.stamp.clone()),
        CheckReply::Failed(why) => (why.as_str(), None, &[][..], None),
        CheckReply::Ready => return Html::default(),
    };
    let add = stamp.map(|s| {
        let onclick = props.on_add_stamp.reform(move |_| s.clone());
        html! { <>{ " " }<button type="button" {onclick} data-testid="checker-add-stamp">{ "Add to the share link" }</button></> }
    });
    let reasons = (!reasons.is_empty()).then(|| html! {
        <ul class="checker__reasons" data-testid="checker-reasons">{ for reasons.iter().map(|r| html! { <li>{ r }</li> }) }</ul>
    });
    let testid = if reply.is_busy() { "checker-progress" } else { "checker-result" };
    html! {
        <div class="checker__result" role="status" data-testid={testid}>{ for bar }<span>{ text }</span>{ for add }{ for reasons }</div>
    }
}

#[derive(Properties, PartialEq)]
pub struct StampProps {
    /// The stamp in the link the page opened, or why it could not be read.
    pub in_link: Option<Result<Stamp, String>>,
    pub busy: bool,
    pub on_recheck: Callback<Stamp>,
}

/// A stamp the page was opened with: what it claims and a Re-check button, or why it could not be read.
#[function_component(LinkStamp)]
pub fn link_stamp(props: &StampProps) -> Html {
    let body = match &props.in_link {
        None => return Html::default(),
        Some(Ok(stamp)) => {
            let onclick = props.on_recheck.reform({
                let stamp = stamp.clone();
                move |_| stamp.clone()
            });
            let left = stamp.not_covered().map(|l| format!("It covers only what it names: {l}. ")).unwrap_or_default();
            html! { <>{ format!("This link carries a bounded proof: {}. {left}", stamp.summary()) }
            <button type="button" {onclick} disabled={props.busy} data-testid="checker-recheck">{ "Re-check" }</button></> }
        }
        Some(Err(why)) => html! { { format!(
            "This link's bounded-proof stamp could not be read ({why}); the rest of the link opened as usual."
        ) } },
    };
    html! { <p class="checker__stamp" data-testid="checker-stamp">{ body }</p> }
}
