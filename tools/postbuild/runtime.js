
// ---- vramfit: the rest of the app's code (tools/split-wasm) ---------------------------------
// The app's wasm is split in two by Binaryen's wasm-split: the primary module holds the functions
// a first answer runs (tools/split-wasm/keep.txt), the rest module every other function. In the
// primary, each function of the rest is a placeholder imported from `p` under its table
// slot; instantiating the rest module (it imports the primary's memory, table and globals as
// `primary`) writes the real functions over those slots.
//
// - When the main thread is first idle after the first answer, the rest is fetched, compiled and
//   instantiated in the background: a user's first input normally finds it there.
// - A placeholder called before that (an input during the download, a link to a view the first
//   answer does not run) loads the rest at once (a synchronous request, or the single-file build's
//   bytes) and compiles it synchronously, then calls the real function. (A background load never
//   holds a compiled module it has not instantiated: nothing awaits between the two.)
// - A page the service worker controls, or a link to a view whose first answer needs the rest,
//   fetches the rest beside the primary and starts once both are there (__vramfit_rest_source).
// - Performance mark `vramfit:rest` (detail: "background", "on-demand" or "before start") says
//   when and how.
// This text is appended to wasm-bindgen's JS module by tools/postbuild (loader.js).
const __vramfit_rest = { source: null, early: null, done: false, started: false, after: [] };

/** The app builds what a first answer does not show once the rest is in (vramfit-web's
 * `later.rs`): `callback` runs then, or at once if it is in already. A background load that
 * failed runs them too: building those parts loads the rest on demand, which reports a failure. */
globalThis.__vramfit_after_rest = (callback) => {
    if (__vramfit_rest.done) queueMicrotask(callback);
    else __vramfit_rest.after.push(callback);
};

/** The app asks for the rest now (an edit waits for it, vramfit-web's `later.rs`): the background
 * load starts at once instead of at the next idle moment. It starts once, so the rest is fetched
 * once. */
globalThis.__vramfit_rest_load_now = () => {
    __vramfit_rest_background();
};

function __vramfit_rest_settled() {
    for (const callback of __vramfit_rest.after.splice(0)) queueMicrotask(callback);
}

/** The query keys of the views whose first answer runs code of the rest (loader.js). */
const __vramfit_rest_first = /* REST_FIRST */ [];

/** Where the rest module is: a URL (relative to the page) or its bytes (single-file build).
 * The rest is fetched at once, beside the primary module, and the app starts once both are there:
 * - on a page the service worker controls: a synchronous request would bypass the worker (offline
 *   it fails), and the worker's copy costs no network;
 * - for a link to a view whose first answer needs the rest (a key in __vramfit_rest_first):
 *   fetching it on demand only after the primary would make that first answer wait for two
 *   downloads one after the other. */
export function __vramfit_rest_source(source) {
    __vramfit_rest.source = source;
    if (typeof source !== 'string' || typeof location === 'undefined') return;
    const controlled = typeof navigator !== 'undefined' && navigator.serviceWorker
        && navigator.serviceWorker.controller;
    const keys = [...new URLSearchParams(location.search).keys()];
    if (controlled || keys.some((k) => __vramfit_rest_first.includes(k))) {
        __vramfit_rest.early = __vramfit_rest_compile(source).catch((e) => {
            console.warn('vramfit: fetching the rest of the code before start failed:', e);
            return null;
        });
    }
}

/** Before the app starts (wasm-bindgen's init): the rest, when compiling it early. */
async function __vramfit_rest_before_start(instance) {
    if (!__vramfit_rest.early) return;
    const module = await __vramfit_rest.early;
    if (module !== null) __vramfit_rest_instantiate(module, 'before start', instance.exports);
}

/** The mark `vramfit:rest` (a browser without User Timing's `detail` only loses the mark). */
function __vramfit_rest_mark(how) {
    try {
        performance.mark('vramfit:rest', { detail: how });
    } catch (_) { /* the code is loaded either way */ }
}

function __vramfit_imports(imports) {
    imports.p = new Proxy({}, {
        get(_, name) {
            const slot = Number(name);
            return function (...args) {
                __vramfit_rest_now();
                return wasm['%table'].get(slot)(...args);
            };
        },
    });
    return imports;
}

/** Instantiates the rest against the primary's exports (wasm-bindgen's `wasm` once started). */
function __vramfit_rest_instantiate(module, how, primary = wasm) {
    if (__vramfit_rest.done) return;
    new WebAssembly.Instance(module, { primary });
    __vramfit_rest.done = true;
    __vramfit_rest_mark(how);
    __vramfit_rest_settled();
}

function __vramfit_rest_bytes_sync(source) {
    if (source instanceof Uint8Array) return source;
    const xhr = new XMLHttpRequest();
    xhr.open('GET', String(source), false);
    xhr.overrideMimeType('text/plain; charset=x-user-defined');
    xhr.send();
    if (xhr.status !== 200 && xhr.status !== 0) throw new Error(`HTTP ${xhr.status}`);
    const text = xhr.responseText;
    const bytes = new Uint8Array(text.length);
    for (let i = 0; i < text.length; i++) bytes[i] = text.charCodeAt(i) & 0xff;
    return bytes;
}

/** Makes every function callable now (a placeholder was called). */
function __vramfit_rest_now() {
    if (__vramfit_rest.done) return;
    if (__vramfit_rest.source === null) {
        throw new WebAssembly.RuntimeError("the rest of the app's code is needed, and the page did not say where it is (__vramfit_rest_source)");
    }
    try {
        const module = new WebAssembly.Module(__vramfit_rest_bytes_sync(__vramfit_rest.source));
        __vramfit_rest_instantiate(module, 'on-demand');
    } catch (e) {
        // A RuntimeError, like a trap: www/panic.js shows the panic panel.
        throw new WebAssembly.RuntimeError(`the rest of the app's code could not be loaded (${__vramfit_rest.source instanceof Uint8Array ? 'inline' : __vramfit_rest.source}): ${e}`);
    }
}

async function __vramfit_rest_compile(source) {
    if (source instanceof Uint8Array) return WebAssembly.compile(source);
    const response = await fetch(source);
    if (!response.ok) throw new Error(`HTTP ${response.status}`);
    try {
        return await WebAssembly.compileStreaming(response.clone());
    } catch (_) {
        // A host that does not send `application/wasm`.
        return WebAssembly.compile(await response.arrayBuffer());
    }
}

async function __vramfit_rest_background() {
    if (__vramfit_rest.started || __vramfit_rest.done || __vramfit_rest.source === null) return;
    __vramfit_rest.started = true;
    try {
        __vramfit_rest_instantiate(await __vramfit_rest_compile(__vramfit_rest.source), 'background');
    } catch (e) {
        // Left to the on-demand path, which reports its own failure if it fails too.
        console.warn('vramfit: loading the rest of the code in the background failed:', e);
        __vramfit_rest_settled();
    }
}

/** Whether the app has built its page: index.html's "computing…" frame (#boot) is gone (the app
 * drops it once mounted, or at once when the page loaded only the API; a page of someone else's
 * has none). Before that the app may be waiting for its language's texts, which the rest would
 * compete with for the link. */
function __vramfit_rest_mounted() {
    return typeof document === 'undefined' || document.getElementById('boot') === null;
}

/** Called once the app has started: the background load, when the main thread is next idle
 * after the page is built (the first answer's frame), or a second after that at the latest; 10 s
 * after start whatever happened (a page that loaded only the API builds nothing). */
function __vramfit_rest_schedule(waited = 0) {
    if (!__vramfit_rest_mounted() && waited < 10000) {
        setTimeout(() => __vramfit_rest_schedule(waited + 50), 50);
        return;
    }
    if (typeof requestIdleCallback === 'function') requestIdleCallback(__vramfit_rest_background);
    else if (typeof requestAnimationFrame === 'function') {
        requestAnimationFrame(() => setTimeout(__vramfit_rest_background, 0));
    }
    setTimeout(__vramfit_rest_background, 1000);
}
