/** Share…'s review in numbers: secrets merged across the bundle's logs by hash, and what the choices remove. */

import { describe, expect, it } from 'vitest'
import type { SecretFindingView, SecretGroup } from '../../protocol/secrets.ts'
import type { ShareLogReview, ShareReview } from '../../protocol/share.ts'
import { reviewGroups, shareCounts } from './share-counts.ts'

const place = (hash: string, seq: number, seen: boolean): SecretFindingView => ({
  index: seq,
  seq,
  line: seq + 2,
  field: 'data.text',
  kind: 'github-token',
  masked: 'ghp_Ab… (40 chars)',
  hash,
  context: '…',
  seen: seen ? [{ from: seq, to: seq + 1, fromSeq: seq, toSeq: seq + 1, firstStep: null, lastStep: null, stepCount: 0 }] : [],
})
const group = (hash: string, places: number, seenPlaces: number): SecretGroup => ({
  hash,
  kind: 'github-token',
  masked: 'ghp_Ab… (40 chars)',
  places,
  seenPlaces,
  first: place(hash, 1, seenPlaces > 0),
  firstSeen: seenPlaces > 0 ? place(hash, 1, true) : null,
})
const log = (path: string, distinct: SecretGroup[], pathPlaces: number): ShareLogReview => ({
  path,
  sessionId: path,
  events: 10,
  encoding: 'jsonl',
  note: null,
  total: distinct.reduce((n, g) => n + g.places, 0),
  findings: [],
  distinct,
  pathNames: pathPlaces > 0 ? 1 : 0,
  pathPlaces,
})
const review: ShareReview = {
  job: 1,
  session: { id: 'root', title: null },
  logs: [
    log('root.jsonl', [group('aaaaaaaa', 2, 1), group('bbbbbbbb', 1, 0)], 3),
    log('subagents/c/c.jsonl', [group('aaaaaaaa', 4, 0), group('cccccccc', 1, 1)], 2),
  ],
  templateMissing: null,
}

describe('Share… counts', () => {
  it('merges a secret found in several logs into one, with all its places', () => {
    const groups = reviewGroups(review)
    expect(groups.map((g) => [g.hash, g.places, g.seenPlaces, g.log, g.inOpenLog])).toStrictEqual([
      ['aaaaaaaa', 6, 1, 'root.jsonl', true],
      ['bbbbbbbb', 1, 0, 'root.jsonl', true],
      ['cccccccc', 1, 1, 'subagents/c/c.jsonl', false],
    ])
  })

  it('counts what a redaction removes, what the allow list keeps, and home paths when asked', () => {
    const options = { redact: true, redactPaths: false, withSubagents: true }
    expect(shareCounts(review, [], options)).toStrictEqual({ secrets: 3, places: 8, sent: 2, kept: 0, keptPlaces: 0, paths: 0 })
    expect(shareCounts(review, ['aaaaaaaa'], { ...options, redactPaths: true })).toStrictEqual({
      secrets: 2,
      places: 2,
      sent: 1,
      kept: 1,
      keptPlaces: 6,
      paths: 5,
    })
    expect(shareCounts(review, ['aaaaaaaa'], { ...options, redact: false, redactPaths: true })).toStrictEqual({
      secrets: 0,
      places: 0,
      sent: 0,
      kept: 3,
      keptPlaces: 8,
      paths: 0,
    })
  })
})
