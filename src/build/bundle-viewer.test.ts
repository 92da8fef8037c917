/**
 * The offline bundle's build pieces: its policy is the viewer's, directive for directive, but for the five a `file://`
 * page forces (scripts and the style by hash, blob workers, no images, no connections); inline text cannot close its
 * element; every worker construction is made classic, or the build fails; the data element round-trips and cannot be
 * closed by a log's text.
 */

import { runInNewContext } from 'node:vm'
import { describe, expect, it } from 'vitest'
import {
  BUNDLE_DATA_SLOT,
  BUNDLE_FORMAT,
  bundleDataElement,
  fillBundleTemplate,
  readBundleData,
  type BundleData,
} from '../core/export/offline-bundle.ts'
import { bundlePolicy, sha256Source } from './bundle-policy.ts'
import { classicWorkers, scriptText } from './build-bundle-viewer.ts'
import { metaPolicy } from './content-security-policy.ts'

const directives = (policy: string): Map<string, string> =>
  new Map(policy.split('; ').map((d) => [d.split(' ')[0] as string, d.slice(d.indexOf(' ') + 1)]))

describe('bundlePolicy', () => {
  it("is the viewer's policy with scripts and style by hash, blob workers, no images, no connections", () => {
    const app = directives(metaPolicy())
    const bundle = directives(bundlePolicy('let a = 1', 'p{}'))
    expect([...bundle.keys()]).toStrictEqual([...app.keys()])
    const changed = [...bundle.keys()].filter((k) => bundle.get(k) !== app.get(k))
    expect(changed).toStrictEqual(['script-src', 'worker-src', 'style-src', 'img-src', 'connect-src'])
    expect(bundle.get('script-src')).toBe(`${sha256Source('let a = 1')} 'wasm-unsafe-eval'`)
    expect(bundle.get('worker-src')).toBe('blob:')
    expect(bundle.get('style-src')).toBe(sha256Source('p{}'))
    expect(bundle.get('connect-src')).toBe("'none'")
    expect(bundle.get('default-src')).toBe("'none'")
  })
})

describe('inline text', () => {
  it('cannot end its script element', () => {
    expect(scriptText('x = "</SCRIPT><!--"')).toBe('x = "\\x3C/SCRIPT>\\x3C!--"')
    expect(runInNewContext(scriptText('"</script><!--"'))).toBe('</script><!--')
  })

  it('every worker becomes classic, exactly once each', () => {
    const code =
      'a=new Worker(new URL(__dshLensWorkerUrl(`assets/lens.worker-X.js`),``+import.meta.url),{type:`module`,name:`dsh-lens`})'
    expect(classicWorkers(code, 1)).toContain('{type:`classic`,name:`dsh-lens`}')
    expect(() => classicWorkers(code, 2)).toThrow(/expected 2 worker constructions/)
  })
})

describe('the bundle data', () => {
  const data: BundleData = {
    format: BUNDLE_FORMAT,
    madeAt: '2026-12-07T00:00:00.000Z',
    session: { id: 'session-1', title: '</script><script>alert(1)</script>' },
    redaction: { mode: 'redacted', paths: false, count: 3, secrets: 2, allowed: 0 },
    logs: [{ path: 'session.jsonl', sessionId: 'session-1', encoding: 'jsonl', gzipBase64: 'H4sI' }],
    madeBy: 'dsh-lens 0.1.0',
  }

  it('goes into the slot as one element that no text in it can close, and reads back', () => {
    const html = fillBundleTemplate(`<body>${BUNDLE_DATA_SLOT}</body>`, data)
    expect(html.match(/<\/script>/g)).toHaveLength(1)
    const text = /<script type="application\/json" id="dsh-lens-bundle">(.*)<\/script>/.exec(html)?.[1]
    expect(readBundleData(text)).toStrictEqual(data)
    expect(bundleDataElement(data)).not.toContain('<script>alert')
  })

  it('is refused when it is not a bundle of this format', () => {
    expect(readBundleData(null)).toBeNull()
    expect(readBundleData('{')).toBeNull()
    expect(readBundleData(JSON.stringify({ ...data, format: 'other' }))).toBeNull()
    expect(readBundleData(JSON.stringify({ ...data, logs: [] }))).toBeNull()
    expect(() => fillBundleTemplate('<body></body>', data)).toThrow(/no single data slot/)
  })
})
