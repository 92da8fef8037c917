/**
 * Vite plugin: `vite preview` (and `vite` dev) serve the offline bundle's template at `/dsh-lens-bundle.html`, where
 * the page's Share… fetches it, from `dist-bundle/` (what `npm run build` writes beside dist/), as the companion server
 * does. A static host serves dist/ only: there Share… says it has no template (copy dist-bundle/dsh-lens-bundle.html
 * beside index.html to give it one).
 */

import { createReadStream, existsSync } from 'node:fs'
import type { IncomingMessage, ServerResponse } from 'node:http'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import type { Plugin } from 'vite'
import { BUNDLE_TEMPLATE_FILE } from '../core/export/offline-bundle.ts'

const ROOT = fileURLToPath(new URL('../../', import.meta.url))

type Middlewares = { use(fn: (req: IncomingMessage, res: ServerResponse, next: () => void) => void): void }

export function bundleTemplatePlugin(dir = join(ROOT, 'dist-bundle')): Plugin {
  // A block body: a hook that returns a function has it run after Vite's own middlewares (too late for this one).
  const serve = ({ middlewares }: { middlewares: Middlewares }): void => {
    middlewares.use((req, res, next) => {
      if (req.url?.split('?')[0] !== `/${BUNDLE_TEMPLATE_FILE}`) return next()
      const path = join(dir, BUNDLE_TEMPLATE_FILE)
      if (!existsSync(path)) {
        res.writeHead(404, { 'content-type': 'text/plain; charset=utf-8' })
        res.end('no offline bundle template: run "npm run build" to create dist-bundle/\n')
        return
      }
      res.writeHead(200, { 'content-type': 'text/html; charset=utf-8', 'cache-control': 'no-cache' })
      createReadStream(path).pipe(res)
    })
  }
  return { name: 'dsh-lens-bundle-template', configurePreviewServer: serve, configureServer: serve }
}
