/**
 * The JavaScript a first visit must fetch before the app can run: the entry script of the built
 * index.html plus every chunk it modulepreloads, gzipped (what a server with compression sends).
 * Lazily loaded chunks (the replace graph, the chart) and the worker are listed apart: they load after
 * first paint.
 */

import { existsSync, readFileSync, readdirSync } from 'node:fs'
import { join } from 'node:path'
import { gzipSync } from 'node:zlib'

export interface InitialJs {
  readonly initialGzipBytes: number
  readonly initialFiles: readonly string[]
  readonly lazyGzipBytes: number
  readonly workerGzipBytes: number
}

const gz = (path: string): number => gzipSync(readFileSync(path), { level: 9 }).length

export function initialJs(dist = 'dist'): InitialJs | null {
  const indexPath = join(dist, 'index.html')
  if (!existsSync(indexPath)) return null
  const html = readFileSync(indexPath, 'utf8')
  const initial = new Set<string>()
  for (const match of html.matchAll(/<script[^>]*type="module"[^>]*src="([^"]+)"/g)) initial.add(match[1] as string)
  for (const match of html.matchAll(/<link[^>]*rel="modulepreload"[^>]*href="([^"]+)"/g)) initial.add(match[1] as string)
  const files = [...initial].map((src) => join(dist, src.replace(/^\//, '')))
  const assets = readdirSync(join(dist, 'assets')).filter((name) => name.endsWith('.js'))
  let lazy = 0
  let worker = 0
  for (const name of assets) {
    const path = join(dist, 'assets', name)
    if (files.includes(path)) continue
    if (name.includes('worker')) worker += gz(path)
    else lazy += gz(path)
  }
  return {
    initialGzipBytes: files.reduce((sum, path) => sum + gz(path), 0),
    initialFiles: files,
    lazyGzipBytes: lazy,
    workerGzipBytes: worker,
  }
}
