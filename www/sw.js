/* vramfit service worker: an offline copy of the app.
 *
 * The post-build program lists every file of a version in `assets.json` (tools/postbuild/
 * manifest.js): its path, its role and its integrity hash. One cache holds one version: its name is
 * the manifest's `version`; it holds the manifest and files of the roles in OFFLINE, each checked
 * against its hash, the page stored last, so a cache holding the page is complete.
 *
 * What a copy holds (ARCHITECTURE.md, "First-visit caching", says why):
 * - up front, with the page: the app itself (UP_FRONT) and the visitor's language (the page's
 *   `lang=`, else the browser's first language the app has, as the app chooses it);
 * - when first used: another language, the header reader's worker (the page fetches them through
 *   this worker, which keeps each response that matches the manifest);
 * - everything in OFFLINE once the page posts `{type: 'cache-all'}` (a "keep everything for
 *   offline use" control), for this version and the next ones, until it posts
 *   `{type: 'cache-all', enabled: false}`; `{type: 'cache-status'}` asks what is kept. Each is
 *   answered, on the message's port if it has one, else to the page, with
 *   `{type, all, version, cached, missing, missingBytes}` (or `{type, error}`).
 * A new version keeps what the visitor had in the old one: unchanged files are copied, changed
 * ones fetched.
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

const ALL = SCOPE + '.vramfit-all';                 // in CURRENT: the visitor keeps everything

/** The roles of the files cached with the page (tools/postbuild/manifest.js names them). */
const UP_FRONT = new Set(['page', 'js', 'wasm', 'wasm-rest', 'icon', 'manifest']);
/** The roles of the files an offline copy can hold: the others when first used. */
const OFFLINE = new Set([...UP_FRONT, 'reader', 'lang']);

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

/** The file of `manifest`, from the network, its integrity checked. A content-hashed name, or the
 * page under the address a window of the app opened it at, may come from the browser's HTTP cache
 * (the page has often just loaded it). */
async function download(file) {
  const url = file.role === 'page' ? SCOPE : keyOf(file);
  const cached = file.role === 'page' ? await pageUrls() : hashed(new URL(url)) ? [url] : [];
  for (const u of cached) {
    try {
      return await fetch(new Request(u, { integrity: file.integrity, cache: 'force-cache' }));
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

/** Whether the visitor asked to keep everything. */
async function keepsAll() {
  return !!(await (await caches.open(CURRENT)).match(ALL));
}

/** The languages the pages at `urls` open in, as the app chooses (crates/vramfit-web/src/platform/lang.rs):
 * the link's `lang=`, else the browser's first language among the manifest's and English. */
function languages(manifest, urls) {
  const tags = new Set(manifest.files.filter((f) => f.role === 'lang').map((f) => f.lang));
  const ours = (tag) => {
    const primary = String(tag).split(/[-_]/)[0].toLowerCase();
    return primary === 'en' || tags.has(primary) ? primary : null;
  };
  const browser = (self.navigator.languages || []).map(ours).find(Boolean) || 'en';
  const out = new Set(urls.map((u) => ours(new URL(u).searchParams.get('lang') || '') || browser));
  return out.size ? out : new Set([browser]);
}

/** The URLs of the app's windows (the page that registered this worker among them). */
async function pageUrls() {
  const windows = await self.clients.matchAll({ type: 'window', includeUncontrolled: true });
  return windows.map((c) => c.url).filter((u) => isPage(new URL(u)));
}

/** Which files of `manifest` a copy holds: the app, the languages `langs`, what the current copy
 * holds besides (another language, the reader, used before), everything when the visitor keeps
 * everything. */
async function selection(manifest, langs) {
  const all = await keepsAll();
  const now = await current();
  const held = new Set();
  if (now) {
    const keys = new Set((await now.cache.keys()).map((r) => r.url));
    for (const f of now.manifest.files) if (keys.has(keyOf(f))) held.add(f.path);
  }
  return (f) => UP_FRONT.has(f.role) || all || held.has(f.path) || (f.role === 'lang' && langs.has(f.lang));
}

/** Makes the version the server now has the current copy, unless `page` (a response for the page
 * just fetched, at `url`) is the current copy's page already. */
function refresh(page, url) {
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
    const langs = languages(manifest, url ? [url] : await pageUrls());
    await store(manifest, await selection(manifest, langs), page);
  });
}

/** Keeps `res`, the network's response for `url`, in the current copy when the manifest lists it
 * (a language, the reader: what the copy holds once used) and it is the file listed. */
function keep(url, res) {
  return serially(async () => {
    const now = await current();
    const file = now && now.manifest.files.find((f) => OFFLINE.has(f.role) && keyOf(f) === url);
    if (!file || (await now.cache.match(url)) || (await integrity(res)) !== file.integrity) return;
    await now.cache.put(url, res);
  });
}

/** What the current copy holds and misses of OFFLINE. */
async function status() {
  const now = await current();
  if (!now) return { all: await keepsAll(), version: null, cached: [], missing: [], missingBytes: 0 };
  const keys = new Set((await now.cache.keys()).map((r) => r.url));
  const files = now.manifest.files.filter((f) => OFFLINE.has(f.role));
  const missing = files.filter((f) => !keys.has(keyOf(f)));
  return {
    all: await keepsAll(),
    version: now.manifest.version,
    cached: files.filter((f) => keys.has(keyOf(f))).map((f) => f.path),
    missing: missing.map((f) => f.path),
    missingBytes: missing.reduce((sum, f) => sum + f.bytes, 0),
  };
}

/** The visitor keeps everything (`enabled`), or only what it uses: the flag, then the current copy
 * completed, or its languages and reader dropped but for the open pages' languages. */
function keepEverything(enabled) {
  return serially(async () => {
    const meta = await caches.open(CURRENT);
    if (enabled) await meta.put(ALL, new Response('1'));
    else await meta.delete(ALL);
    const now = await current();
    if (enabled) {
      if (now) await store(now.manifest, () => true);
      else {
        const res = await fetch(new Request(MANIFEST, { cache: 'no-cache' }));
        if (res.ok) await store(await res.json(), () => true);
      }
    } else if (now) {
      const langs = languages(now.manifest, await pageUrls());
      for (const f of now.manifest.files) {
        if ((f.role === 'reader' || f.role === 'lang') && !(f.role === 'lang' && langs.has(f.lang))) {
          await now.cache.delete(keyOf(f));
        }
      }
    }
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
    await refresh(null, null).catch(() => {});
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
        if (res.ok) event.waitUntil(refresh(res.clone(), req.url).catch(() => {}));
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
      const res = await fetch(req);
      if (res.ok) event.waitUntil(keep(url.href, res.clone()).catch(() => {}));
      return res;
    } catch (err) {
      const copy = await newest(req, { ignoreSearch: true });
      if (copy) return copy;
      throw err;
    }
  })());
});

self.addEventListener('message', (event) => {
  const type = event.data && event.data.type;
  if (type !== 'cache-all' && type !== 'cache-status') return;
  const reply = (message) => (event.ports[0] || event.source).postMessage(message);
  event.waitUntil((async () => {
    try {
      if (type === 'cache-all') await keepEverything(event.data.enabled !== false);
      reply({ type, ...(await status()) });
    } catch (err) {
      reply({ type, error: String(err) });
    }
  })());
});
