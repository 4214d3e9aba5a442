//! The checker's Web Worker: a search runs in slices of about 25 ms, each followed by a progress report and
//! a return to the worker's event loop, so a cancel is heard between slices. The next slice is a message
//! the worker posts itself on a `MessageChannel`, not a zero-delay timeout: nested timeouts are clamped to
//! 4 ms, which idled the search a sixth of the time. Requests and replies are the enums of [`protocol`],
//! one JSON text each.
//!
//! On start, before any request, the worker runs a small search of its own and says nothing about it
//! (`warm_up`): V8 first runs wasm from its baseline compiler and moves hot functions to its optimising one
//! as they run, so without it the user's first search ran about a fifth slower than the next (at 3 brokers
//! on this project's machine, 180k against 235k states per second; `make bench` prints a first run and a
//! median). A request drops it at once.

use std::cell::RefCell;
use std::rc::Rc;

use epochlab_core::checker::{CheckConfig, Search, Stamp};
use wasm_bindgen::prelude::*;
use wasm_bindgen::JsCast;
use web_sys::{DedicatedWorkerGlobalScope, MessageChannel, MessageEvent, MessagePort};

use super::protocol::{CheckReply, CheckRequest};
use super::verdict;

/// Milliseconds of search between reports.
const SLICE_MS: f64 = 25.0;
/// Nodes expanded between looks at the clock.
const NODES_PER_LOOK: u64 = 128;

struct Running {
    /// The warm-up: nothing is posted about it.
    silent: bool,
    config: CheckConfig,
    /// A re-check's stamp.
    claim: Option<Stamp>,
    search: Search,
    started: f64,
}

struct State {
    running: Option<Running>,
    /// Bumped by every new search or cancel, so a slice scheduled for an older one does nothing.
    generation: u64,
    /// Where the next slice is posted (its generation); the other end runs it.
    next: MessagePort,
}

type Shared = Rc<RefCell<State>>;

fn scope() -> DedicatedWorkerGlobalScope {
    js_sys::global().unchecked_into()
}

fn post(reply: &CheckReply) {
    let _ = scope().post_message(&JsValue::from_str(&reply.to_json()));
}

fn seconds_since(started: f64) -> f64 {
    (js_sys::Date::now() - started) / 1000.0
}

/// The worker's entry point: listen, and say it is ready.
pub fn start() {
    let state = slices();
    let shared = state.clone();
    let onmessage = Closure::<dyn Fn(MessageEvent)>::new(move |e: MessageEvent| {
        let text = e.data().as_string().unwrap_or_default();
        received(&shared, &text);
    });
    scope().set_onmessage(Some(onmessage.as_ref().unchecked_ref()));
    onmessage.forget();
    post(&CheckReply::Ready);
    warm_up(&state);
}

/// The warm-up search: kafka-2.1, which has no failure to find and so runs every hot path to the end, with
/// 3 brokers at depth 7 (about 44,000 states, a fifth of a second here). The default bounds' 8,000 states
/// were too few: the first search after them still ran a fifth slower than the next.
fn warm_up(state: &Shared) {
    let config =
        CheckConfig { variant: epochlab_core::Variant::Kafka21, brokers: 3, depth: 7, ..CheckConfig::default() };
    start_search(state, config, None, true);
}

fn start_search(state: &Shared, config: CheckConfig, claim: Option<Stamp>, silent: bool) {
    let mut s = state.borrow_mut();
    s.generation += 1;
    let search = Search::new(&config);
    s.running = Some(Running { silent, config, claim, search, started: js_sys::Date::now() });
    next_slice(&s.next, s.generation);
}

fn received(state: &Shared, text: &str) {
    match CheckRequest::from_json(text) {
        Ok(CheckRequest::Check { search, claim }) => start_search(state, *search, claim, false),
        Ok(CheckRequest::Cancel) => {
            let mut s = state.borrow_mut();
            s.generation += 1;
            if let Some(mut run) = s.running.take().filter(|run| !run.silent) {
                let result = run.search.cancel();
                post(&verdict::finished(&run.config, &result, seconds_since(run.started), run.claim.as_ref()));
            }
        }
        Ok(CheckRequest::Shrink { scenario, variant }) => post(&verdict::shrunk(&scenario, variant)),
        Err(e) => post(&verdict::failed(&e)),
    }
}

/// The state, with a channel whose far end runs a slice for each generation posted to it.
fn slices() -> Shared {
    let channel = MessageChannel::new().expect("a worker has MessageChannel");
    let state = Rc::new(RefCell::new(State { running: None, generation: 0, next: channel.port1() }));
    let shared = state.clone();
    let run = Closure::<dyn Fn(MessageEvent)>::new(move |e: MessageEvent| {
        let generation = e.data().as_f64().map_or(u64::MAX, |g| g as u64);
        slice(&shared, generation);
    });
    channel.port2().set_onmessage(Some(run.as_ref().unchecked_ref()));
    run.forget();
    state
}

fn next_slice(next: &MessagePort, generation: u64) {
    // Generations stay far below 2^53, so they pass through a JS number exactly.
    let _ = next.post_message(&JsValue::from_f64(generation as f64));
}

fn slice(state: &Shared, generation: u64) {
    let mut s = state.borrow_mut();
    if s.generation != generation {
        return;
    }
    let Some(run) = s.running.as_mut() else { return };
    let until = js_sys::Date::now() + SLICE_MS;
    // Each look expands at least one node, so a slice ends with the search or the time, whichever first.
    let ended = loop {
        if let Some(result) = run.search.run(NODES_PER_LOOK) {
            break Some(result);
        }
        if js_sys::Date::now() >= until {
            break None;
        }
    };
    let seconds = seconds_since(run.started);
    match ended {
        Some(result) => {
            if !run.silent {
                post(&verdict::finished(&run.config, &result, seconds, run.claim.as_ref()));
            }
            s.running = None;
        }
        None => {
            if !run.silent {
                post(&verdict::progress(&run.search.progress(), run.config.depth, seconds));
            }
            next_slice(&s.next, generation);
        }
    }
}
