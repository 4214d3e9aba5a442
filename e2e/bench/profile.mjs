// CPU profiles of drops, for `drop-to-paint.mjs --profile` (scripts/profile-drop.sh): which functions take the
// page's main thread per drop, and which of them grow with the scenario's size. A profile is taken around each
// drop alone (from just before the release until the new chip is painted), through the Chrome DevTools
// Protocol, so the Delete that follows and the debounced saves are not in it.
//
// Time spent in the browser's own code (style, layout, paint) has no JS frame: V8 counts it as "(program)",
// except the layout the probe forces right after the drop, which is the self time of `layoutAfterDrop`;
// DOM calls from the app show as theirs (removeChild, setAttribute, ...).
// Wasm functions carry the names of the wasm's name section, which the release build strips: profile the copy
// that scripts/profile-drop.sh makes, optimised the same way but with the names kept (wasm-opt -g).

/** Sampling interval in microseconds: a drop takes a few milliseconds, so a fine one. */
const SAMPLING_US = 100;

/** A profiler on `page`: each start() to stop() adds one profile to `profiles`. */
export async function profiler(page) {
  const cdp = await page.context().newCDPSession(page);
  await cdp.send('Profiler.enable');
  await cdp.send('Profiler.setSamplingInterval', { interval: SAMPLING_US });
  const profiles = [];
  return {
    profiles,
    start: () => cdp.send('Profiler.start'),
    stop: async () => profiles.push((await cdp.send('Profiler.stop')).profile),
  };
}

/** What a profile node stands for: its function's name, and where it lives (wasm, JS file or the browser). */
function frameKey({ functionName, url }) {
  // Rust symbols carry hashes (a trailing ::h0123456789abcdef, or each crate's [0123456789abcdef] in v0
  // names) that say nothing to a reader, except which of Yew's component `view`s it is: KEEP_HASH=1 keeps
  // them (then look the hash up in the wasm's call graph).
  const plain = functionName || '(anonymous)';
  const name = process.env.KEEP_HASH ? plain : plain.replace(/::h[0-9a-f]{16}$/, '').replace(/\[[0-9a-f]{16}\]/g, '');
  const file = url.split('/').at(-1).split('?')[0];
  if (file.endsWith('.wasm') || url.startsWith('wasm://')) return `wasm ${name}`;
  if (!url) return name;
  return `js ${name} (${file})`;
}

/**
 * Time in ms per frame key over one profile, idle time left out: `self` counts a sample for the function it
 * was in, `total` for every function on its stack (once each), so a caller's total includes its callees.
 */
export function times(profile) {
  const byId = new Map(profile.nodes.map((n) => [n.id, n]));
  const parent = new Map(profile.nodes.flatMap((n) => (n.children ?? []).map((c) => [c, n.id])));
  const self = new Map();
  const total = new Map();
  const add = (map, key, ms) => map.set(key, (map.get(key) ?? 0) + ms);
  // Sample k lasts until sample k + 1 (the last one's length is unknown and left out).
  for (let k = 0; k + 1 < profile.samples.length; k++) {
    const id = profile.samples[k];
    const ms = profile.timeDeltas[k + 1] / 1000;
    const key = frameKey(byId.get(id).callFrame);
    if (key === '(idle)') continue;
    add(self, key, ms);
    const stack = new Set();
    for (let n = id; n !== undefined; n = parent.get(n)) stack.add(frameKey(byId.get(n).callFrame));
    for (const k2 of stack) add(total, k2, ms);
  }
  return { self, total };
}

/** Mean self and total time per drop, per frame key, over many drops' profiles. */
export function perDrop(profiles) {
  const self = new Map();
  const total = new Map();
  const add = (into, from) => from.forEach((ms, key) => into.set(key, (into.get(key) ?? 0) + ms / profiles.length));
  for (const p of profiles) {
    const t = times(p);
    add(self, t.self);
    add(total, t.total);
  }
  return { self, total };
}

const sum = (times) => [...times.values()].reduce((a, b) => a + b, 0);
const fmt = (x) => x.toFixed(2);
const largest = (entries, top) => [...entries].sort((a, b) => b[1] - a[1]).slice(0, top);

/**
 * The top functions by self time in one case, then the app's own wasm functions (the epochlab and
 * epochlab_core crates, not Yew's or wasm-bindgen's wrappers around them) with the most total time.
 */
export function printTop(label, { self, total }, top = 15) {
  console.log(`profile [${label}]: ${fmt(sum(self))} ms of the main thread per drop (idle left out); top self time:`);
  for (const [key, ms] of largest(self, top)) console.log(`  ${fmt(ms).padStart(6)} ms  ${key}`);
  console.log(`  the app's wasm functions by total time (self + callees):`);
  const own = [...total].filter(([key]) => /^wasm (<)?epochlab(_core)?::/.test(key));
  for (const [key, ms] of largest(own, top)) console.log(`  ${fmt(ms).padStart(6)} ms  ${key}`);
}

/** The functions whose self time per drop grows most from the smallest case to the largest. */
export function printGrowth(small, large, top = 15) {
  const [a, b] = [small.times.self, large.times.self];
  console.log(
    `profile growth from [${small.label}] to [${large.label}]: ${fmt(sum(a))} -> ${fmt(sum(b))} ms per drop; ` +
      'largest increases of self time:',
  );
  const keys = new Set([...a.keys(), ...b.keys()]);
  const rows = [...keys].map((key) => [key, a.get(key) ?? 0, b.get(key) ?? 0]);
  rows.sort((a, b) => b[2] - b[1] - (a[2] - a[1]));
  for (const [key, a, b] of rows.slice(0, top)) {
    console.log(`  ${fmt(a).padStart(6)} -> ${fmt(b).padStart(6)} ms  (+${fmt(b - a)})  ${key}`);
  }
}
