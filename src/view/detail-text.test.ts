/** The inspector's long texts in pieces: a huge tool result read back chunk by chunk equals the event's JSON. */

import { readFileSync } from 'node:fs'
import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { countHidden } from '../core/text/hidden-chars.ts'
import { FIXTURE_DIR, fixturesAvailable } from '../test-support/shared-fixtures.ts'
import { OpenLog } from './open-log.ts'
import { RAW_JSON_MAX_CHARS } from '../protocol/event-views.ts'
import { DetailQueries } from './detail-query.ts'

const details = new DetailQueries()

const HEADER = '{"type":"session","version":0,"id":"s","createdAt":0,"delegationDepth":0}'

function toolResultLine(text: string): string {
  const message = {
    id: 'u0',
    role: 'user',
    content: [{ type: 'tool-result', toolCallId: 'c1', content: [{ type: 'text', text }] }],
    source: { kind: 'tool', callId: 'c1' },
  }
  return JSON.stringify({ type: 'tool/result', seq: 0, time: 0, data: { turn: 0, step: 0, message }, surfaceOp: 'append' })
}

async function sessionOf(lines: string[]): Promise<OpenLog> {
  const bytes = new TextEncoder().encode([HEADER, ...lines, ''].join('\n'))
  const session = await OpenLog.create()
  session.begin('t.jsonl', bytes.length)
  session.push(bytes)
  session.finish()
  return session
}

/** Read the whole text back the way the inspector does: the detail's first part, then `detail-text` pieces. */
function readAll(session: OpenLog, index: number, step: number, fromDetail = true): { text: string; ends: number[] } {
  const detail = details.detail(session, index, index)
  let text = fromDetail ? (detail?.rawJson ?? '') : ''
  const ends = [text.length]
  const total = detail?.rawJsonInfo.total ?? 0
  while (text.length < total) {
    const chunk = details.detailText(session, index, 'raw', text.length, step)
    if (chunk === null || chunk.end === chunk.offset) throw new Error(`no progress at ${text.length}`)
    expect(chunk.offset).toBe(text.length)
    text += chunk.text
    ends.push(chunk.end)
  }
  return { text, ends }
}

describe('detail-text', () => {
  it('a 3 MB tool result: the detail sends the first part, pieces rebuild the exact JSON with its hidden count', async () => {
    const body = 'line of output \u202Eevil\u202C\u200B '.repeat(100_000)
    const session = await sessionOf([toolResultLine(body)])
    const expected = JSON.stringify(session.lensLog.event(0), null, 2)
    const detail = details.detail(session, 0, 0)
    expect(detail?.rawJson).toBe(expected.slice(0, RAW_JSON_MAX_CHARS))
    expect(detail?.rawJsonInfo.total).toBe(expected.length)
    expect(detail?.rawJsonInfo.hidden).toStrictEqual(countHidden(expected))
    expect(detail?.rawJsonInfo.hidden.bidi).toBe(200_000)
    expect(detail?.rawJsonInfo.hidden.invisible).toBe(100_000)
    expect(readAll(session, 0, 1024 * 1024).text).toBe(expected)
    // Copy and save take the whole value as a Blob made in the worker.
    expect(await details.detailBlob(session, 0, 'raw')?.text()).toBe(expected)
    expect(details.detailBlob(session, 0, 'disk')).toBeNull()
    // A piece past the end is empty, a negative offset is clamped; a missing event or on-disk shape is null.
    expect(details.detailText(session, 0, 'raw', expected.length + 5, 10)).toMatchObject({ text: '', offset: expected.length })
    expect(details.detailText(session, 0, 'raw', -3, 4)?.text).toBe(expected.slice(0, 4))
    expect(details.detailText(session, 1, 'raw', 0, 10)).toBeNull()
    expect(details.detailText(session, 0, 'disk', 0, 10)).toBeNull()
    expect(detail?.onDiskJsonInfo).toBeNull()
  })

  it('pieces never end between the halves of a surrogate pair', async () => {
    // Emoji and letters in random order, read in random piece sizes: every end is between code points.
    await fc.assert(
      fc.asyncProperty(
        fc.array(fc.constantFrom('😀', 'a', '\u202E', '𝄞'), { minLength: 1, maxLength: 300 }),
        fc.integer({ min: 1, max: 9 }),
        async (parts, step) => {
          const session = await sessionOf([toolResultLine(parts.join(''))])
          const expected = JSON.stringify(session.lensLog.event(0), null, 2)
          const { text, ends } = readAll(session, 0, step, false)
          expect(text).toBe(expected)
          for (const end of ends) {
            const unit = expected.charCodeAt(end - 1)
            if (end < expected.length) expect(unit >= 0xd800 && unit <= 0xdbff).toBe(false)
          }
        },
      ),
      { numRuns: 50 },
    )
  })

  it.skipIf(!fixturesAvailable())('an upgraded legacy event: its on-disk JSON comes in pieces too', async () => {
    const bytes = readFileSync(`${FIXTURE_DIR}web--code-mode-round--session.jsonl`)
    const session = await OpenLog.create()
    session.begin('legacy.jsonl', bytes.length)
    session.push(bytes)
    session.finish()
    const detail = details.detail(session, 205, 205)
    const expected = JSON.stringify(session.lensLog.rawEvent(205), null, 2)
    expect(detail?.onDiskJsonInfo?.total).toBe(expected.length)
    expect(details.detailText(session, 205, 'disk', 10, 50)?.text).toBe(expected.slice(10, 60))
  })
})
