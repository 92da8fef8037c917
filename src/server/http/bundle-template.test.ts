/**
 * The offline bundle's template for the page's Share…: served at `/dsh-lens-bundle.html` from the server's own path
 * (never one the request names), with the page's policy and the Host check; a server without one answers 404 saying
 * how to build it. The template is the viewer's code only: no session data, so it needs no sign-in.
 */

import { request } from 'node:http'
import { writeFile } from 'node:fs/promises'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, test } from 'vitest'
import { BUNDLE_DATA_SLOT } from '../../core/index.ts'
import { startLensServer, type LensServer } from '../lens-server.ts'
import { tempRoot } from '../../test-support/live-test-kit.ts'

let withTemplate: LensServer
let without: LensServer
const TEMPLATE = `<!doctype html><title>bundle</title>${BUNDLE_DATA_SLOT}`

beforeAll(async () => {
  const root = await tempRoot()
  const dist = await tempRoot()
  const build = await tempRoot()
  await writeFile(join(dist, 'index.html'), '<!doctype html><title>lens</title>')
  await writeFile(join(build, 'template.html'), TEMPLATE)
  withTemplate = await startLensServer({ roots: [root], distDir: dist, bundleTemplate: join(build, 'template.html') })
  without = await startLensServer({ roots: [root], distDir: dist, bundleTemplate: join(build, 'missing.html') })
})
afterAll(async () => {
  await withTemplate.close()
  await without.close()
})

function get(
  server: LensServer,
  path: string,
  options: { method?: string; headers?: Record<string, string> } = {},
): Promise<{ status: number; headers: Record<string, unknown>; body: string }> {
  return new Promise((resolve, reject) => {
    const req = request(
      { host: '127.0.0.1', port: server.port, path, method: options.method ?? 'GET', headers: options.headers ?? {} },
      (res) => {
        let body = ''
        res.setEncoding('utf8')
        res.on('data', (c: string) => (body += c))
        res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body }))
      },
    )
    req.on('error', reject)
    req.end()
  })
}

describe('the bundle template route', () => {
  test('serves the template with the page policy, and nothing else at that name', async () => {
    const res = await get(withTemplate, '/dsh-lens-bundle.html')
    expect(res.status).toBe(200)
    expect(res.body).toBe(TEMPLATE)
    expect(res.headers['content-type']).toBe('text/html; charset=utf-8')
    expect(res.headers['x-content-type-options']).toBe('nosniff')
    expect(String(res.headers['content-security-policy'])).toContain("default-src 'none'")
    expect((await get(withTemplate, '/dsh-lens-bundle.html', { method: 'POST' })).status).toBe(405)
  })

  test('a server without one says how to build it', async () => {
    const res = await get(without, '/dsh-lens-bundle.html')
    expect(res.status).toBe(404)
    expect(res.body).toMatch(/npm run build/)
  })

  test('the Host check comes first', async () => {
    const res = await get(withTemplate, '/dsh-lens-bundle.html', { headers: { host: 'evil.example:80' } })
    expect(res.status).toBe(403)
  })
})
