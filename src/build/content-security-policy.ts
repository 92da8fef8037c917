/**
 * The viewer's Content-Security-Policy, as text, in one place: the build writes it into index.html as a `<meta>`
 * (csp-plugin.ts), and `lens serve` sends it as a header naming exactly its own stream (static-files.ts). Pure: no
 * Node APIs, so both the Vite config and the server import it.
 *
 * Why each directive says what it says (checked in the built app by e2e/content-security-policy.spec.ts):
 * - `script-src 'self' 'wasm-unsafe-eval'`: the bundle and its chunks only; no inline script, no eval, no
 *   `javascript:` URLs. xxhash-wasm (the zstd content checksum) and zstddec (libzstd, zstd-wasm.ts) compile their
 *   embedded WebAssembly bytes, which a CSP without `'wasm-unsafe-eval'` refuses; that keyword allows WebAssembly
 *   compilation only, never `eval` or `new Function`. zstddec's loader would fetch its module from a `data:` URL;
 *   zstd-wasm.ts hands it the bytes instead, so `connect-src` stays free of `data:`.
 * - `worker-src 'self'`: the lens and lineage workers are files of the build (never `blob:`).
 * - `style-src 'self'`: the built CSS file (Tailwind, React Flow, uPlot). No `'unsafe-inline'` is needed: React's
 *   `style` props, TanStack Virtual's positions, React Flow's transforms and uPlot's sizes are all set through the
 *   CSSOM (`element.style`), which CSP does not govern; a `<style>` element or a `style="..."` attribute parsed
 *   from markup is refused, and the app creates neither.
 * - `img-src 'self'`: the favicon is a file (no `data:` image anywhere); charts are canvas, the graph is inline SVG
 *   built by React (DOM nodes, not an image load).
 * - `connect-src`: the page's own origin (`?log=` and the bundled demo) and the live stream. The static build
 *   cannot know the companion server's port, so its meta allows any port on the loopback names (the server only
 *   binds loopback unless told otherwise); `lens serve` sends exactly its own origin and `ws://…/v1/stream`.
 *   A `?log=` URL on another origin is therefore refused by the browser: download the file and drop it instead.
 * - `default-src 'none'` for everything not listed (fonts, media, frames, manifests), `object-src 'none'`,
 *   `base-uri 'none'`, `form-action 'none'`; `frame-ancestors 'none'` only in the header (a meta cannot carry it).
 */

/** Directives shared by the meta and the header, in the order they are printed. */
const BASE: readonly (readonly [string, string])[] = [
  ['default-src', "'none'"],
  ['script-src', "'self' 'wasm-unsafe-eval'"],
  ['worker-src', "'self'"],
  ['style-src', "'self'"],
  ['img-src', "'self'"],
  ['connect-src', "'self'"],
  ['object-src', "'none'"],
  ['base-uri', "'none'"],
  ['form-action', "'none'"],
]

/**
 * Loopback WebSocket sources for the static build. `[::1]` is not expressible in CSP's host grammar; a page the
 * server itself serves over `[::1]` gets the header, and `'self'` covers same-host `ws:` in CSP Level 3 browsers.
 */
export const LOOPBACK_STREAMS: readonly string[] = ['ws://127.0.0.1:*', 'ws://localhost:*']

function render(directives: readonly (readonly [string, string])[]): string {
  return directives.map(([name, value]) => `${name} ${value}`).join('; ')
}

function withConnect(extra: readonly string[]): (readonly [string, string])[] {
  return BASE.map(([name, value]) => [name, name === 'connect-src' ? [value, ...extra].join(' ') : value] as const)
}

/** The policy the built index.html carries in `<meta http-equiv="Content-Security-Policy">`. */
export function metaPolicy(): string {
  return render(withConnect(LOOPBACK_STREAMS))
}

/**
 * The header `lens serve` sends with every static file (the page, and the worker scripts, whose own policy is the
 * one delivered with them). `streamUrl` is the server's exact `ws://host:port/v1/stream`; a URL CSP cannot express
 * (an IPv6 literal) is left out and `'self'` stands for it.
 */
export function serverPolicy(streamUrl: string): string {
  const extra = isExpressibleSource(streamUrl) ? [streamUrl] : []
  return render([...withConnect(extra), ['frame-ancestors', "'none'"]])
}

/** `ws://name:port/path` with a host CSP can name (letters, digits, dots, dashes); nothing that could end a directive. */
export function isExpressibleSource(url: string): boolean {
  return /^wss?:\/\/[A-Za-z0-9.-]+:\d{1,5}\/[A-Za-z0-9/._-]*$/.test(url)
}
