/**
 * Serves the built viewer from dist/: GET/HEAD only, exact files with their content types, `index.html`
 * for `/` only (no SPA catch-all, so a typo is a 404, not a page), and nothing outside the dist directory.
 * Every file carries the Content-Security-Policy the server was given (src/build/content-security-policy.ts):
 * the page's, and the worker scripts', since a worker's policy is the one delivered with its script.
 */

import { createReadStream } from 'node:fs'
import { readFile, stat } from 'node:fs/promises'
import type { IncomingMessage, ServerResponse } from 'node:http'
import { extname, join } from 'node:path'
import type { PathGuard } from '../path-guard.ts'

const TYPES: Record<string, string> = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.mjs': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.json': 'application/json; charset=utf-8',
  '.map': 'application/json; charset=utf-8',
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
  '.jpg': 'image/jpeg',
  '.ico': 'image/x-icon',
  '.woff2': 'font/woff2',
  '.woff': 'font/woff',
  '.wasm': 'application/wasm',
  '.txt': 'text/plain; charset=utf-8',
  '.jsonl': 'application/x-ndjson; charset=utf-8',
  '.zstd': 'application/zstd',
}

function plain(res: ServerResponse, status: number, text: string): void {
  res.writeHead(status, { 'content-type': 'text/plain; charset=utf-8', 'x-content-type-options': 'nosniff' })
  res.end(text + '\n')
}

export async function serveStatic(
  req: IncomingMessage,
  res: ServerResponse,
  distDir: string,
  guard: PathGuard | undefined,
  /** `serverPolicy(streamUrl)`; absent only in tests that exercise paths alone. */
  contentSecurityPolicy?: string,
  /** Rewrites index.html as it is served (the companion server marks the page as served by it). */
  transformIndex?: (html: string) => string,
): Promise<void> {
  if (req.method !== 'GET' && req.method !== 'HEAD') return plain(res, 405, 'method not allowed')
  if (guard === undefined) return plain(res, 404, `no built viewer: run "npm run build" to create ${distDir}`)
  let pathname: string
  try {
    pathname = decodeURIComponent(new URL(req.url ?? '/', 'http://localhost').pathname)
  } catch {
    return plain(res, 400, 'malformed path')
  }
  const relative = pathname === '/' ? 'index.html' : pathname.slice(1)
  const real = await guard.resolveFile(join(distDir, relative))
  if (real === undefined || pathname.split('/').includes('..')) return plain(res, 404, 'not found')
  const st = await stat(real)
  const type = TYPES[extname(real).toLowerCase()] ?? 'application/octet-stream'
  const body = relative === 'index.html' && transformIndex !== undefined ? transformIndex(await readFile(real, 'utf8')) : null
  res.writeHead(200, {
    'content-type': type,
    'content-length': String(body === null ? st.size : Buffer.byteLength(body)),
    'x-content-type-options': 'nosniff',
    // The page URL carries the token: never leak it to another site through Referer.
    'referrer-policy': 'no-referrer',
    'cache-control': relative === 'index.html' ? 'no-store' : 'no-cache',
    ...(contentSecurityPolicy === undefined ? {} : { 'content-security-policy': contentSecurityPolicy }),
  })
  if (req.method === 'HEAD') {
    res.end()
    return
  }
  if (body !== null) res.end(body)
  else createReadStream(real).pipe(res)
}
