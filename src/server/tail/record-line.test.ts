/** Cutting packed rows at any seq range re-encodes rows that the core validates and expands to exactly the original members. */

import { readFileSync } from 'node:fs'
import { expect, test } from 'vitest'
import { FIXTURE_DIR, fixturesAvailable } from '../../test-support/shared-fixtures.ts'
import { expandPackedRow, validatePackedRow, type PackedRow } from '../../core/index.ts'
import { parseRecordLine, sliceRecordText } from './record-line.ts'

const available = fixturesAvailable()
const rows = available
  ? readFileSync(`${FIXTURE_DIR}acp--packed-chunks--session.jsonl`, 'utf8')
      .split('\n')
      .filter((line) => /"type":"(text|reasoning|tool-call)-chunks"/.test(line))
  : []

test.runIf(available)('every sub-range of every fixture row round-trips through the core', () => {
  expect(rows.length).toBeGreaterThan(2)
  for (const line of rows) {
    const parsed = parseRecordLine(line)
    if (!parsed.ok) throw new Error(parsed.why)
    const record = parsed.record
    const all = expandPackedRow(record.row as PackedRow)
    expect(sliceRecordText(record, record.firstSeq, record.lastSeq)).toBe(line)
    for (let from = record.firstSeq; from <= record.lastSeq; from++) {
      for (let to = from; to <= record.lastSeq; to++) {
        const text = sliceRecordText(record, from, to)
        const value = JSON.parse(text) as Record<string, unknown>
        const row = validatePackedRow(value, value['type'] as PackedRow['type'])
        expect(expandPackedRow(row)).toStrictEqual(all.slice(from - record.firstSeq, to - record.firstSeq + 1))
      }
    }
  }
})

test('lines the server cannot place in seq order are refused with a reason', () => {
  expect(parseRecordLine('{"type":"x"}')).toMatchObject({ ok: false })
  expect(parseRecordLine('not json')).toMatchObject({ ok: false })
  expect(parseRecordLine('{"type":"text-chunks","seq0":1}')).toMatchObject({ ok: false })
  expect(parseRecordLine('{"type":"turn/end","seq":4,"time":0,"data":{}}')).toMatchObject({
    ok: true,
    record: { firstSeq: 4, turn: 'end' },
  })
})
