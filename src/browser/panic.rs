//! Never blank: a panic still leaves the page readable, with a banner that says what went wrong and a way
//! to reset. The hook writes the banner with plain DOM calls, since the app may no longer be running.

/// Escape text for an HTML attribute or body.
#[cfg(debug_assertions)]
fn escape(text: &str) -> String {
    text.replace('&', "&amp;").replace('<', "&lt;").replace('>', "&gt;").replace('"', "&quot;")
}

/// Install the hook: the console message (for developers) plus the banner (for everyone). Only debug
/// builds (`make serve`, the wasm tests) have it: in a release build a panic is a WebAssembly trap
/// (scripts/release-build.sh), which index.html's listener turns into the same banner.
pub fn install() {
    #[cfg(debug_assertions)]
    install_hook();
}

#[cfg(debug_assertions)]
fn install_hook() {
    std::panic::set_hook(Box::new(|info| {
        console_error_panic_hook::hook(info);
        let message = escape(&info.to_string());
        let Some(document) = web_sys::window().and_then(|w| w.document()) else { return };
        let Some(body) = document.body() else { return };
        if let Ok(banner) = document.create_element("div") {
            banner.set_class_name("fatal");
            let _ = banner.set_attribute("role", "alert");
            let _ = banner.set_attribute("data-testid", "fatal");
            banner.set_inner_html(&format!(
                "<strong>Epochlab hit an internal error.</strong> <span class=\"fatal__message\">{message}</span> \
                 <button type=\"button\" onclick=\"localStorage.removeItem('{key}'); location.reload()\">Reset and reload</button>",
                key = crate::browser::storage::KEY
            ));
            let _ = body.prepend_with_node_1(&banner);
        }
    }));
}
