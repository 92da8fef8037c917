/**
 * The content index on generated homes with phrases planted at known seqs (src/test-support/planted-home.ts): each
 * found exactly where it was planted, with its surface class; the filters; a grown log's new events (in this process,
 * where its open log is read on, and in a fresh one, where the file is read again); a deleted session gone; a
 * damaged, foreign or old index rebuilt with one line; owner-only files; skipped files with their reason.
 */

import { appendFileSync, readFileSync, rmSync, unlinkSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { ContentHome, findAll as find } from '../../test-support/content-home.ts'
import { grownEvents, PLANTED_AT, plantedEvents, writeCommonWordSession, writeSession } from '../../test-support/planted-home.ts'
import type { SearchRequest } from './content-search.ts'
import { RANKED } from './search-plan.ts'

let home: ContentHome

beforeEach(() => {
  home = new ContentHome()
})

afterEach(() => home.remove())

describe('planted phrases', () => {
  it('are found exactly at their seqs, with their surface class and the replacement that shadowed them', async () => {
    home.twoSessions()
    const index = await home.openIndex()
    const report = await index.refresh()
    expect(report).toMatchObject({ upToDate: true, indexed: 2, appended: 0, removed: 0, skipped: [] })
    const shadowed = { surface: 'shadowed', shadowedBy: PLANTED_AT.summary }
    const bothAt = (seq: number, standing: { surface: string; shadowedBy: number | null }) =>
      ['session-beta', 'session-alpha'].map((session) => ({ session, seq, ...standing }))
    expect(find(index, { query: 'PLANTUSER' })).toStrictEqual(bothAt(PLANTED_AT.user, shadowed))
    expect(find(index, { query: 'PLANTSHADOW' })).toStrictEqual(bothAt(PLANTED_AT.shadowedAnswer, shadowed))
    expect(find(index, { query: 'PLANTFAIL' })).toStrictEqual(bothAt(PLANTED_AT.failedResult, shadowed))
    expect(find(index, { query: 'PLANTSUMMARY' })).toStrictEqual(
      bothAt(PLANTED_AT.summary, { surface: 'current', shadowedBy: null }),
    )
    const logOnly = { surface: 'log-only', shadowedBy: null }
    expect(find(index, { query: 'PLANTTODO' })).toStrictEqual(bothAt(PLANTED_AT.todo, logOnly))
    expect(find(index, { query: 'PLANTERROR' })).toStrictEqual(bothAt(PLANTED_AT.turnError, logOnly))
    // A call's arguments: in the assistant message (shadowed now) and in the tool/call event (log-only).
    expect(find(index, { query: 'grep PLANTARG src/alpha' })).toStrictEqual([
      { session: 'session-alpha', seq: PLANTED_AT.assistantCall, ...shadowed },
      { session: 'session-alpha', seq: PLANTED_AT.toolCall, ...logOnly },
    ])
    // Reasoning is not searchable (the harness's extraction).
    expect(find(index, { query: 'PLANTREASON' })).toStrictEqual([])
    index.close()
  })

  it('are found the same when the logs are read on worker threads (a cold build of a big home)', async () => {
    home.twoSessions()
    const inThread = await home.openIndex()
    await inThread.refresh()
    const queries = ['PLANTUSER', 'PLANTSHADOW', 'PLANTFAIL', 'PLANTSUMMARY', 'PLANTTODO', 'grep PLANTARG src/alpha']
    const expected = queries.map((query) => inThread.search({ query, hitsPerSession: 50 }))
    inThread.close()
    const pooled = await home.openIndex()
    // poolBytes 0: any refresh reads on the pool, as a home of more than POOL_BYTES does.
    const report = await pooled.refresh({ rebuild: true, poolBytes: 0 })
    expect(report).toMatchObject({ upToDate: true, indexed: 2, skipped: [] })
    expect(queries.map((query) => pooled.search({ query, hitsPerSession: 50 }))).toStrictEqual(expected)
    pooled.close()
  })

  it('come with the hit fields find prints: turn, step, type, tool and a snippet around the match', async () => {
    home.twoSessions()
    const index = await home.openIndex()
    await index.refresh()
    const page = index.search({ query: 'PLANTFAIL', project: 'alpha' })
    expect(page).toStrictEqual({
      ok: true,
      query: 'PLANTFAIL',
      order: 'strength',
      next: null,
      sessions: [
        {
          id: 'session-alpha',
          title: 'please fix the PLANTUSER csv parser (alpha)',
          project: '/work/alpha',
          path: join(home.root, '--work-alpha--', 'session-alpha', 'session.jsonl.zstd'),
          hits: [
            {
              seq: PLANTED_AT.failedResult,
              turn: 1,
              step: 1,
              type: 'tool/result',
              tool: 'bash',
              surface: 'shadowed',
              shadowedBy: PLANTED_AT.summary,
              snippet: 'grep: PLANTFAIL no such file',
              highlight: [6, 15],
              isError: true,
              time: 1_786_000_005_000,
              readable: true,
            },
          ],
        },
      ],
    })
    index.close()
  })

  it('are narrowed by project, time, type, tool, --failed and surface', async () => {
    home.twoSessions()
    const index = await home.openIndex()
    await index.refresh()
    const seqs = (request: SearchRequest) => find(index, request).map((h) => `${h.session}:${h.seq}`)
    expect(seqs({ query: 'parser', project: '/work/alpha' })).toStrictEqual([
      'session-alpha:2',
      'session-alpha:8',
      'session-alpha:14',
    ])
    expect(seqs({ query: 'parser', project: 'beta-api' })).toHaveLength(3)
    expect(seqs({ query: 'parser', project: 'eta-api' })).toStrictEqual([])
    expect(seqs({ query: 'parser', since: 1_786_100_000_000 })).toStrictEqual([
      'session-beta:2',
      'session-beta:8',
      'session-beta:14',
    ])
    expect(seqs({ query: 'parser', until: 1_786_000_008_000 })).toStrictEqual(['session-alpha:2', 'session-alpha:8'])
    expect(seqs({ query: 'PLANTARG', types: ['tool/call'] })).toStrictEqual(['session-beta:4', 'session-alpha:4'])
    expect(seqs({ query: 'grep', tool: 'bash' }).sort()).toStrictEqual([
      'session-alpha:4',
      'session-alpha:5',
      'session-beta:4',
      'session-beta:5',
    ])
    expect(seqs({ query: 'grep', failed: true }).sort()).toStrictEqual(['session-alpha:5', 'session-beta:5'])
    expect(seqs({ query: 'parser', surface: 'current' }).sort()).toStrictEqual(['session-alpha:14', 'session-beta:14'])
    expect(seqs({ query: 'PLANTARG', surface: 'log-only' }).sort()).toStrictEqual(['session-alpha:4', 'session-beta:4'])
    index.close()
  })

  it('are found by prefix with --prefix or a trailing *, and operators are text', async () => {
    home.twoSessions()
    const index = await home.openIndex()
    await index.refresh()
    expect(find(index, { query: 'PLANTSUMM' })).toStrictEqual([])
    expect(find(index, { query: 'PLANTSUMM*' })).toHaveLength(2)
    expect(find(index, { query: 'checkpoint: PLANTSUMM', prefix: true })).toHaveLength(2)
    expect(find(index, { query: 'PLANTUSER OR PLANTTODO' })).toStrictEqual([])
    expect(find(index, { query: '"PLANTUSER"' })).toHaveLength(2)
    for (const query of ['', '   ', 'a\0b', '* ( ) "', '-']) {
      const page = index.search({ query })
      expect(page.ok).toBe(false)
      if (!page.ok) expect(page.message).toMatch(/^the query (is empty|holds a NUL|".*" has no word)/)
    }
    index.close()
  })

  it('narrowed by a filter when the words match more events than are ranked: only the filtered matches', async () => {
    home.twoSessions()
    // A third session, the newest, whose todo list says `grep` more often than RANKED events are ranked: every other
    // `grep` is log-only, so --failed and --surface leave a few candidates, each scored in one pass (search-plan.ts).
    writeCommonWordSession(home.root, RANKED, 1_786_200_000_000)
    const index = await home.openIndex()
    await index.refresh()
    const seqs = (request: SearchRequest) => find(index, request).map((h) => `${h.session}:${h.seq}`)
    // More matches than are ranked: unfiltered, the page is ordered by recency; filtered, by strength.
    expect(index.search({ query: 'grep' })).toMatchObject({ ok: true, order: 'recent' })
    expect(index.search({ query: 'grep', failed: true })).toMatchObject({ ok: true, order: 'strength' })
    // The same text in each session: the newest first.
    expect(seqs({ query: 'grep', failed: true })).toStrictEqual(['session-many:5', 'session-beta:5', 'session-alpha:5'])
    // Current events that never say `grep`: candidates, and no hit.
    expect(seqs({ query: 'grep', surface: 'current' })).toStrictEqual([])
    index.close()
  })

  it('page by session with a next token bound to the query', async () => {
    home.twoSessions()
    const index = await home.openIndex()
    await index.refresh()
    const first = index.search({ query: 'parser', limit: 1 })
    if (!first.ok || first.next === null) throw new Error('expected a second page')
    const second = index.search({ query: 'parser', limit: 1, next: first.next })
    expect(second.ok && second.next).toBeNull()
    const ids = [first, second].flatMap((p) => (p.ok ? p.sessions.map((s) => s.id) : []))
    expect(ids.sort()).toStrictEqual(['session-alpha', 'session-beta'])
    expect(index.search({ query: 'csv', limit: 1, next: first.next })).toStrictEqual({
      ok: false,
      message: 'this next token belongs to another query or other filters: search again without it',
    })
    index.close()
  })
})

describe('keeping up with the files', () => {
  it('adds only a grown log’s new events, and reclassifies what a new replacement shadowed', async () => {
    // A running session: its second turn is still open when first indexed.
    const events = plantedEvents('live').slice(0, PLANTED_AT.summary + 2)
    const session = writeSession(home.root, { id: 'session-live', project: '/work/live', events })
    for (const fresh of [false, true]) {
      rmSync(home.cacheDir, { recursive: true, force: true })
      writeSession(home.root, { id: 'session-live', project: '/work/live', events })
      let index = await home.openIndex()
      await index.refresh()
      const before = index.status().documents
      expect(find(index, { query: 'PLANTSUMMARY' })).toMatchObject([{ seq: PLANTED_AT.summary, surface: 'current' }])
      const next = events.length
      const grown = grownEvents(next, 'now PLANTGROWN arrives')
      // ... and a prune-like replace of the summary by a second summary.
      grown.push({
        type: 'user/message',
        seq: next + 3,
        time: 1_786_000_000_000 + (next + 3) * 1000,
        data: {
          role: 'user',
          content: [{ type: 'text', text: 'second PLANTSECOND summary' }],
          source: { kind: 'plugin', plugin: 'compact', compactionId: 'k2' },
          id: 'k2m',
        },
        sourceEventSeqs: [PLANTED_AT.summary],
        surfaceOp: { op: 'replace', start: PLANTED_AT.summary, end: PLANTED_AT.summary },
      })
      appendFileSync(session.path, grown.map((e) => JSON.stringify(e) + '\n').join(''))
      if (fresh) {
        index.close()
        index = await home.openIndex()
      }
      const report = await index.refresh()
      expect(report).toMatchObject({ indexed: 0, appended: 1, unchanged: 0 })
      expect(index.status().documents).toBe(before + 2)
      expect(find(index, { query: 'PLANTGROWN' })).toMatchObject([{ seq: next + 2, surface: 'current' }])
      expect(find(index, { query: 'PLANTSECOND' })).toMatchObject([{ seq: next + 3, surface: 'current' }])
      expect(find(index, { query: 'PLANTSUMMARY' })).toMatchObject([
        { seq: PLANTED_AT.summary, surface: 'shadowed', shadowedBy: next + 3 },
      ])
      // Nothing changed since: nothing is read.
      expect(await index.refresh()).toMatchObject({ indexed: 0, appended: 0, unchanged: 1, bytesRead: 0 })
      index.close()
    }
  })

  it('indexes a log rewritten in place anew, and drops a deleted session', async () => {
    const [alpha, beta] = home.twoSessions()
    const index = await home.openIndex()
    await index.refresh()
    // Same size and inode, other bytes: the seam no longer holds after it grows.
    const bytes = readFileSync(beta.path, 'utf8').replace('PLANTUSER', 'PLANTOTHR')
    writeFileSync(beta.path, bytes + '\n')
    unlinkSync(alpha.path)
    const report = await index.refresh()
    expect(report).toMatchObject({ indexed: 1, appended: 0, removed: 1 })
    expect(find(index, { query: 'PLANTUSER' })).toStrictEqual([])
    expect(find(index, { query: 'PLANTOTHR' })).toMatchObject([{ session: 'session-beta', seq: PLANTED_AT.user }])
    expect(index.status()).toMatchObject({ sessions: 1, events: 18 })
    index.close()
  })

  it('lists a file that is no session log as skipped with its reason, and indexes the rest', async () => {
    home.twoSessions()
    const bad = join(home.root, '--work-gamma--', 'session-gamma', 'session.jsonl')
    writeSession(home.root, { id: 'session-gamma', project: '/work/gamma', events: [] })
    writeFileSync(bad, Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0, 0, 0, 0]))
    const index = await home.openIndex()
    const report = await index.refresh()
    expect(report.skipped).toHaveLength(1)
    expect(report.skipped[0]?.path).toBe(bad)
    expect(report.skipped[0]?.reason).toMatch(/PNG image/)
    expect(index.status()).toMatchObject({ sessions: 2, skipped: report.skipped })
    expect(find(index, { query: 'PLANTUSER' })).toHaveLength(2)
    index.close()
  })
})
