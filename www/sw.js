/* vramfit service worker: an offline copy of the app.
 *
 * The post-build program lists every file of a version in `assets.json` (tools/postbuild/
 * manifest.js): its path, its role and its integrity hash. One cache holds one version: its name is
 * the manifest's `version`, and it holds the manifest and the files of the roles in OFFLINE, each
 * fetched with its integrity checked, the page stored last, so a cache holding the page is complete.
 *
 * - The page (this folder or its index.html, whatever the query): network first. A page whose hash
 *   is not the current copy's has the manifest fetched and its version cached, then the older
 *   caches are deleted. With the network down, the newest complete copy is served.
 * - Files with a content hash in their name or their query (`name-0123456789abcdef.ext`,
 *   `…_bg.wasm`, `…_rest.wasm`, a language's `?v=<hash>`): from a cache (they never change
 *   meaning), else as other files.
 * - Other files in scope (the reader worker's files): network first; offline, the newest complete
 *   copy's file (a query ignored).
 * Old JS never meets new wasm: each index.html asks for its own hashed file names.
 */
'use strict';
const PREFIX = 'vramfit-';
const SCOPE = self.registration.scope;            // the app's folder, ending in '/'
const PAGE = SCOPE;                                 // cache key of index.html
const MANIFEST = new URL('assets.json', SCOPE).href;
const CURRENT = PREFIX + 'current';                 // remembers which cache is the newest,
const POINTER = SCOPE + '.vramfit-current';         // under a key no request asks for

/** The roles of the files an offline copy holds (tools/postbuild/manifest.js names them). */
const OFFLINE = new Set(['page', 'js', 'wasm', 'wasm-rest', 'icon', 'manifest', 'reader', 'lang']);

/** The cache key of a manifest entry: the URL the app asks for. */
function keyOf(file) {
  return file.role === 'page' ? PAGE : new URL(file.url || file.path, SCOPE).href;
}

/** A content hash in the file name or the query (`?v=`). */
function hashed(url) {
  return /-[0-9a-f]{1,16}(_bg|_rest)?\.[a-z]+$/.test(url.pathname) || url.searchParams.has('v');
}

/** The Subresource Integrity value of a response's body (`sha384-<base64>`). */
async function integrity(response) {
  const buf = await crypto.subtle.digest('SHA-384', await response.clone().arrayBuffer());
  return 'sha384-' + btoa(String.fromCharCode(...new Uint8Array(buf)));
}

/** The current copy: { name, cache, manifest }, or null. */
async function current() {
  const pointer = await (await caches.open(CURRENT)).match(POINTER);
  if (!pointer) return null;
  const name = await pointer.text();
  const cache = await caches.open(name);
  const manifest = await cache.match(MANIFEST);
  return manifest ? { name, cache, manifest: await manifest.json() } : null;
}

/** The file of `manifest`, from the network, its integrity checked. A content-hashed name may come
 * from the browser's HTTP cache (the page has often just loaded it). */
async function download(file) {
  const url = file.role === 'page' ? SCOPE : keyOf(file);
  if (hashed(new URL(url))) {
    try {
      return await fetch(new Request(url, { integrity: file.integrity, cache: 'force-cache' }));
    } catch (_) { /* not in the HTTP cache as listed: the network */ }
  }
  const res = await fetch(new Request(url, { integrity: file.integrity, cache: 'no-cache' }));
  if (!res.ok) throw new Error(`${url}: HTTP ${res.status}`);
  return res;
}

/** Caches the files of `manifest` that `wanted(file)` selects into its version's cache (those it
 * does not hold yet: from the current copy when unchanged, the page from `page` (the response the
 * navigation got) when it is the one listed, else the network), the page last, and makes it the
 * current copy. */
async function store(manifest, wanted, page = null) {
  const name = PREFIX + manifest.version;
  const cache = await caches.open(name);
  const old = await current();
  const files = manifest.files.filter((f) => OFFLINE.has(f.role) && wanted(f));
  const put = async (file) => {
    if (await cache.match(keyOf(file))) return;
    const same = old && old.name !== name
      && old.manifest.files.some((f) => f.path === file.path && f.integrity === file.integrity);
    let copy = same && (await old.cache.match(keyOf(file)));
    if (!copy && file.role === 'page' && page && (await integrity(page)) === file.integrity) {
      copy = new Response(await page.clone().blob(), { headers: { 'content-type': 'text/html; charset=utf-8' } });
    }
    await cache.put(keyOf(file), copy || (await download(file)));
  };
  await Promise.all(files.filter((f) => f.role !== 'page').map(put));
  await cache.put(MANIFEST, new Response(JSON.stringify(manifest), { headers: { 'content-type': 'application/json' } }));
  for (const page of files.filter((f) => f.role === 'page')) await put(page);
  const meta = await caches.open(CURRENT);
  await meta.put(POINTER, new Response(name));
  for (const key of await caches.keys()) {
    if (key.startsWith(PREFIX) && key !== name && key !== CURRENT) await caches.delete(key);
  }
}

/** One update at a time (navigations and the install may ask at once). */
let queue = Promise.resolve();
function serially(task) {
  queue = queue.then(task, task);
  return queue;
}

/** Makes the version the server now has the current copy, unless `page` (a response for the page
 * just fetched) is the current copy's page already. */
function refresh(page) {
  return serially(async () => {
    const now = await current();
    if (page && now) {
      const listed = now.manifest.files.find((f) => f.role === 'page');
      if (listed && listed.integrity === (await integrity(page))) return;
    }
    const res = await fetch(new Request(MANIFEST, { cache: 'no-cache' }));
    if (!res.ok) return;
    const manifest = await res.json();
    if (!manifest || typeof manifest.version !== 'string' || !Array.isArray(manifest.files)) return;
    await store(manifest, () => true, page);
  });
}

/** The newest complete copy's response for `req` (the page itself for PAGE). */
async function newest(req, options) {
  const meta = await caches.open(CURRENT);
  const pointer = await meta.match(POINTER);
  if (!pointer) return undefined;
  return (await caches.open(await pointer.text())).match(req, options);
}

function isPage(url) {
  return url.origin === location.origin && (url.pathname === new URL(SCOPE).pathname ||
    url.pathname === new URL('index.html', SCOPE).pathname);
}

self.addEventListener('install', (event) => {
  event.waitUntil((async () => {
    await refresh(null).catch(() => {});
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
        if (res.ok) event.waitUntil(refresh(res.clone()).catch(() => {}));
        return res;
      } catch (err) {
        const page = await newest(PAGE);
        if (page) return page;
        throw err;
      }
    })());
    return;
  }
  event.respondWith((async () => {
    if (hashed(url)) {
      const copy = await caches.match(req);
      if (copy) return copy;
    }
    try {
      return await fetch(req);
    } catch (err) {
      const copy = await newest(req, { ignoreSearch: true });
      if (copy) return copy;
      throw err;
    }
  })());
});
