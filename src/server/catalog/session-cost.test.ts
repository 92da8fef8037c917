/**
 * The sessions home's cost column from the catalog's digest scan: a session's own cost in each currency equals what
 * the core's `logCost` says of the loaded log (the other reader), and a log that grows is priced again as it is read
 * on; a rates card that replaces every price leaves the column without a price.
 */

import { appendFileSync, mkdtempSync, readFileSync, statSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { LensLog, loadContentChecksum, logCost, roundAmount, type RateCard } from '../../core/index.ts'
import { demoSessionJsonl } from '../../generate/index.ts'
import { scanDigest, type FileIdentity } from './digest-scan.ts'

// The bundled demo, generated (a fresh clone has no public/demo/ until `npm run demo`).
const DEMO = demoSessionJsonl()
const checksum = await loadContentChecksum()

const identityOf = (path: string): FileIdentity => {
  const st = statSync(path)
  return { dev: st.dev, ino: st.ino, birthtimeMs: st.birthtimeMs, size: st.size, mtimeMs: st.mtimeMs }
}

function loadedCost(text: string): { CNY: number; USD: number } {
  const log = new LensLog({ checksum })
  log.push(new TextEncoder().encode(text))
  log.finish()
  return { CNY: roundAmount(logCost(log, 'CNY').totals.cost.total), USD: roundAmount(logCost(log, 'USD').totals.cost.total) }
}

describe('the catalog scan prices a session', () => {
  it('equal to logCost in both currencies, and again as the log grows', async () => {
    const path = join(mkdtempSync(join(tmpdir(), 'lens-session-cost-')), 'session.jsonl')
    const lines = DEMO.split('\n')
    const half = lines.slice(0, Math.floor(lines.length / 2)).join('\n') + '\n'
    writeFileSync(path, half)
    const first = await scanDigest(path, identityOf(path), undefined, { checksum })
    const round = (c: { CNY: number | null; USD: number | null }) => ({
      CNY: c.CNY === null ? null : roundAmount(c.CNY),
      USD: c.USD === null ? null : roundAmount(c.USD),
    })
    expect(round(first.cost)).toStrictEqual(loadedCost(half))
    appendFileSync(path, DEMO.slice(half.length))
    const grown = await scanDigest(path, identityOf(path), first, { checksum })
    expect(grown.how).toBe('resumed')
    expect(round(grown.cost)).toStrictEqual(loadedCost(DEMO))
    expect(grown.cost.CNY).toBeGreaterThan(first.cost.CNY ?? Infinity)
  })

  it('a card with no rows prices nothing: no price, not zero', async () => {
    const path = join(mkdtempSync(join(tmpdir(), 'lens-session-cost-')), 'session.jsonl')
    writeFileSync(path, DEMO)
    const card = { ...JSON.parse(readFileSync(new URL('../../core/cost/rate-card.json', import.meta.url), 'utf8')) }
    const empty = { ...card, rates: [], renames: [] } as unknown as RateCard
    const scanned = await scanDigest(path, identityOf(path), undefined, { checksum, card: empty })
    expect(scanned.cost).toStrictEqual({ CNY: null, USD: null })
  })
})
