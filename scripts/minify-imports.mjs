// Shorten the names a wasm module imports from its wasm-bindgen glue: `node minify-imports.mjs X_bg.wasm X.js`.
//
// wasm-bindgen names each import after the function it calls and a 16-digit hash (`__wbg_addEventListener_
// 847fd86b8c33ec43`), and the name is written twice: in the wasm's import section and as a key of the glue's
// import object. Random hex does not compress: renaming the page's 184 imports to one or two letters saves
// about 5 KB of its gzipped first download. The module they come from becomes `a`, and wasm-bindgen's own
// exports, which only the glue calls, `$0`, `$1`, …. Only the import and export sections and those names in
// the glue change, each import's name exactly once in the glue, or nothing is written and the build fails (a
// name the glue did not define would be a module that cannot start). Run by scripts/minify-glue.sh before
// terser, in release builds only.
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
    const module = text.decode(body.subarray(moduleAt, moduleEnd));
    const glue = module.endsWith('_bg.js');
    const short = glue ? shortName(renamed.size) : field;
    if (glue) renamed.set(field, short);
    if (glue) renamed.set(JSON.stringify(module), '"a"');
    out.push(...(glue ? [1, 97] : body.subarray(at, moduleEnd)));
    out.push(...toLeb(Buffer.byteLength(short)), ...Buffer.from(short));
    out.push(...body.subarray(fieldAt + fieldLength, after));
    at = after;
  }
  return [Uint8Array.from(out), renamed];
}

/** wasm-bindgen's own exports, which only its glue calls (`__wbindgen_malloc`, the closures' shims). */
const GLUE_EXPORT = /^(__wbindgen_|__externref_|wasm_bindgen_[0-9a-f]{16}___)/;

/** The export section with wasm-bindgen's own exports that the glue calls renamed `$0`, `$1`, …. */
function renameExports(body, renamed, glue) {
  const [count, start] = leb(body, 0);
  const out = [...toLeb(count)];
  let at = start;
  let n = 0;
  for (let i = 0; i < count; i++) {
    const [length, nameAt] = leb(body, at);
    const name = new TextDecoder().decode(body.subarray(nameAt, nameAt + length));
    const after = leb(body, nameAt + length + 1)[1];
    const called = GLUE_EXPORT.test(name) && replaceWord(glue, name, '')[1] > 0;
    const short = called ? `$${n++}` : name;
    if (short !== name) renamed.set(name, short);
    out.push(...toLeb(Buffer.byteLength(short)), ...Buffer.from(short), ...body.subarray(nameAt + length, after));
    at = after;
  }
  return Uint8Array.from(out);
}

/** The wasm with its import and export sections rewritten, and the renaming of each. */
function rewriteWasm(bytes, glue) {
  const parts = [bytes.subarray(0, 8)];
  let imports = new Map();
  const exports = new Map();
  let at = 8;
  while (at < bytes.length) {
    const id = bytes[at];
    const [size, bodyAt] = leb(bytes, at + 1);
    const body = bytes.subarray(bodyAt, bodyAt + size);
    let section = null;
    if (id === 2) [section, imports] = renameImports(body);
    if (id === 7) section = renameExports(body, exports, glue);
    parts.push(section ? Buffer.concat([Uint8Array.of(id, ...toLeb(section.length)), section]) : bytes.subarray(at, bodyAt + size));
    at = bodyAt + size;
  }
  return [Buffer.concat(parts), imports, exports];
}

/** `js` with every whole-word `from` replaced by `to`, and how many there were. */
function replaceWord(js, from, to) {
  const pattern = new RegExp(`(?<![\\w$])${from.replace(/\$/g, '\\$')}(?![\\w$])`, 'g');
  return [js.replace(pattern, () => to), js.match(pattern)?.length ?? 0];
}

/** The glue with each import object's key (exactly once each), each export it calls (at least once) and
 * the module's name renamed. */
function rewriteGlue(js, imports, exports) {
  let found;
  for (const [from, to] of imports) {
    // The module's name, quoted, is the import object's key: not a word, but as unique.
    [js, found] = from.startsWith('"') ? [js.replace(from, to), js.split(from).length - 1] : replaceWord(js, from, to);
    if (found !== 1) throw new Error(`${jsPath}: the import ${from} stands ${found} times in the glue, not once`);
  }
  for (const [from, to] of exports) {
    [js, found] = replaceWord(js, from, to);
    if (found === 0) throw new Error(`${jsPath}: the glue never calls the export ${from}`);
  }
  return js;
}

const original = readFileSync(jsPath, 'utf8');
const [wasm, imports, exports] = rewriteWasm(readFileSync(wasmPath), original);
const glue = rewriteGlue(original, imports, exports);
writeFileSync(wasmPath, wasm);
writeFileSync(jsPath, glue);
const fields = [...imports.keys()].filter((name) => !name.startsWith('"')).length;
console.log(`minify-imports: ${fields} imports and ${exports.size} exports of ${wasmPath} renamed`);
