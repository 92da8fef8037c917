/**
 * The Content-Security-Policy is enforced, and the app works under it. Against the built app as a static host serves
 * it (vite preview: only the `<meta>` from src/build/csp-plugin.ts) and as `lens serve` serves it (the header from
 * src/build/content-security-policy.ts, which also reaches the workers): the app's own scripts, workers, lazy chunks,
 * the zstd/xxhash WebAssembly path, React Flow, uPlot and the live stream raise no violation; inline script, eval,
 * handler attributes, `javascript:` URLs, foreign scripts, blob workers, connections elsewhere, `<style>` elements,
 * `data:` images and plugins are each reported as a violation and none of them runs; a `?log=` URL on another origin
 * is refused by the page before any request (the worker that fetches `?log=` may be served without the header).
 */

import { mkdir, mkdtemp, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { expect, test, type Page } from '@playwright/test'
import { metaPolicy, serverPolicy } from '../src/build/content-security-policy.ts'
import { LIBZSTD_UNAVAILABLE } from '../src/core/decode/zstd-wasm.ts'
import { startLensServer, type LensServer } from '../src/server/lens-server.ts'
import { headerText } from '../src/test-support/live-test-kit.ts'
import { dropFile, fixtureBytes, waitLoaded } from './support/app.ts'
import { EXPECTED_DIRECTIVES, recordViolations, runProbes, violations } from './support/csp-probe.ts'
import { foldInNode } from './support/expected.ts'

const DIST = process.env['LENS_DIST'] ?? process.env['E2E_DIST'] ?? 'dist'

// The app walk (rows, graph, search, a zstd drop), the live stream and every probe in one test: at load 18 the
// header-policy test needed more than the default 30 s (it was still running the probes when time ran out).
test.describe.configure({ timeout: 120_000 })

/** Console lines Chrome writes for a refused load or eval (workers' refusals only show up here). */
function cspConsole(page: Page): string[] {
  const lines: string[] = []
  page.on('console', (m) => {
    if (/Content Security Policy|Refused to/i.test(m.text())) lines.push(m.text())
  })
  return lines
}

/** Compile the smallest WebAssembly module in every worker of the page: 'ok' or the error text. */
async function compileInWorkers(page: Page): Promise<string[]> {
  const empty = [0, 97, 115, 109, 1, 0, 0, 0]
  return Promise.all(
    page.workers().map((w) =>
      w.evaluate(
        (bytes) =>
          WebAssembly.instantiate(new Uint8Array(bytes)).then(
            () => 'ok',
            (e: unknown) => String(e),
          ),
        empty,
      ),
    ),
  )
}

/** Walk the app's own features: rows, inspector, graph (lazy chunk + React Flow), search (worker), a zstd drop (wasm). */
async function exerciseApp(page: Page): Promise<void> {
  await expect(page.getByTestId('app')).toHaveAttribute('data-load-state', 'ready')
  await page.getByTestId('transcript-pane').locator('[role=option][data-seq]').first().click()
  await expect(page.getByTestId('inspector-json')).toBeVisible()
  await page.getByTestId('surface-pane').locator('[role=option][data-seq]').first().click()
  await expect(page.getByTestId('replace-graph').locator('.react-flow')).toBeVisible()
  await page.keyboard.press('/')
  await page.getByTestId('search-input').fill('the')
  await expect(page.getByTestId('search-results').locator('[data-seq]').first()).toBeVisible()
  await page.keyboard.press('Escape')
  // zstd: frames decoded by libzstd and checked against XXH64 from xxhash-wasm in the worker (both WebAssembly
  // compiled from embedded bytes; libzstd's without the data: URL its package would fetch, which CSP refuses).
  const warnings: string[] = []
  page.on('console', (m) => void (m.text().includes(LIBZSTD_UNAVAILABLE) && warnings.push(m.text())))
  const zstd = fixtureBytes('zstd/acp--agent-instructions--session.jsonl.zstd')
  const zlog = await foldInNode(zstd)
  await dropFile(page, 'session.jsonl.zstd', zstd)
  await expect(page.getByTestId('timeline')).toHaveAttribute('data-max', String(zlog.length - 1))
  await expect(page.getByTestId('app')).toHaveAttribute('data-load-state', 'ready')
  await expect(page.getByTestId('diagnostics')).not.toContainText(/checksum/i)
  expect(warnings).toEqual([])
}

/** Every probe is refused and reported under its directive; nothing ran. */
async function expectProbesRefused(page: Page): Promise<void> {
  const before = (await violations(page)).length
  const results = await runProbes(page)
  const threw = Object.fromEntries(results.map((r) => [r.name, r.threw]))
  expect(threw['eval']).toBe('EvalError')
  expect(threw['new-function']).toBe('EvalError')
  await expect
    .poll(async () => new Set((await violations(page)).slice(before).map((v) => v.directive)))
    .toEqual(new Set(EXPECTED_DIRECTIVES))
  // Reports arrive one task at a time, and one directive can name several probes: wait for each blocked URI too.
  await expect
    .poll(async () => (await violations(page)).slice(before).map((v) => v.blocked))
    .toEqual(expect.arrayContaining(['inline', 'eval', 'https://evil.invalid/x.js', 'https://evil.invalid/steal', 'data']))
  expect(await page.evaluate(() => window.__pwned)).toBeUndefined()
  // The page still works after the refusals.
  await expect(page.getByTestId('app')).toHaveAttribute('data-load-state', 'ready')
}

test('the built app (meta policy): the app runs clean, and every forbidden thing is reported, not executed', async ({ page }) => {
  await recordViolations(page)
  const consoleLines = cspConsole(page)
  const response = await page.goto('/')
  // A static host sends no policy header: the meta is the whole policy here.
  expect(response?.headers()['content-security-policy']).toBeUndefined()
  await waitLoaded(page)
  expect(await page.locator('meta[http-equiv=Content-Security-Policy]').getAttribute('content')).toBe(metaPolicy())
  await exerciseApp(page)
  expect(await violations(page)).toEqual([])
  expect(consoleLines).toEqual([])
  await expectProbesRefused(page)
})

test('a ?log= URL on another origin is refused before any request, and the page says why', async ({ page }) => {
  // The worker fetches ?log=, and a worker script served without the CSP header is not held to the page's
  // connect-src: the store refuses other origins itself, so no request leaves and CSP has nothing to block.
  await recordViolations(page)
  const requested: string[] = []
  page.on('request', (request) => requested.push(request.url()))
  const url = 'http://127.0.0.2:9/session.jsonl'
  await page.goto(`/?log=${url}`)
  await expect(page.getByTestId('app')).toHaveAttribute('data-load-state', 'error')
  await expect(
    page.getByText(`Could not read ${url}: ?log= reads this page's own origin only`, { exact: false }).first(),
  ).toBeVisible()
  expect(requested.filter((r) => r.startsWith('http://127.0.0.2'))).toEqual([])
  expect(await violations(page)).toEqual([])
})

test.describe('lens serve (header policy)', () => {
  let server: LensServer
  let root: string
  test.beforeAll(async () => {
    root = await mkdtemp(join(tmpdir(), 'lens-e2e-csp-'))
    const dir = join(root, '--tmp-csp--', 'session-csp')
    await mkdir(dir, { recursive: true })
    const user = (seq: number): string =>
      JSON.stringify({
        type: 'user/message',
        seq,
        time: seq,
        data: { id: `u${seq}`, role: 'user', content: [{ type: 'text', text: `the message ${seq}` }], source: { kind: 'user' } },
        surfaceOp: 'append',
      })
    await writeFile(join(dir, 'session.jsonl'), [headerText('session-csp'), user(0), user(1)].join('\n') + '\n')
    server = await startLensServer({ roots: [root], distDir: DIST, pollMs: 250 })
  })
  test.afterAll(() => server.close())

  test('the page and its workers carry the exact header; the app and the live stream run clean; probes refused', async ({
    page,
  }) => {
    await recordViolations(page)
    const consoleLines = cspConsole(page)
    const workerPolicies: string[] = []
    page.on('response', (r) => {
      if (/\.worker-[^/]*\.js$/.test(r.url())) workerPolicies.push(r.headers()['content-security-policy'] ?? 'none')
    })
    const response = await page.goto(server.origin + '/')
    expect(response?.headers()['content-security-policy']).toBe(serverPolicy(server.streamUrl))
    expect(serverPolicy(server.streamUrl)).toContain(`connect-src 'self' ws://127.0.0.1:${server.port}/v1/stream;`)
    await waitLoaded(page)
    await exerciseApp(page)
    expect(workerPolicies.length).toBeGreaterThan(0)
    for (const p of workerPolicies) expect(p).toBe(serverPolicy(server.streamUrl))
    // Under that policy each worker compiles WebAssembly (the next test shows it would not without the keyword).
    expect(new Set(await compileInWorkers(page))).toEqual(new Set(['ok']))

    // Live: the stream named in the header connects; the worker folds what it sends.
    await page.goto(server.viewerUrl)
    await page.getByTestId('session-option').filter({ hasText: 'session-csp' }).click()
    await expect(page.getByTestId('live-status')).toHaveAttribute('data-status', 'live')
    await expect(page.getByTestId('timeline')).toHaveAttribute('data-max', '1')
    expect(await violations(page)).toEqual([])
    expect(consoleLines).toEqual([])

    await expectProbesRefused(page)
    // The meta allows any loopback port; the header names only this server's stream, so another port is refused.
    const before = (await violations(page)).length
    await page.evaluate(() => {
      try {
        new WebSocket('ws://127.0.0.1:9/v1/stream')
      } catch {
        // reported as a violation either way
      }
    })
    await expect
      .poll(async () => (await violations(page)).slice(before))
      .toEqual([expect.objectContaining({ directive: 'connect-src', blocked: 'ws://127.0.0.1:9/v1/stream' })])
  })

  test("xxhash-wasm needs 'wasm-unsafe-eval': under a worker policy without it, WebAssembly does not compile", async ({
    page,
  }) => {
    // Same header minus the one keyword, on the worker scripts only (a worker's policy is the one its script came with).
    await page.route(/\.worker-[^/]*\.js$/, async (route) => {
      const response = await route.fetch()
      const policy = serverPolicy(server.streamUrl).replace(" 'wasm-unsafe-eval'", '')
      await route.fulfill({ response, headers: { ...response.headers(), 'content-security-policy': policy } })
    })
    await page.goto(server.origin + '/')
    await expect.poll(() => page.workers().length).toBeGreaterThan(0)
    expect(await compileInWorkers(page)).toEqual([
      expect.stringMatching(/^CompileError: .*Content Security Policy.*script-src 'self'/),
    ])
  })

  test("frame-ancestors 'none': another page cannot frame the viewer (the static build, without the header, can be)", async ({
    page,
    baseURL,
  }) => {
    // A page with no policy of its own (about:blank) frames the lens serve viewer and, as a control, the preview build.
    await page.setContent(`<iframe id="served" src="${server.origin}/"></iframe><iframe id="static" src="${baseURL}/"></iframe>`)
    const served = await (await page.$('#served'))?.contentFrame()
    const stat = await (await page.$('#static'))?.contentFrame()
    await expect.poll(() => served?.url()).toMatch(/^chrome-error:/)
    // (The framed viewer opens the demo and writes its cursor into the hash, so only the page itself is compared.)
    await expect.poll(() => stat?.url().split('#')[0]).toBe(`${baseURL}/`)
  })
})
