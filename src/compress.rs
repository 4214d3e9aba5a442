//! Raw DEFLATE (RFC 1951) by the browser's own `CompressionStream` and `DecompressionStream`, for share
//! links. A DEFLATE implementation compiled into the app would cost about 16 KB of the gzipped download;
//! the browser has one already. The core's `share::encode` / `decode` (the CLI's) use miniz_oxide and make
//! and read the same links.

use epochlab_core::share::{inflate_error, ShareError, MAX_LAYOUT};
use wasm_bindgen::prelude::*;

#[wasm_bindgen(inline_js = r#"
const stream = (bytes, transform) => new Blob([bytes]).stream().pipeThrough(transform);

export async function deflateRaw(bytes) {
  const out = new Response(stream(bytes, new CompressionStream("deflate-raw")));
  return new Uint8Array(await out.arrayBuffer());
}

// Stops reading past `limit` bytes (a small link may unpack to gigabytes) and returns null then.
export async function inflateRaw(bytes, limit) {
  const reader = stream(bytes, new DecompressionStream("deflate-raw")).getReader();
  const parts = [];
  let total = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    total += value.length;
    if (total > limit) {
      await reader.cancel();
      return null;
    }
    parts.push(value);
  }
  const out = new Uint8Array(total);
  let at = 0;
  for (const part of parts) {
    out.set(part, at);
    at += part.length;
  }
  return out;
}
"#)]
extern "C" {
    #[wasm_bindgen(catch, js_name = deflateRaw)]
    async fn deflate_raw(bytes: &[u8]) -> Result<JsValue, JsValue>;
    #[wasm_bindgen(catch, js_name = inflateRaw)]
    async fn inflate_raw(bytes: &[u8], limit: u32) -> Result<JsValue, JsValue>;
}

/// `bytes` as raw DEFLATE; `None` where the browser cannot compress (the link is then left uncompressed).
pub async fn deflate(bytes: &[u8]) -> Option<Vec<u8>> {
    let out = deflate_raw(bytes).await.ok()?;
    out.dyn_into::<js_sys::Uint8Array>().ok().map(|a| a.to_vec())
}

/// Raw DEFLATE unpacked to at most [`MAX_LAYOUT`] bytes, with the errors `share::decode` gives.
pub async fn inflate(bytes: &[u8]) -> Result<Vec<u8>, ShareError> {
    let limit = u32::try_from(MAX_LAYOUT).unwrap_or(u32::MAX);
    match inflate_raw(bytes, limit).await {
        Ok(out) if out.is_null() => Err(inflate_error(true)),
        Ok(out) => out.dyn_into::<js_sys::Uint8Array>().map(|a| a.to_vec()).map_err(|_| inflate_error(false)),
        // Not DEFLATE, or no DecompressionStream in this browser.
        Err(_) => Err(inflate_error(false)),
    }
}
