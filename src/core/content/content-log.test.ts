/**
 * The content log against LensLog: on every harness fixture (JSONL and zstd, legacy shapes included), its documents
 * are those an extraction over the full load gives (the same events, text, brackets, tool, error flag and standing),
 * and each document's place reads its text back from the file's bytes; an upgraded legacy event has no place.
 */

import { readFileSync } from 'node:fs'
import { describe, expect, it } from 'vitest'
import { fixturesAvailable, listFixtures, listZstdFixtures } from '../../test-support/shared-fixtures.ts'
import { loadContentChecksum } from '../decode/xxh64.ts'
import { LensLog } from '../log/lens-log.ts'
import { isEventSeq, isRecord } from '../model/log-event.ts'
import type { ContentDocument } from './content-document.ts'
import { ContentLog } from './content-log.ts'
import { bracketsOf, EventFacts, isErrorResult } from './event-facts.ts'
import { eventText } from './event-text.ts'
import { documentTextAt, framePlaintext } from './read-back.ts'

const checksum = await loadContentChecksum()

/** The documents an extraction over LensLog gives: every event as the full load reads it, classified at the end. */
function lensLogDocuments(bytes: Uint8Array): Array<Omit<ContentDocument, 'place'>> {
  const log = new LensLog({ checksum })
  log.push(bytes)
  const facts = new EventFacts()
  const out: Array<Omit<ContentDocument, 'place'>> = []
  const timeline = log.fold.timeline
  for (let index = 0; index < log.length; index++) {
    const event = log.event(index)
    if (!isRecord(event)) continue
    facts.observe(event)
    const text = eventText(event)
    if (text === '' || !isEventSeq(event.seq) || typeof event.type !== 'string') continue
    const node = timeline.findNode(event.seq)
    const on = node !== -1 && timeline.indexOf(node) === index
    const by = on ? timeline.shadowedBy(node) : -1
    out.push({
      seq: event.seq,
      index,
      type: event.type,
      time: typeof event.time === 'number' ? event.time : null,
      ...bracketsOf(log.turns, event, index),
      tool: facts.toolOf(event),
      isError: isErrorResult(event),
      text,
      surface: !on ? 'log-only' : by === -1 ? 'current' : 'shadowed',
      shadowedBy: on && by !== -1 ? timeline.seqOf(by) : null,
    })
  }
  return out
}

function contentDocuments(bytes: Uint8Array): ContentDocument[] {
  const log = new ContentLog({ checksum })
  log.push(bytes)
  return log.next().documents
}

function readBack(bytes: Uint8Array, d: ContentDocument): string | null {
  const place = d.place
  if (place === null) return null
  const plaintext = place.frameAt < 0 ? bytes : framePlaintext(bytes.subarray(place.frameAt, place.frameEnd), checksum)
  return plaintext === null ? null : documentTextAt(plaintext, place.lineAt, d)
}

describe.runIf(fixturesAvailable())('ContentLog on the harness fixtures', () => {
  const fixtures = [...listFixtures(), ...listZstdFixtures()]

  it('gives the documents an extraction over LensLog gives, on every fixture', () => {
    let documents = 0
    for (const fixture of fixtures) {
      const bytes = new Uint8Array(readFileSync(fixture.path))
      const ours = contentDocuments(bytes).map(({ place: _place, ...rest }) => rest)
      expect(ours, fixture.name).toStrictEqual(lensLogDocuments(bytes))
      documents += ours.length
    }
    expect(documents).toBeGreaterThan(700)
  })

  it('reads every document’s text back from its place, except an upgraded legacy event’s', () => {
    let placed = 0
    let unplaced = 0
    for (const fixture of fixtures) {
      const bytes = new Uint8Array(readFileSync(fixture.path))
      const raw = new LensLog({ checksum, upgradeLegacy: false })
      raw.push(bytes)
      for (const d of contentDocuments(bytes)) {
        if (d.place === null) {
          unplaced++
          // Null only where the event on disk is not the one indexed: a legacy shape the reader upgrades.
          const stored = raw.event(d.index)
          expect(stored?.type === d.type && eventText(stored as never) === d.text, fixture.name).toBe(false)
          continue
        }
        placed++
        expect(readBack(bytes, d), `${fixture.name} seq ${d.seq}`).toBe(d.text)
      }
    }
    expect(placed).toBeGreaterThan(700)
    expect(unplaced).toBeGreaterThan(0)
  })

  it('says null for a place whose record is no longer that event', () => {
    const fixture = listZstdFixtures()[0] as { path: string }
    const bytes = new Uint8Array(readFileSync(fixture.path))
    const d = contentDocuments(bytes).find((doc) => doc.place !== null) as ContentDocument
    expect(readBack(bytes, { ...d, seq: d.seq + 1 })).toBeNull()
    expect(readBack(bytes, { ...d, type: 'todo/write' })).toBeNull()
  })
})
