/**
 * Share…'s reads, in the worker (src/view stays pure): a `?log=` URL read again for a bundle, and the viewer's bundle
 * template beside the page. Same origin only: the page's CSP (`connect-src 'self'`) holds here too.
 */

import type { ShareFetch } from '../view/share-logs.ts'

export const workerShareFetch: ShareFetch = {
  async bytes(url) {
    const response = await fetch(url)
    if (!response.ok) throw new Error(`HTTP ${response.status}`)
    return new Uint8Array(await response.arrayBuffer())
  },
  async text(url) {
    try {
      const response = await fetch(url)
      return response.ok ? await response.text() : null
    } catch {
      // Nothing answered (a page opened from disk): no template.
      return null
    }
  },
}
