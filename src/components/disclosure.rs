//! A `<details>` panel whose contents are built only while it is open: a closed panel costs nothing when the
//! model changes (the configuration panel alone is some fifty elements).

use web_sys::HtmlDetailsElement;
use yew::prelude::*;

/// Props.
#[derive(Properties, PartialEq)]
pub struct DisclosureProps {
    /// The always-visible summary line.
    pub summary: &'static str,
    /// A test id for the `<details>` element, if any.
    #[prop_or_default]
    pub testid: Option<&'static str>,
    /// Open from the start (the checker panel, for a link with a bounded-proof stamp).
    #[prop_or_default]
    pub open: bool,
    /// The contents, mounted when opened.
    pub children: Html,
}

/// The panel.
#[function_component(Disclosure)]
pub fn disclosure(props: &DisclosureProps) -> Html {
    let open = use_state(|| props.open);
    let ontoggle = {
        let open = open.clone();
        Callback::from(move |e: Event| open.set(e.target_unchecked_into::<HtmlDetailsElement>().open()))
    };
    html! {
        <details class="workspace__config" data-testid={props.testid} open={props.open} {ontoggle}>
            <summary>{ props.summary }</summary>
            if *open { { props.children.clone() } }
        </details>
    }
}
