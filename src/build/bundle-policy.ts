/**
 * The offline bundle's Content-Security-Policy: the viewer's own (content-security-policy.ts), directive for
 * directive, with only what a single file opened from `file://` forces changed. A `file://` page has an opaque origin,
 * so `'self'` names nothing; the bundle's code is inline, so it is allowed by its hash, not by `'unsafe-inline'`:
 * - `script-src`: the hash of the one inline module (the viewer), `'wasm-unsafe-eval'` kept (libzstd, XXH64);
 * - `worker-src blob:`: the two workers are made from the bundle's own text (a Blob), never fetched;
 * - `style-src`: the hash of the one inline `<style>`;
 * - `img-src 'none'`: the bundle has no favicon or image;
 * - `connect-src 'none'`: a bundle reads nothing over the network, not even the loopback stream the app may follow.
 * Everything else (`default-src 'none'`, `object-src`, `base-uri`, `form-action`) is the viewer's, unchanged.
 */

import { createHash } from 'node:crypto'
import { metaPolicy } from './content-security-policy.ts'

export function sha256Source(text: string): string {
  return `'sha256-${createHash('sha256').update(text, 'utf8').digest('base64')}'`
}

/** The viewer's meta policy with the bundle's sources for scripts, workers, styles, images and connections. */
export function bundlePolicy(script: string, style: string): string {
  const replace: Record<string, string> = {
    'script-src': `${sha256Source(script)} 'wasm-unsafe-eval'`,
    'worker-src': 'blob:',
    'style-src': sha256Source(style),
    'img-src': "'none'",
    'connect-src': "'none'",
  }
  return metaPolicy()
    .split('; ')
    .map((directive) => {
      const name = directive.split(' ')[0] as string
      return replace[name] === undefined ? directive : `${name} ${replace[name]}`
    })
    .join('; ')
}
