// What a wasm file is made of: bytes per section (code, data, the rest) and, for a build that kept
// its function names (wasm-opt -g), code bytes per crate. Used by bench.js; also runnable:
//   node wasm-size.js FILE.wasm
// Sizes are raw bytes and gzip -9 of those bytes alone (a part compresses a little worse alone
// than inside the whole file, so the gzip column sums to slightly more than the file's gzip).
const fs = require('fs');
const zlib = require('zlib');

const gz = (buf) => zlib.gzipSync(buf, { level: 9 }).length;

/** Parses the module: sections, function bodies (with names when present), data segments. */
function parse(buf) {
  let i = 8;
  const leb = () => {
    let r = 0;
    let s = 0;
    let x;
    do {
      x = buf[i++];
      r += (x & 0x7f) * 2 ** s;
      s += 7;
    } while (x & 0x80);
    return r;
  };
  const sections = [];
  const bodies = [];
  const names = new Map();
  let imported = 0;
  while (i < buf.length) {
    const id = buf[i++];
    const size = leb();
    const start = i;
    let custom = null;
    if (id === 0) {
      const len = leb();
      custom = buf.slice(i, i + len).toString();
      i += len;
      if (custom === 'name') {
        while (i < start + size) {
          const sub = buf[i++];
          const subSize = leb();
          const subStart = i;
          if (sub === 1) {
            const n = leb();
            for (let k = 0; k < n; k++) {
              const idx = leb();
              const l = leb();
              names.set(idx, buf.slice(i, i + l).toString());
              i += l;
            }
          }
          i = subStart + subSize;
        }
      }
    } else if (id === 2) {
      const n = leb();
      for (let k = 0; k < n; k++) {
        for (let s = 0; s < 2; s++) { const l = leb(); i += l; }
        const kind = buf[i++];
        if (kind === 0) { leb(); imported++; } else if (kind === 1) { i++; const f = buf[i++]; leb(); if (f & 1) leb(); } else if (kind === 2) { const f = buf[i++]; leb(); if (f & 1) leb(); } else if (kind === 3) { i += 2; } else { i++; leb(); }
      }
    } else if (id === 10) {
      const n = leb();
      for (let k = 0; k < n; k++) {
        const len = leb();
        bodies.push({ index: imported + k, bytes: buf.slice(i, i + len) });
        i += len;
      }
    }
    sections.push({ id, custom, bytes: buf.slice(start, start + size) });
    i = start + size;
  }
  for (const b of bodies) b.name = names.get(b.index) || '';
  return { sections, bodies };
}

/** The crate a (demangled) function name belongs to: the path it starts with, or the trait's. */
function crateOf(name) {
  let n = name.replace(/\[[0-9a-f]{16}\]/g, '').replace(/^<(&mut |&|\*const |\*mut )?/, '');
  let first = n.split('::')[0];
  if (/^[A-Z][A-Za-z0-9]*( as |$)/.test(first) || first.startsWith('impl ') || first.startsWith('(') || first.startsWith('[')) {
    const as = n.indexOf(' as ');
    if (as >= 0) first = n.slice(as + 4).split('::')[0];
  }
  first = first.split(' as ')[0].split('<')[0];
  return /^[a-z_][a-z0-9_]*$/.test(first) && n.includes('::') ? first : '(no crate: runtime, glue)';
}

/** `{ total, sections: [{name, raw, gzip}], crates: [{name, raw, gzip}] | null }`. */
function analyse(file) {
  const buf = fs.readFileSync(file);
  const { sections, bodies } = parse(buf);
  const part = (name, list) => {
    const bytes = Buffer.concat(list.map((s) => s.bytes));
    return { name, raw: bytes.length, gzip: gz(bytes) };
  };
  const named = (s) => s.custom !== null;
  const out = [
    part('code', sections.filter((s) => s.id === 10)),
    part('data', sections.filter((s) => s.id === 11)),
    part('names (debug)', sections.filter((s) => named(s) && s.custom === 'name')),
    part('everything else', sections.filter((s) => s.id !== 10 && s.id !== 11 && !(named(s) && s.custom === 'name'))),
  ].filter((p) => p.raw > 0);
  let crates = null;
  if (bodies.some((b) => b.name)) {
    const by = new Map();
    for (const b of bodies) {
      const c = crateOf(b.name);
      if (!by.has(c)) by.set(c, []);
      by.get(c).push(b);
    }
    crates = [...by.entries()].map(([name, list]) => part(name, list)).sort((a, b) => b.raw - a.raw);
  }
  return { total: { raw: buf.length, gzip: gz(buf) }, sections: out, crates };
}

module.exports = { analyse };

if (require.main === module) {
  const r = analyse(process.argv[2]);
  console.log(`total ${r.total.raw} B raw, ${r.total.gzip} B gzip`);
  for (const s of r.sections) console.log(`${s.name.padEnd(28)} ${String(s.raw).padStart(9)} ${String(s.gzip).padStart(9)}`);
  for (const c of r.crates || []) console.log(`${c.name.padEnd(28)} ${String(c.raw).padStart(9)} ${String(c.gzip).padStart(9)}`);
}
