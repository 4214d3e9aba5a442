// Shorten the names a wasm module imports from its wasm-bindgen glue: `node minify-imports.mjs X_bg.wasm X.js`.
//
// wasm-bindgen names each import after the function it calls and a 16-digit hash (`__wbg_addEventListener_
// 847fd86b8c33ec43`), and the name is written twice: in the wasm's import section and as a key of the glue's
// import object. Random hex does not compress: renaming the page's 184 imports to one or two letters saves
// about 4 KB of its gzipped first download. Only the import section and the glue's keys change, each name
// exactly once in the glue, or nothing is written and the build fails (a name the glue did not define would
// be a module that cannot start). Run by scripts/minify-glue.sh before terser, in release builds only.
import { readFileSync, writeFileSync } from 'node:fs';

const [wasmPath, jsPath] = process.argv.slice(2);
if (!wasmPath || !jsPath) {
  console.error('usage: node minify-imports.mjs MODULE_bg.wasm MODULE.js');
  process.exit(2);
}

/** An unsigned LEB128 number at `at`: [value, the offset after it]. */
function leb(bytes, at) {
  let value = 0;
  let shift = 0;
  for (;;) {
    const byte = bytes[at++];
    value += (byte & 0x7f) * 2 ** shift;
    shift += 7;
    if (byte < 0x80) return [value, at];
  }
}

function toLeb(value) {
  const out = [];
  do {
    let byte = value % 128;
    value = Math.floor(value / 128);
    if (value > 0) byte |= 0x80;
    out.push(byte);
  } while (value > 0);
  return out;
}

/** The offset after an import's descriptor (function, table, memory, global or tag) at `at`. */
function skipDescriptor(bytes, at) {
  const kind = bytes[at++];
  const limits = (p) => {
    const flags = bytes[p++];
    p = leb(bytes, p)[1];
    return flags & 1 ? leb(bytes, p)[1] : p;
  };
  switch (kind) {
    case 0: return leb(bytes, at)[1];
    case 1: return limits(at + 1);
    case 2: return limits(at);
    case 3: return at + 2;
    case 4: return leb(bytes, at + 1)[1];
    default: throw new Error(`an import of unknown kind ${kind}`);
  }
}

/** `a`, `b`, … `Z`, then `aa`, `ab`, …: never a JavaScript word, and never `__proto__`. */
function shortName(i) {
  const letters = 'abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ';
  let name = '';
  do {
    name = letters[i % 52] + name;
    i = Math.floor(i / 52) - 1;
  } while (i >= 0);
  return ['do', 'if', 'in'].includes(name) ? `${name}_` : name;
}

/** The import section rewritten with short field names, and the renaming. */
function renameImports(body) {
  const text = new TextDecoder();
  const [count, start] = leb(body, 0);
  const out = [...toLeb(count)];
  const renamed = new Map();
  let at = start;
  for (let i = 0; i < count; i++) {
    const [moduleLength, moduleAt] = leb(body, at);
    const moduleEnd = moduleAt + moduleLength;
    const [fieldLength, fieldAt] = leb(body, moduleEnd);
    const field = text.decode(body.subarray(fieldAt, fieldAt + fieldLength));
    const after = skipDescriptor(body, fieldAt + fieldLength);
    // Only the glue's own imports: a snippet's are named by its exports.
    const glue = text.decode(body.subarray(moduleAt, moduleEnd)).endsWith('_bg.js');
    const short = glue ? shortName(renamed.size) : field;
    if (glue) renamed.set(field, short);
    out.push(...body.subarray(at, moduleEnd), ...toLeb(Buffer.byteLength(short)), ...Buffer.from(short));
    out.push(...body.subarray(fieldAt + fieldLength, after));
    at = after;
  }
  return [Uint8Array.from(out), renamed];
}

/** The wasm with its import section rewritten, and the renaming. */
function rewriteWasm(bytes) {
  const parts = [bytes.subarray(0, 8)];
  let renamed = new Map();
  let at = 8;
  while (at < bytes.length) {
    const id = bytes[at];
    const [size, bodyAt] = leb(bytes, at + 1);
    const body = bytes.subarray(bodyAt, bodyAt + size);
    if (id === 2) {
      const [section, names] = renameImports(body);
      renamed = names;
      parts.push(Uint8Array.of(2, ...toLeb(section.length)), section);
    } else {
      parts.push(bytes.subarray(at, bodyAt + size));
    }
    at = bodyAt + size;
  }
  return [Buffer.concat(parts), renamed];
}

/** The glue with each import object's key renamed; every name must stand in it exactly once. */
function rewriteGlue(js, renamed) {
  for (const [from, to] of renamed) {
    const pattern = new RegExp(`(?<![\\w$])${from.replace(/\$/g, '\\$')}(?![\\w$])`, 'g');
    const found = js.match(pattern)?.length ?? 0;
    if (found !== 1) throw new Error(`${jsPath}: the import ${from} stands ${found} times in the glue, not once`);
    js = js.replace(pattern, to);
  }
  return js;
}

const [wasm, renamed] = rewriteWasm(readFileSync(wasmPath));
const glue = rewriteGlue(readFileSync(jsPath, 'utf8'), renamed);
writeFileSync(wasmPath, wasm);
writeFileSync(jsPath, glue);
console.log(`minify-imports: ${renamed.size} imports of ${wasmPath} renamed`);
