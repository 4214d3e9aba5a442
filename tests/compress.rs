//! Share links compressed and unpacked by the browser's own DEFLATE (`epochlab::browser::compress`), in headless
//! Chromium: they round-trip, give the links the core's miniz-based codec reads, and refuse damage and bombs.
#![cfg(target_arch = "wasm32")]

use epochlab::browser::compress::{compact_fragment, unpack};
use epochlab::browser::compress::{deflate, inflate};
use epochlab::formats::link::fragment;
use epochlab::model::CursorAction;
use epochlab::model::{Action, ConfigAction, Model};
use epochlab::page::startup::startup;
use epochlab_core::share::{self, Content, ShareError};
use wasm_bindgen_test::{wasm_bindgen_test, wasm_bindgen_test_configure};

wasm_bindgen_test_configure!(run_in_browser);

#[wasm_bindgen_test]
async fn bytes_round_trip_through_the_browsers_deflate() {
    let text: Vec<u8> = b"produce m1, fetch B, settle; ".repeat(40);
    let packed = deflate(&text).await.expect("Chromium has CompressionStream");
    assert!(packed.len() < text.len() / 4, "{} bytes from {}", packed.len(), text.len());
    assert_eq!(inflate(&packed).await, Ok(text));
}

#[wasm_bindgen_test]
async fn damage_and_bombs_are_refused_like_the_core_refuses_them() {
    let err = inflate(&[0xff, 0xff, 0xff, 0x00]).await.unwrap_err();
    assert_eq!(err, share::inflate_error(false));
    let bomb = deflate(&vec![0u8; 2 << 20]).await.expect("compressed");
    let err = inflate(&bomb).await.unwrap_err();
    assert!(matches!(err, ShareError::Oversized(_)), "{err:?}");
}

#[wasm_bindgen_test]
async fn a_compact_link_is_shorter_and_opens_the_same_state_here_and_in_the_core() {
    let m = Model::landing()
        .after(Action::Config(ConfigAction::AddBroker))
        .after(Action::Cursor(CursorAction::Set(Some(2))));
    let compact = compact_fragment(&m.shown.snapshot(), None).await;
    assert!(compact.len() < fragment(&m.shown.snapshot(), None).len(), "{compact}");
    let payload = compact.strip_prefix("s=").unwrap();
    assert!(matches!(share::open_payload(payload), Ok(Content::Deflated(_))));
    // The CLI's decoder (miniz) reads what the browser wrote...
    let state = share::decode(payload).expect("the core decodes it");
    assert_eq!(state.scenario, *m.shown.scenario);
    // ...and the page opens it once the browser has unpacked it.
    let hash = format!("#{compact}");
    let opened = startup(&hash, None, unpack(&hash).await);
    assert_eq!((opened.model.shown.scenario, opened.model.shown.cursor), (m.shown.scenario, Some(2)));
    assert!(opened.model.notice.is_none());
}
