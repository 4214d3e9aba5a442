//! Raw DEFLATE (RFC 1951) by the browser's own `CompressionStream` and `DecompressionStream`, for share
//! links. A DEFLATE implementation compiled into the app would cost about 16 KB of the gzipped download;
//! the browser has one already. The core's `share::encode` / `decode` (the CLI's) use miniz_oxide and make
//! and read the same links.

use epochlab_core::share::{self, inflate_error, Content, ShareError, MAX_LAYOUT};
use wasm_bindgen::prelude::*;

use crate::formats::link::{self, EmbedMode, Unpacked};
use crate::formats::snapshot::Snapshot;

// The browser's streams, declared here rather than by inline JavaScript (which the lessons' module, built
// as a classic script, cannot import) or by web-sys (which has the compression streams only among its
// unstable APIs).
#[wasm_bindgen]
extern "C" {
    type CompressionStream;
    #[wasm_bindgen(constructor, catch)]
    fn new(format: &str) -> Result<CompressionStream, JsValue>;
    type DecompressionStream;
    #[wasm_bindgen(constructor, catch)]
    fn new(format: &str) -> Result<DecompressionStream, JsValue>;
    type ReadableStream;
    #[wasm_bindgen(js_name = Blob)]
    type BytesBlob;
    #[wasm_bindgen(method)]
    fn stream(this: &BytesBlob) -> ReadableStream;
    #[wasm_bindgen(method, catch, js_name = pipeThrough)]
    fn pipe_through(this: &ReadableStream, transform: &JsValue) -> Result<ReadableStream, JsValue>;
    #[wasm_bindgen(method, js_name = getReader)]
    fn reader(this: &ReadableStream) -> StreamReader;
    type StreamReader;
    #[wasm_bindgen(method)]
    fn read(this: &StreamReader) -> js_sys::Promise;
    #[wasm_bindgen(method)]
    fn cancel(this: &StreamReader) -> js_sys::Promise;
}

/// `bytes` through a transform stream, read to at most `limit` bytes (`None`: it went past).
async fn transformed(bytes: &[u8], transform: &JsValue, limit: usize) -> Result<Option<Vec<u8>>, JsValue> {
    let blob = web_sys::Blob::new_with_u8_array_sequence(&js_sys::Array::of1(&js_sys::Uint8Array::from(bytes)))?;
    let reader = blob.unchecked_ref::<BytesBlob>().stream().pipe_through(transform)?.reader();
    let mut out = Vec::new();
    // Every read but the last brings at least a byte, so the stream ends within `limit + 1` reads.
    for _ in 0..=limit {
        let chunk = wasm_bindgen_futures::JsFuture::from(reader.read()).await?;
        if js_sys::Reflect::get(&chunk, &"done".into())?.is_truthy() {
            return Ok(Some(out));
        }
        out.extend(js_sys::Uint8Array::new(&js_sys::Reflect::get(&chunk, &"value".into())?).to_vec());
        if out.len() > limit {
            break;
        }
    }
    let _ = wasm_bindgen_futures::JsFuture::from(reader.cancel()).await;
    Ok(None)
}

/// `bytes` as raw DEFLATE; `None` where the browser cannot compress (the link is then left uncompressed).
pub async fn deflate(bytes: &[u8]) -> Option<Vec<u8>> {
    let transform = CompressionStream::new("deflate-raw").ok()?;
    // DEFLATE grows incompressible input by a few bytes per 64 KB block at most.
    transformed(bytes, &transform, bytes.len() * 2 + 64).await.ok().flatten()
}

/// Raw DEFLATE unpacked to at most [`MAX_LAYOUT`] bytes, with the errors `share::decode` gives.
pub async fn inflate(bytes: &[u8]) -> Result<Vec<u8>, ShareError> {
    let Ok(transform) = DecompressionStream::new("deflate-raw") else { return Err(inflate_error(false)) };
    match transformed(bytes, &transform, MAX_LAYOUT).await {
        Ok(Some(out)) => Ok(out),
        Ok(None) => Err(inflate_error(true)),
        // Not DEFLATE.
        Err(_) => Err(inflate_error(false)),
    }
}

/// Unpack the address's link if it is compressed: the one step of opening a link that must wait for the
/// browser.
pub async fn unpack(hash: &str) -> Unpacked {
    let payload = link::params(hash).payload?;
    match share::open_payload(&payload) {
        Ok(Content::Deflated(deflated)) => Some(inflate(&deflated).await),
        _ => None,
    }
}

/// [`link::fragment`], compressed by the browser when that makes it shorter.
pub async fn compact_fragment(snapshot: &Snapshot, embed: Option<EmbedMode>) -> String {
    let layout = share::layout(snapshot);
    let deflated = deflate(&layout).await;
    link::fragment_of(&layout, deflated.as_deref(), embed)
}

/// A shared lesson's file text, from its link's `~<payload>` (`lesson::link`), unpacked by the browser.
pub async fn unpack_lesson(reference: &str) -> Result<String, String> {
    use epochlab_core::lesson::link as lesson_link;
    let payload = lesson_link::inline_payload(reference).unwrap_or_default();
    match lesson_link::open(payload)? {
        Content::Layout(bytes) => lesson_link::text_of(bytes),
        Content::Deflated(bytes) => {
            lesson_link::text_of(inflate(&bytes).await.map_err(|e| lesson_link::lesson_words(&e))?)
        }
    }
}

/// The reference (`~<payload>`) that carries a lesson (its text, either form) in a link as JSON, compressed by
/// the browser.
pub async fn pack_lesson(text: &str) -> Result<String, String> {
    use epochlab_core::lesson::link as lesson_link;
    let compact = lesson_link::compact(&epochlab_core::lesson::text::to_json(text)?)?;
    lesson_link::reference(&compact, deflate(&compact).await.as_deref())
}
