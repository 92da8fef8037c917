/** The CSP text: what the built meta and `lens serve`'s header allow, and that the header names exactly its own stream. */

import { request } from 'node:http'
import { mkdtemp, readFile, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { describe, expect, test } from 'vitest'
import { startLensServer } from '../server/lens-server.ts'
import { isExpressibleSource, metaPolicy, serverPolicy } from './content-security-policy.ts'
import { cspMeta, cspPlugin } from './csp-plugin.ts'

/** `directive -> sources`, the way a browser splits a policy. */
function parse(policy: string): Map<string, string[]> {
  const map = new Map<string, string[]>()
  for (const part of policy.split(';')) {
    const [name, ...sources] = part.trim().split(/\s+/)
    if (name !== undefined && name !== '') {
      expect(map.has(name), `directive ${name} twice`).toBe(false)
      map.set(name, sources)
    }
  }
  return map
}

function getHeaders(url: string): Promise<{ status: number; headers: Record<string, string | string[] | undefined> }> {
  return new Promise((resolve, reject) => {
    request(url, (res) => {
      res.resume()
      resolve({ status: res.statusCode ?? 0, headers: res.headers })
    })
      .on('error', reject)
      .end()
  })
}

describe('policy text', () => {
  test('the meta: scripts and workers from the app only, WebAssembly compilation but no eval, loopback streams', () => {
    const p = parse(metaPolicy())
    expect(p.get('default-src')).toEqual(["'none'"])
    expect(p.get('script-src')).toEqual(["'self'", "'wasm-unsafe-eval'"])
    expect(p.get('worker-src')).toEqual(["'self'"])
    expect(p.get('style-src')).toEqual(["'self'"])
    expect(p.get('img-src')).toEqual(["'self'"])
    expect(p.get('connect-src')).toEqual(["'self'", 'ws://127.0.0.1:*', 'ws://localhost:*'])
    expect(p.get('object-src')).toEqual(["'none'"])
    expect(p.get('base-uri')).toEqual(["'none'"])
    expect(p.get('form-action')).toEqual(["'none'"])
    // A meta cannot carry frame-ancestors (browsers ignore it there and warn); the header does.
    expect(p.has('frame-ancestors')).toBe(false)
    expect(metaPolicy()).not.toMatch(/unsafe-inline|'unsafe-eval'|unsafe-hashes|\s\*(\s|;|$)|data:|blob:|https?:/)
  })

  test('the header: the same, plus frame-ancestors, and exactly the one stream it is given', () => {
    const p = parse(serverPolicy('ws://127.0.0.1:4321/v1/stream'))
    expect(p.get('connect-src')).toEqual(["'self'", 'ws://127.0.0.1:4321/v1/stream'])
    expect(p.get('frame-ancestors')).toEqual(["'none'"])
    expect(p.get('script-src')).toEqual(["'self'", "'wasm-unsafe-eval'"])
    expect([...p.keys()].filter((k) => k !== 'frame-ancestors')).toEqual([...parse(metaPolicy()).keys()])
  })

  test('a stream URL CSP cannot name (IPv6 literal) or one that could end a directive is left to self', () => {
    for (const url of ['ws://[::1]:4321/v1/stream', 'ws://a:1/x; script-src *', "ws://a:1/'unsafe-inline'", 'ws://a b:1/']) {
      expect(isExpressibleSource(url), url).toBe(false)
      expect(parse(serverPolicy(url)).get('connect-src')).toEqual(["'self'"])
    }
    expect(isExpressibleSource('ws://localhost:80/v1/stream')).toBe(true)
  })

  test('the plugin writes the meta after the charset, before any script, only at build', () => {
    const plugin = cspPlugin()
    expect(plugin.apply).toBe('build')
    const hook = plugin.transformIndexHtml as { handler: (html: string) => string }
    const out = hook.handler('<html><head>\n<meta charset="UTF-8" />\n<script type="module" src="/a.js"></script></head></html>')
    expect(out.indexOf(cspMeta())).toBeGreaterThan(out.indexOf('charset'))
    expect(out.indexOf(cspMeta())).toBeLessThan(out.indexOf('<script'))
    expect(hook.handler('<html><head></head></html>')).toContain(cspMeta())
  })
})

test('SECURITY.md quotes both policies exactly as they are sent', async () => {
  const text = await readFile(new URL('../../SECURITY.md', import.meta.url), 'utf8')
  expect(text).toContain(metaPolicy())
  expect(text).toContain(serverPolicy('ws://127.0.0.1:7433/v1/stream'))
})

describe('lens serve', () => {
  test('every static file carries the header naming its own origin and stream; refusals are plain text', async () => {
    const dist = await mkdtemp(join(tmpdir(), 'lens-csp-'))
    await writeFile(join(dist, 'index.html'), '<!doctype html><title>lens</title>')
    await writeFile(join(dist, 'worker.js'), 'export {}')
    const server = await startLensServer({ roots: [dist], distDir: dist })
    try {
      for (const path of ['/', '/worker.js']) {
        const { status, headers } = await getHeaders(server.origin + path)
        expect(status).toBe(200)
        expect(headers['content-security-policy']).toBe(serverPolicy(server.streamUrl))
        expect(parse(String(headers['content-security-policy'])).get('connect-src')).toEqual([
          "'self'",
          `ws://127.0.0.1:${server.port}/v1/stream`,
        ])
      }
      expect((await getHeaders(server.origin + '/missing.js')).status).toBe(404)
    } finally {
      await server.close()
    }
  })
})
