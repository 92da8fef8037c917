/**
 * The content index against the harness's own session search, on a home the real harness wrote
 * (../shared/real-dsh): sessions in three projects, two with --compact (summaries, a prune), a SPAWN subagent. For
 * each query, dsh-lens finds the same sessions, and in each the same events with the same surface class, as
 * `@deepseek-ai/dsh-session-query-sqlite` run under the Node the install ships. Where dsh-lens differs on purpose
 * (a trailing `*` is a prefix search; a query with no word is refused in words), the last tests pin it.
 */

import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { harnessSessionSearch, type HarnessSearch } from '../../test-support/harness-session-search.ts'
import { realDshAvailable, runHeadless } from '../../test-support/real-dsh.ts'
import { ContentIndex } from './content-index.ts'

const RUN_TIMEOUT_MS = 300_000

const QUERIES = [
  'csv',
  'csv bug',
  'migrations',
  'SUB-OK',
  'MOCK-SUMMARY',
  'seq 1 300',
  'print numbers',
  'Done with',
  'checkpoint',
  'subagent',
  'echo',
  'bash',
  '4999',
  'completed',
  '"seq" OR 1',
  'NEAR(csv bug)',
  'no such words anywhere',
]

type Found = Record<string, Array<{ id: string; events: Array<{ seq: number; type: string; surface: string }> }>>

function normalized(found: HarnessSearch | Found): Found {
  const out: Found = {}
  for (const [query, sessions] of Object.entries(found)) {
    out[query] = sessions
      .map((s) => ({ id: s.id, events: [...s.events].sort((a, b) => a.seq - b.seq) }))
      .sort((a, b) => (a.id < b.id ? -1 : 1))
  }
  return out
}

describe.runIf(realDshAvailable())('the content index agrees with the harness session search', () => {
  let dir = ''
  let root = ''
  let index: ContentIndex

  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'lens-content-agree-'))
    const home = join(dir, 'home')
    root = join(home, 'sessions')
    const runs: Array<[string, string, string[]]> = [
      ['find the csv bug in the parser', 'parser', []],
      ['NOTOOL explain the migrations plan', 'api', []],
      ['BIG LOOP2 SPAWN run the migrations', 'api', ['--compact']],
      ['SPAWN LOOP1 check the csv export', 'parser', []],
      ['BIG summarize the numbers', 'web', ['--compact']],
    ]
    for (const [prompt, project, flags] of runs) await runHeadless(prompt, { home, workdir: join(dir, project), flags })
    index = await ContentIndex.open({ root, cacheDir: join(dir, 'cache') })
    const report = await index.refresh()
    expect(report.skipped).toStrictEqual([])
  }, RUN_TIMEOUT_MS)

  afterAll(() => {
    index?.close()
    rmSync(dir, { recursive: true, force: true })
  })

  it(
    'finds the same sessions, events and surface classes for every query',
    async () => {
      const harness = normalized(await harnessSessionSearch(root, QUERIES))
      const ours: Found = {}
      for (const query of QUERIES) {
        const page = index.search({ query, limit: 100, hitsPerSession: 50 })
        if (!page.ok) throw new Error(page.message)
        expect(page.next).toBeNull()
        ours[query] = page.sessions.map((s) => ({
          id: s.id as string,
          events: s.hits.map((h) => ({ seq: h.seq, type: h.type, surface: h.surface })),
        }))
      }
      expect(normalized(ours)).toStrictEqual(harness)
      // The queries reach every kind of hit the real logs hold, so the comparison is not vacuous.
      const hits = Object.values(harness).flatMap((sessions) => sessions.flatMap((s) => s.events))
      expect(new Set(hits.map((h) => h.surface))).toStrictEqual(new Set(['current', 'shadowed', 'log-only']))
      expect(new Set(hits.map((h) => h.type))).toStrictEqual(
        new Set(['user/message', 'assistant/message', 'tool/call', 'tool/result']),
      )
      // Two SPAWN runs: each parent and its subagent child.
      expect(harness['SUB-OK']?.length).toBe(4)
      expect(harness['no such words anywhere']).toStrictEqual([])
    },
    RUN_TIMEOUT_MS,
  )

  it('differs on purpose: a trailing * asks for a prefix, which the harness reads as text', async () => {
    const harness = await harnessSessionSearch(root, ['migr*', 'migr'])
    expect(harness['migr*']).toStrictEqual([])
    const page = index.search({ query: 'migr*' })
    expect(page.ok && page.sessions.length).toBe(2)
    expect(index.search({ query: 'migr' })).toMatchObject({ ok: true, sessions: [] })
  })

  it('differs on purpose: a query without a word gets a sentence, where the harness finds nothing', async () => {
    const harness = await harnessSessionSearch(root, ['*', '()'])
    expect(harness).toStrictEqual({ '*': [], '()': [] })
    expect(index.search({ query: '()' })).toStrictEqual({
      ok: false,
      message:
        'the query "()" has no word in it (operators and punctuation are searched as text, not run): give a word or a phrase',
    })
  })
})
