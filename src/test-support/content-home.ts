/**
 * A scratch dsh home and cache directory for the content index's tests: sessions with planted phrases
 * (planted-home.ts), the index opened on them with its notices kept, and hits flattened for comparison.
 */

import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { ContentIndex } from '../server/content-index/content-index.ts'
import type { SearchPage, SearchRequest } from '../server/content-index/content-search.ts'
import { plantedEvents, writeSession, type PlantedSession } from './planted-home.ts'

export interface FlatHit {
  readonly session: string | null
  readonly seq: number
  readonly surface: string
  readonly shadowedBy: number | null
}

export class ContentHome {
  readonly dir = mkdtempSync(join(tmpdir(), 'lens-content-index-'))
  readonly root = join(this.dir, 'home', 'sessions')
  readonly cacheDir = join(this.dir, 'cache', 'dsh-lens')
  readonly notices: string[] = []

  openIndex(): Promise<ContentIndex> {
    return ContentIndex.open({ root: this.root, cacheDir: this.cacheDir, notice: (line) => this.notices.push(line) })
  }

  /** Two sessions with every phrase planted: alpha (zstd, /work/alpha) and beta (JSONL, /work/beta-api, a day later). */
  twoSessions(): [PlantedSession, PlantedSession] {
    return [
      writeSession(this.root, { id: 'session-alpha', project: '/work/alpha', events: plantedEvents('alpha'), zstd: true }),
      writeSession(this.root, {
        id: 'session-beta',
        project: '/work/beta-api',
        events: plantedEvents('beta', 1_786_100_000_000),
        createdAt: 1_786_100_000_000,
      }),
    ]
  }

  remove(): void {
    rmSync(this.dir, { recursive: true, force: true })
  }
}

/** A page's hits: sessions in the index's order, hits within one by seq (strength order is the ranking test's). */
export function flatHits(page: SearchPage): FlatHit[] {
  if (!page.ok) throw new Error(page.message)
  return page.sessions.flatMap((s) =>
    [...s.hits]
      .sort((a, b) => a.seq - b.seq)
      .map((h) => ({ session: s.id, seq: h.seq, surface: h.surface, shadowedBy: h.shadowedBy })),
  )
}

/** Every hit of a query (up to 50 per session). */
export function findAll(index: ContentIndex, request: SearchRequest): FlatHit[] {
  return flatHits(index.search({ hitsPerSession: 50, ...request }))
}
