//! The checker's Web Worker (a second wasm, built by Trunk from index.html's `data-type="worker"` link).

fn main() {
    epochlab::checker::worker::start();
}
