/**
 * The offline bundle lane (issue 39): opening a bundle of a ~55 MB log from `file://` against dropping the same log
 * on the viewer, in Chromium, rounds alternated. `drop`: the viewer already open (served by `vite preview` from
 * dist/), from the file input's change to `data-load-state=ready`; `bundle`: from navigation to the bundle to ready,
 * so the bundle also pays the page's boot, its base64 and its gunzip. Target: bundle within 1.3x drop.
 * `npm run bench:bundle [-- --events 620000 --rounds 3]` (needs `npm run build`: dist/ and dist-bundle/).
 */

import { spawn, spawnSync, type ChildProcess } from 'node:child_process'
import { closeSync, existsSync, mkdirSync, openSync, statSync, writeSync } from 'node:fs'
import { join, resolve } from 'node:path'
import { fileURLToPath, pathToFileURL } from 'node:url'
import { chromium, type Browser } from '@playwright/test'
import { chromiumLaunchOptions } from '../../e2e/support/chromium.ts'
import { batchText, headerLine, presetOptions, streamSession } from '../generate/index.ts'
import { fmt, median, table } from './measure.ts'
import { writeZstdFrames } from './zstd-writer.ts'

const ROOT = fileURLToPath(new URL('../../', import.meta.url))
const DIR = join(ROOT, '.bench/bundle')
const PORT = Number(process.env['E2E_PORT'] ?? 4179)

function option(name: string): string | undefined {
  const i = process.argv.indexOf(`--${name}`)
  return i >= 0 ? process.argv[i + 1] : undefined
}

/** A generated zstd log of about `events` events (the 280k preset's mix, longer), cached under .bench/bundle/. */
function bigLog(events: number): string {
  mkdirSync(DIR, { recursive: true })
  const path = join(DIR, `big-${events}.jsonl.zstd`)
  if (existsSync(path)) return path
  const stream = streamSession({ ...presetOptions('280k', 7), targetEvents: events })
  const plain = openSync(`${path}.jsonl`, 'w')
  const frames = (function* (): Generator<string> {
    const header = headerLine(stream.header)
    writeSync(plain, header)
    yield header
    for (const batch of stream.batches) {
      const text = batchText(batch)
      writeSync(plain, text)
      yield text
    }
  })()
  writeZstdFrames(frames, path)
  closeSync(plain)
  return path
}

const COLOUR = new RegExp(`${String.fromCharCode(27)}\\[[0-9;]*m`, 'g')

/** `vite preview` serving dist/, resolved once it prints that it listens (its stdout names the URL). */
function preview(): Promise<ChildProcess> {
  // Vite's own script, not `npx`: killing npx leaves its child listening.
  const child = spawn(
    process.execPath,
    [join(ROOT, 'node_modules/vite/bin/vite.js'), 'preview', '--port', String(PORT), '--strictPort', '--outDir', 'dist'],
    {
      cwd: ROOT,
      stdio: ['ignore', 'pipe', 'inherit'],
    },
  )
  return new Promise((resolveChild, reject) => {
    let seen = ''
    child.stdout?.on('data', (chunk: Buffer) => {
      // Without its colours (the port is printed in bold).
      seen += chunk.toString().replace(COLOUR, '')
      if (seen.includes(`:${PORT}/`)) resolveChild(child)
    })
    child.once('exit', (code) => reject(new Error(`vite preview exited with ${code}`)))
  })
}

async function dropMs(browser: Browser, base: string, log: string): Promise<number> {
  const page = await browser.newPage({ viewport: { width: 1440, height: 900 } })
  try {
    await page.goto(`${base}/`)
    await page.waitForSelector('[data-testid=app][data-load-state=ready]', { timeout: 600_000 })
    const t0 = await page.evaluate(() => performance.now())
    await page.getByTestId('file-input').setInputFiles(log)
    await page.waitForSelector('[data-testid=app][data-load-state=loading]', { timeout: 600_000 }).catch(() => undefined)
    await page.waitForSelector('[data-testid=app][data-load-state=ready]', { timeout: 600_000 })
    return (await page.evaluate(() => performance.now())) - t0
  } finally {
    await page.close()
  }
}

async function bundleMs(browser: Browser, html: string): Promise<number> {
  const page = await browser.newPage({ viewport: { width: 1440, height: 900 } })
  try {
    await page.goto(pathToFileURL(html).href)
    await page.waitForSelector('[data-testid=app][data-load-state=ready]', { timeout: 600_000 })
    // From the navigation's start: the boot, the data element's decoding and the fold all count.
    return await page.evaluate(() => performance.now())
  } finally {
    await page.close()
  }
}

async function main(): Promise<void> {
  const events = Number(option('events') ?? 620_000)
  const rounds = Number(option('rounds') ?? 3)
  const log = bigLog(events)
  const plainMb = statSync(`${log}.jsonl`).size / 1e6
  const html = join(DIR, `big-${events}.html`)
  const made = spawnSync(process.execPath, ['--import', 'tsx', 'src/cli/main.ts', 'bundle', log, '-o', html], {
    cwd: ROOT,
    encoding: 'utf8',
  })
  if (made.status !== 0) throw new Error(`dsh-lens bundle failed: ${made.stderr}`)
  const server = await preview()
  const base = `http://127.0.0.1:${PORT}`
  const browser = await chromium.launch(chromiumLaunchOptions())
  try {
    const drop: number[] = []
    const bundle: number[] = []
    for (let r = 0; r < rounds; r++) {
      process.stderr.write(`[bench] bundle: round ${r + 1}/${rounds}\n`)
      if (r % 2 === 0) {
        drop.push(await dropMs(browser, base, resolve(log)))
        bundle.push(await bundleMs(browser, html))
      } else {
        bundle.push(await bundleMs(browser, html))
        drop.push(await dropMs(browser, base, resolve(log)))
      }
    }
    const ratio = median(bundle.map((b, k) => b / (drop[k] as number)))
    process.stdout.write(
      [
        `Offline bundle of a ${fmt(plainMb, 1)} MB log (${events} events, zstd ${fmt(statSync(log).size / 1e6, 1)} MB, bundle ${fmt(statSync(html).size / 1e6, 1)} MB):`,
        table(
          ['drop on the open viewer (ms)', 'open the bundle from file:// (ms, from navigation)', 'bundle/drop (<= 1.3)'],
          [[fmt(median(drop), 0), fmt(median(bundle), 0), `${fmt(ratio, 2)}x ${ratio <= 1.3 ? 'PASS' : 'MISS'}`]],
        ),
      ].join('\n') + '\n',
    )
  } finally {
    await browser.close()
    server.kill()
  }
}

if (process.argv[1] === fileURLToPath(import.meta.url)) await main()
