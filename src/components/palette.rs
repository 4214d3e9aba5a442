//! The palette: one chip per event kind. Drag a chip onto a lane, or press Enter on it to place it with the
//! arrow keys.

use epochlab_core::scenario::EventKind;
use web_sys::{MouseEvent, PointerEvent};
use yew::prelude::*;

use crate::browser::pointer_drag::PointerDrag;
use crate::formats::icons::kind_info;
use crate::model::PlaceAction;
use crate::model::{Action, PlaceSource};

/// Props.
#[derive(Properties, PartialEq, Clone)]
pub struct PaletteProps {
    /// Dispatch.
    pub dispatch: Callback<Action>,
    /// The drag controller.
    pub drag: PointerDrag,
}

/// The palette.
#[function_component(Palette)]
pub fn palette(props: &PaletteProps) -> Html {
    html! {
        <section class="palette" aria-label="Event palette">
            <h2 class="palette__title">{ "Events" }</h2>
            <p class="palette__hint palette__hint--fine">{ "Drag onto a lane, or focus and press Enter to place with the arrow keys." }</p>
            <p class="palette__hint palette__hint--touch">{ "Drag onto a lane, or tap a chip, then a gap (again: cancel)." }</p>
            <ul class="palette__chips">
                { for EventKind::ALL.into_iter().map(|kind| {
                    let (icon, label, help) = kind_info(kind);
                    let onpointerdown = {
                        let start = props.drag.start.clone();
                        Callback::from(move |e: PointerEvent| start.emit((PlaceSource::New(kind), e)))
                    };
                    let onclick = {
                        let dispatch = props.dispatch.clone();
                        let suppress = props.drag.suppress_click.clone();
                        let touch = props.drag.touch_input.clone();
                        Callback::from(move |e: MouseEvent| {
                            if crate::browser::pointer_drag::ends_drag(&suppress, &e) {
                                return;
                            }
                            // A click from the keyboard has no detail: Enter places with the arrow keys.
                            let source = PlaceSource::New(kind);
                            dispatch.emit(if touch.get() && e.detail() > 0 { Action::Place(PlaceAction::Tap(source)) } else { Action::Place(PlaceAction::Start(source)) });
                        })
                    };
                    html! {
                        <li>
                            <button type="button" class={classes!("chip", "chip--palette", format!("chip--{}", kind.id()))}
                                data-testid={format!("palette-{kind}")} data-kind={kind.id()}
                                aria-label={format!("{label}: {help}. Press Enter to place it with the arrow keys.")}
                                title={help} {onpointerdown} {onclick}>
                                <span class="chip__icon" aria-hidden="true">{ icon }</span>
                                <span class="chip__label">{ label }</span>
                            </button>
                        </li>
                    }
                }) }
            </ul>
        </section>
    }
}
