/* vramfit service worker: an offline copy of the app.
 *
 * index.html names every asset by its content hash (Trunk's filehash), so one cache holds one
 * consistent version: its name is a digest of index.html, and it holds that index.html and every
 * ./file it references. index.html is stored last, so a cache holding it is complete.
 *
 * - The page (this folder or its index.html, whatever the query): network first;
 *   a response whose digest has no complete cache yet is cached with its assets, then the older
 *   caches are deleted. With the network down, the newest complete copy is served.
 * - Files with a content hash in their name: from a cache (they never change meaning), else the
 *   network.
 * - Other files in scope (the reader worker's files and the languages, which the page asks for
 *   later rather than naming them in index.html, and are cached with it, see ON_DEMAND): network
 *   first; offline, the newest complete copy's file (a language's `?v=<hash>` query ignored).
 * Old JS never meets new wasm: each index.html asks for its own hashed file names.
 */
'use strict';
const PREFIX = 'vramfit-';
const SCOPE = self.registration.scope;            // the app's folder, ending in '/'
const PAGE = SCOPE;                                 // cache key of index.html
const CURRENT = PREFIX + 'current';                 // remembers which cache is the newest,
const POINTER = SCOPE + '.vramfit-current';         // under a key no request asks for

async function digest(text) {
  const buf = await crypto.subtle.digest('SHA-256', new TextEncoder().encode(text));
  return Array.from(new Uint8Array(buf).slice(0, 8), (b) => b.toString(16).padStart(2, '0')).join('');
}

/** Files the page fetches on demand: the header reader (a web worker started on the first
 * dropped file) and the six languages other than English. */
const ON_DEMAND = ['./vramfit-reader_loader.js', './vramfit-reader.js', './vramfit-reader_bg.wasm']
  .concat(['de', 'es', 'fr', 'it', 'pl', 'sl'].map((tag) => `./lang/${tag}.json`));

/** Every './…' file index.html references (icon, JS, both wasm modules, manifest; the CSS is
 * inline), and ON_DEMAND. */
function assets(html) {
  const out = new Set();
  for (const m of html.matchAll(/["'](\.\/[^"'?#\s]+)["']/g)) out.add(new URL(m[1], SCOPE).href);
  for (const rel of ON_DEMAND) out.add(new URL(rel, SCOPE).href);
  return [...out];
}

/** A content hash in the file name (`name-0123456789abcdef.ext`, `…_bg.wasm`, `…_rest.wasm`). */
function hashed(url) {
  return /-[0-9a-f]{1,16}(_bg|_rest)?\.[a-z]+$/.test(url.pathname);
}

/** Caches the version `html` describes (unless already complete) and deletes the others. */
async function store(response) {
  const html = await response.clone().text();
  const name = PREFIX + (await digest(html));
  const cache = await caches.open(name);
  if (!(await cache.match(PAGE))) {
    await cache.addAll(assets(html).map((u) => new Request(u, { cache: 'no-cache' })));
    await cache.put(PAGE, new Response(html, { headers: { 'content-type': 'text/html; charset=utf-8' } }));
  }
  const meta = await caches.open(CURRENT);
  await meta.put(POINTER, new Response(name));
  for (const key of await caches.keys()) {
    if (key.startsWith(PREFIX) && key !== name && key !== CURRENT) await caches.delete(key);
  }
}

/** The newest complete copy's response for `req` (the page itself for PAGE). */
async function newest(req, options) {
  const meta = await caches.open(CURRENT);
  const pointer = await meta.match(POINTER);
  if (!pointer) return undefined;
  return (await caches.open(await pointer.text())).match(req, options);
}

async function newestPage() {
  return newest(PAGE);
}

function isPage(url) {
  return url.origin === location.origin && (url.pathname === new URL(SCOPE).pathname ||
    url.pathname === new URL('index.html', SCOPE).pathname);
}

self.addEventListener('install', (event) => {
  event.waitUntil((async () => {
    const res = await fetch(new Request(SCOPE, { cache: 'no-cache' }));
    if (res.ok) await store(res);
    await self.skipWaiting();
  })());
});

self.addEventListener('activate', (event) => {
  event.waitUntil(self.clients.claim());
});

self.addEventListener('fetch', (event) => {
  const req = event.request;
  if (req.method !== 'GET') return;
  const url = new URL(req.url);
  if (!url.href.startsWith(SCOPE)) return;
  if (isPage(url)) {
    event.respondWith((async () => {
      try {
        const res = await fetch(req);
        if (res.ok) event.waitUntil(store(res.clone()).catch(() => {}));
        return res;
      } catch (err) {
        const page = await newestPage();
        if (page) return page;
        throw err;
      }
    })());
    return;
  }
  if (hashed(url)) {
    event.respondWith((async () => (await caches.match(req)) || fetch(req))());
    return;
  }
  event.respondWith((async () => {
    try {
      return await fetch(req);
    } catch (err) {
      const copy = await newest(req, { ignoreSearch: true });
      if (copy) return copy;
      throw err;
    }
  })());
});
