// Talc instead of the default dlmalloc: a smaller download (the page's wasm 2.4 KB less gzipped). The
// checker's worker keeps dlmalloc, which its large searches run faster on (make bench).
#[cfg(all(not(target_feature = "atomics"), target_family = "wasm"))]
#[global_allocator]
static TALC: talc::wasm::WasmDynamicTalc = talc::wasm::new_wasm_dynamic_allocator();

fn main() {
    epochlab::start();
}
