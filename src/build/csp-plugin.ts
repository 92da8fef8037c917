/**
 * Vite plugin: writes the viewer's Content-Security-Policy into the built index.html, right after the charset (a
 * meta policy applies only to what the parser meets after it, so it must precede the bundle's `<script>`). Build
 * only: the dev server's HMR client runs inline script and React Refresh needs eval, so `vite` (dev) stays without a
 * policy; `vite preview` and any static host serve the built file, policy included.
 */

import type { Plugin } from 'vite'
import { metaPolicy } from './content-security-policy.ts'

/** The policy as a meta element (its text holds no `"`, `<` or `&`: nothing to escape inside the double quotes). */
export function cspMeta(): string {
  return `<meta http-equiv="Content-Security-Policy" content="${metaPolicy()}" />`
}

export function cspPlugin(): Plugin {
  return {
    name: 'dsh-lens-csp',
    apply: 'build',
    transformIndexHtml: {
      order: 'post',
      handler(html) {
        const charset = /<meta charset="[^"]*"\s*\/?>/i.exec(html)
        if (charset === null) return html.replace(/<head>/i, (head) => `${head}\n    ${cspMeta()}`)
        const end = charset.index + charset[0].length
        return `${html.slice(0, end)}\n    ${cspMeta()}${html.slice(end)}`
      },
    },
  }
}
