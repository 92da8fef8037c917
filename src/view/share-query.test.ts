/**
 * Share… and the Secrets answer end to end below the UI: the page's store over the in-thread lens host (the same
 * host the worker runs), a log with planted secrets dropped as a File. The answer lists every planted secret with
 * the core's places and never a value; the review groups them; the bundle written with one value kept holds that
 * one and none of the others (in any escaped form), and its log is the same session (the harness's fold).
 */

import { describe, expect, it } from 'vitest'
import {
  escapedForms,
  LensLog,
  loadContentChecksum,
  readBundleData,
  BUNDLE_DATA_SLOT,
  scanSecrets,
  type BundleData,
} from '../core/index.ts'
import { createLensStore, type LensState, type LensStore } from '../store/create-lens-store.ts'
import { plantedValues } from '../test-support/planted-secrets.ts'
import { redactionProblem } from '../test-support/redaction-oracle.ts'
import { corpusLog, plantedJsonl, plantedZstd } from '../test-support/secret-log.ts'
import { createInThreadClient } from '../worker/in-thread-client.ts'
import { OpenLog } from './open-log.ts'
import { prepareLog } from './share-logs.ts'
import { workerShareFetch } from '../worker/share-fetch.ts'
import { bundleFileName } from './share-bundle.ts'

const TEMPLATE = `<!doctype html><title>t</title>${BUNDLE_DATA_SLOT}`
const TEMPLATE_URL = `data:text/html,${encodeURIComponent(TEMPLATE)}`

function until(store: LensStore, predicate: (s: LensState) => boolean, timeoutMs = 20_000): Promise<LensState> {
  return new Promise((resolve, reject) => {
    if (predicate(store.getState())) return resolve(store.getState())
    const timer = setTimeout(() => {
      stop()
      reject(new Error(`timed out: load ${store.getState().loadState}, share ${store.getState().share.state}`))
    }, timeoutMs)
    const stop = store.subscribe((s) => {
      if (!predicate(s)) return
      clearTimeout(timer)
      stop()
      resolve(s)
    })
  })
}

async function gunzip(base64: string): Promise<Uint8Array> {
  const bytes = Uint8Array.from(Buffer.from(base64, 'base64'))
  const stream = new Blob([bytes]).stream().pipeThrough(new DecompressionStream('gzip'))
  return new Uint8Array(await new Response(stream).arrayBuffer())
}

async function fold(bytes: Uint8Array): Promise<LensLog> {
  const log = new LensLog({ checksum: await loadContentChecksum() })
  log.push(bytes)
  log.finish()
  return log
}

const dataOf = (html: string): BundleData | null =>
  readBundleData(/<script type="application\/json" id="dsh-lens-bundle">(.*?)<\/script>/s.exec(html)?.[1])

describe('the Secrets answer and Share… over the lens host', () => {
  it('lists every planted secret, masked, and writes a bundle that keeps only the allowed value', async () => {
    const { events, plants } = corpusLog('tool-result', 7)
    const zstd = plantedZstd(plantedJsonl(events, true))
    const expected = scanSecrets(await fold(zstd))
    const store = createLensStore({ lens: createInThreadClient() })
    store.getState().loadFile(new File([zstd as BlobPart], 'planted.jsonl.zstd'))
    await until(store, (s) => s.loadState === 'ready')
    expect(store.getState().secrets.answer).toBeNull()

    store.getState().setSecretsOpen(true)
    const { secrets } = await until(store, (s) => s.secrets.answer !== null)
    const answer = secrets.answer
    expect(answer?.total).toBe(expected.findings.length)
    expect(answer?.findings.map((f) => [f.seq, f.kind, f.hash])).toStrictEqual(
      expected.findings.map((f) => [f.seq, f.kind, f.hash]),
    )
    for (const plant of plants) expect(answer?.findings.some((f) => f.seq === plant.seq)).toBe(true)
    const values = plants.flatMap((p) => plantedValues(p.secret).map((v) => v.value))
    const said = JSON.stringify(answer)
    expect(values.filter((v) => escapedForms(v).some((form) => said.includes(form)))).toStrictEqual([])
    // The inspector's places at one event come from the scan kept, without scanning again.
    const first = answer?.findings[0]
    const at = await store.client.query('secrets-at', { index: first?.index ?? -1 })
    expect(at.scanned).toBe(true)
    expect(at.findings.map((f) => f.hash)).toContain(first?.hash)

    store.getState().openShare(TEMPLATE_URL)
    const { share } = await until(store, (s) => s.share.state === 'ready' || s.share.state === 'error')
    expect(share.error).toBeNull()
    expect(share.review?.templateMissing).toBeNull()
    const review = share.review?.logs[0]
    expect(review?.distinct.map((g) => g.hash)).toStrictEqual(expected.distinct.map((d) => d.hash))
    expect(review?.encoding).toBe('zstd')
    const kept = expected.distinct[0]?.hash as string
    store.getState().toggleAllow(kept)
    const file = await store.getState().writeBundle()
    expect(file?.name).toBe('planted.html')
    const html = await (file?.blob as Blob).text()
    const data = dataOf(html)
    expect(data?.redaction).toMatchObject({ mode: 'redacted', allowed: 1, secrets: expected.distinct.length - 1 })
    expect(data?.session.id).toBe('planted')
    const log = await gunzip(data?.logs[0]?.gzipBase64 ?? '')
    expect(data?.logs[0]?.encoding).toBe('zstd')
    // The same session under the harness's fold, with every value but the kept one gone from its bytes and text.
    const keptValue = expected.valuesToRedact().find((v) => v.hash === kept)?.value as string
    const removed = values.filter((v) => !keptValue.includes(v) && !v.includes(keptValue))
    expect(redactionProblem(zstd, log, removed)).toBeNull()
    expect(redactionProblem(zstd, log, [keptValue])).toMatch(/still in the decoded text/)
    store.getState().closeShare()
    expect(store.getState().share.open).toBe(false)
    store.client.dispose()
  })

  it('says when the page has no bundle template, and refuses to build', async () => {
    const { events } = corpusLog('user', 3)
    const store = createLensStore({ lens: createInThreadClient() })
    store.getState().loadFile(new File([plantedJsonl(events, false)], 'plain.jsonl'))
    await until(store, (s) => s.loadState === 'ready')
    store.getState().openShare('data:text/html,no%20slot%20here')
    const { share } = await until(store, (s) => s.share.state === 'ready' || s.share.state === 'error')
    expect(share.review?.templateMissing).toMatch(/no bundle template/)
    expect(await store.getState().writeBundle()).toBeNull()
    expect(store.getState().share.error).toMatch(/no bundle template/)
    store.client.dispose()
  })

  it('reads a URL again, and a followed stream as its events, saying so', async () => {
    const { events } = corpusLog('user', 4)
    const jsonl = plantedJsonl(events, false)
    const open = await OpenLog.create()
    open.begin('planted.jsonl', null)
    open.push(new TextEncoder().encode(jsonl))
    open.finish()
    // A stream: the worker kept no bytes; the bundle holds the events as followed.
    const streamed = await prepareLog(open, { kind: 'open', path: 'planted.jsonl' }, workerShareFetch)
    expect(streamed.note).toMatch(/followed session: the bundle holds its/)
    expect(streamed.log.length).toBe(open.lensLog.length)
    expect(streamed.scanned.places.length).toBe(scanSecrets(open.lensLog).findings.length)
    // A URL that serves more now than when it was opened.
    const more = plantedJsonl(corpusLog('user', 4).events.concat(), false)
    open.setOrigin({ kind: 'url', url: `data:application/x-ndjson,${encodeURIComponent(more)}`, label: '/x.jsonl' })
    const again = await prepareLog(open, { kind: 'open', path: 'x.jsonl' }, workerShareFetch)
    expect(again.note).toBeNull()
    open.setOrigin({
      kind: 'url',
      url: `data:application/x-ndjson,${encodeURIComponent(jsonl.split('\n').slice(0, 5).join('\n') + '\n')}`,
      label: '/x.jsonl',
    })
    const shorter = await prepareLog(open, { kind: 'open', path: 'x.jsonl' }, workerShareFetch)
    expect(shorter.note).toBe(
      `/x.jsonl was read again for the bundle: it has 4 events now (the page shows ${open.lensLog.length})`,
    )
  })

  it('names the bundle after its root log', () => {
    expect(bundleFileName('session.jsonl.zstd')).toBe('session.html')
    expect(bundleFileName('a/b/demo-session.jsonl')).toBe('demo-session.html')
    expect(bundleFileName('abc')).toBe('abc.html')
  })
})
