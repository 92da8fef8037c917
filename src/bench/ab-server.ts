/**
 * A static server for one build of an A/B run: the built viewer at `/`, and the bench's generated logs at
 * `/ab-log/<file name>` (same origin, as `?log=` needs under the viewer's CSP). Files go out as they are, with their
 * length and no compression, as `lens serve` sends them; both builds get the same server, so neither pays for it
 * more than the other. Loopback only, on a port the system picks.
 */

import { createReadStream, existsSync, statSync } from 'node:fs'
import { createServer, type Server } from 'node:http'
import type { AddressInfo } from 'node:net'
import { basename, extname, join, normalize, sep } from 'node:path'

const TYPES: Record<string, string> = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.mjs': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.json': 'application/json',
  '.jsonl': 'application/x-ndjson',
  '.wasm': 'application/wasm',
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
  '.map': 'application/json',
}

export interface StaticServer {
  readonly base: string
  close(): Promise<void>
}

function fileFor(dist: string, logs: string, pathname: string): string | null {
  if (pathname.startsWith('/ab-log/')) {
    const name = decodeURIComponent(pathname.slice('/ab-log/'.length))
    return name === basename(name) ? join(logs, name) : null
  }
  const rel = normalize(decodeURIComponent(pathname === '/' ? '/index.html' : pathname))
  const path = join(dist, rel)
  return path.startsWith(dist + sep) ? path : null
}

export async function serveBuild(dist: string, logs: string): Promise<StaticServer> {
  const server: Server = createServer((req, res) => {
    const path = fileFor(dist, logs, new URL(req.url ?? '/', 'http://localhost').pathname)
    if (path === null || !existsSync(path) || !statSync(path).isFile()) {
      res.writeHead(404).end()
      return
    }
    res.writeHead(200, {
      'Content-Type': TYPES[extname(path)] ?? 'application/octet-stream',
      'Content-Length': statSync(path).size,
      'Cache-Control': 'no-store',
    })
    createReadStream(path).pipe(res)
  })
  await new Promise<void>((ready) => server.listen(0, '127.0.0.1', ready))
  const { port } = server.address() as AddressInfo
  return {
    base: `http://127.0.0.1:${port}`,
    close: () =>
      new Promise<void>((done) => {
        server.closeAllConnections()
        server.close(() => done())
      }),
  }
}
