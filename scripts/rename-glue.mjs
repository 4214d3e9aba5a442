// Rewrite a wasm-bindgen glue to match a wasm whose names binaryen shortened: `node rename-glue.mjs MAP.json X.js`.
//
// scripts/minify-glue.sh runs `wasm-opt --minify-imports-and-exports-and-modules` on each release wasm, which
// renames every import (its module and its field) and every export to one or two characters and prints the
// renaming as JSON: {"imports": [[module, field, new field], …], "exports": [[old, new], …]}, the modules all
// becoming `a`. The glue names each import as a key of its import object (exactly once), the module as that
// object's quoted key, and the exports it calls as `wasm.NAME`: each is renamed here, or nothing is written and
// the build fails (a name the glue did not define would be a module that cannot start).
import { readFileSync, writeFileSync } from 'node:fs';

const [mapPath, jsPath] = process.argv.slice(2);
if (!mapPath || !jsPath) {
  console.error('usage: node rename-glue.mjs MAP.json MODULE.js');
  process.exit(2);
}

const escape = (s) => s.replace(/[$]/g, '\\$');
/** `js` with every match of `pattern` replaced by `to`, and how many there were. */
function replaceAll(js, pattern, to) {
  let found = 0;
  return [js.replace(pattern, () => (found++, to)), found];
}

// wasm-opt prints the map on stdout, after anything else it may say.
const text = readFileSync(mapPath, 'utf8');
const map = JSON.parse(text.slice(text.indexOf('{')));
let js = readFileSync(jsPath, 'utf8');
let found;

const modules = new Set(map.imports.map(([module]) => module));
for (const module of modules) {
  // Only the glue's own imports: a snippet's fields would be its export names, which this does not rename.
  if (!module.endsWith('_bg.js')) throw new Error(`${jsPath}: an import from ${module}, not the glue`);
  [js, found] = replaceAll(js, new RegExp(escape(JSON.stringify(module)), 'g'), '"a"');
  if (found !== 1) throw new Error(`${jsPath}: the module ${module} stands ${found} times in the glue, not once`);
}
for (const [, from, to] of map.imports) {
  [js, found] = replaceAll(js, new RegExp(`(?<![\\w$])${escape(from)}(?![\\w$])`, 'g'), to);
  if (found !== 1) throw new Error(`${jsPath}: the import ${from} stands ${found} times in the glue, not once`);
}
let called = 0;
for (const [from, to] of map.exports) {
  [js, found] = replaceAll(js, new RegExp(`(?<=\\bwasm\\.)${escape(from)}(?![\\w$])`, 'g'), to);
  if (found > 0) called++;
}
const exported = new Set(map.exports.map(([, to]) => to));
for (const [use, name] of js.matchAll(/\bwasm\.([\w$]+)/g)) {
  if (!exported.has(name)) throw new Error(`${jsPath}: ${use} is no export of the minified wasm`);
}
writeFileSync(jsPath, js);
console.log(`rename-glue: ${map.imports.length} imports and ${called} of ${map.exports.length} exports renamed in ${jsPath}`);
