/**
 * Packed chunk rows against the harness's own codec (`decodeStorageRecord`, `packChunkRuns`, loaded by
 * `chunk-rows-oracle.ts`): a row expands to exactly the events the harness expands it to, key for key (a key
 * holding `undefined` is a different JSON shape: compared with `toStrictEqual`), runs the harness packs expand back
 * to the events it packed, and a malformed row is refused with the harness's text.
 */

import { describe, expect, it } from 'vitest'
import { harnessDecode, harnessPack } from '../../test-support/chunk-rows-oracle.ts'
import type { PackedRowTag } from '../model/log-event.ts'
import { expandPackedMember, expandPackedRow, isPackedRowTag, packedRowSize, validatePackedRow } from './packed-rows.ts'

/** Our decode of one parsed JSONL value, shaped like `harnessDecode`'s answer. */
function ourDecode(value: Record<string, unknown>): { events: unknown[] } | { error: string } {
  const tag = value['type']
  if (!isPackedRowTag(tag)) return { events: [value] }
  try {
    return { events: expandPackedRow(validatePackedRow(value, tag as PackedRowTag)) }
  } catch (error) {
    return { error: error instanceof Error ? error.message : String(error) }
  }
}

const delta = (seq: number, time: number, chunk: Record<string, unknown>, step = 1) => ({
  type: 'assistant/chunk',
  seq,
  time,
  data: { turn: 1, step, chunk },
})

describe('packed rows', () => {
  it('a tool-call row without a name expands to members with no name key, as the harness expands it', () => {
    const row = {
      type: 'tool-call-chunks',
      seq0: 7,
      time0: 100,
      data: { turn: 1, step: 2, index: 1, id: 'call-1', dt: [3, 0], args: ['{"a', '":', '1}'] },
    }
    const expected = [
      delta(7, 100, { type: 'tool-call-delta', index: 1, id: 'call-1', argumentsDelta: '{"a' }, 2),
      delta(8, 103, { type: 'tool-call-delta', index: 1, id: 'call-1', argumentsDelta: '":' }, 2),
      delta(9, 103, { type: 'tool-call-delta', index: 1, id: 'call-1', argumentsDelta: '1}' }, 2),
    ]
    expect(ourDecode(row)).toStrictEqual({ events: expected })
    expect(harnessDecode(row)).toStrictEqual({ events: expected })
    const member = expandPackedMember(validatePackedRow(row, 'tool-call-chunks'), 1)
    expect(Object.keys((member.data as { chunk: object }).chunk)).toStrictEqual(['type', 'index', 'id', 'argumentsDelta'])
  })

  it('a tool-call row with a name keeps it on every member, in the harness key order', () => {
    const row = {
      type: 'tool-call-chunks',
      seq0: 0,
      time0: 5,
      data: { turn: 1, step: 1, index: 0, id: 'c', name: 'bash', dt: [1, 1], args: ['a', 'b', 'c'] },
    }
    const ours = ourDecode(row)
    expect(ours).toStrictEqual(harnessDecode(row))
    const chunk = ((ours as { events: { data: { chunk: object } }[] }).events[2] as { data: { chunk: object } }).data.chunk
    expect(Object.keys(chunk)).toStrictEqual(['type', 'index', 'id', 'name', 'argumentsDelta'])
  })

  it('runs the harness packs (text, reasoning, tool calls with and without a name) expand back to its events', () => {
    const events: unknown[] = []
    let seq = 0
    let time = 1_000
    const run = (n: number, chunk: (k: number) => Record<string, unknown>, step = 1) => {
      for (let k = 0; k < n; k++) events.push(delta(seq++, (time += k % 3), chunk(k), step))
    }
    run(4, (k) => ({ type: 'text-delta', index: 0, text: `t${k}` }))
    run(3, (k) => ({ type: 'reasoning-delta', index: 1, text: `r${k}` }))
    run(5, (k) => ({ type: 'tool-call-delta', index: 2, id: 'x', argumentsDelta: `${k}` }))
    run(3, (k) => ({ type: 'tool-call-delta', index: 3, id: 'y', name: 'read', argumentsDelta: `${k}` }))
    // Too short to pack, and a name present on only some members (a mixed run the harness does not pack).
    run(2, (k) => ({ type: 'text-delta', index: 4, text: `s${k}` }))
    run(3, (k) => ({ type: 'tool-call-delta', index: 5, id: 'z', ...(k === 1 ? { name: 'w' } : {}), argumentsDelta: `${k}` }))
    run(3, (k) => ({ type: 'text-delta', index: 6, text: `u${k}` }), 2)
    const records = harnessPack(events) as Record<string, unknown>[]
    expect(records.filter((r) => isPackedRowTag(r['type'])).map((r) => r['type'])).toStrictEqual([
      'text-chunks',
      'reasoning-chunks',
      'tool-call-chunks',
      'tool-call-chunks',
      'text-chunks',
    ])
    const expanded = records.flatMap((r) => {
      const ours = ourDecode(r)
      expect(ours).toStrictEqual(harnessDecode(r))
      return 'events' in ours ? ours.events : []
    })
    expect(expanded).toStrictEqual(events)
    for (const r of records.filter((r) => isPackedRowTag(r['type'])))
      expect(packedRowSize(validatePackedRow(r, r['type'] as PackedRowTag))).toBe(
        (ourDecode(r) as { events: unknown[] }).events.length,
      )
  })

  it('a malformed row is refused with the harness text, check for check', () => {
    const good = { type: 'text-chunks', seq0: 3, time0: 10, data: { turn: 1, step: 1, index: 0, dt: [1], texts: ['a', 'b'] } }
    const tool = {
      type: 'tool-call-chunks',
      seq0: 3,
      time0: 10,
      data: { turn: 1, step: 1, index: 0, id: 'c', dt: [1], args: ['a', 'b'] },
    }
    const broken: Record<string, unknown>[] = [
      { ...good, extra: 1 },
      { ...good, seq0: -1 },
      { ...good, seq0: 1.5 },
      { ...good, time0: '10' },
      { ...good, data: null },
      { ...good, data: [] },
      { ...good, data: { ...good.data, texts: [] } },
      { ...good, data: { ...good.data, texts: ['a', 2] } },
      { ...good, data: { ...good.data, dt: [] } },
      { ...good, data: { ...good.data, dt: [0.5] } },
      { ...good, data: { ...good.data, turn: '1' } },
      { ...good, data: { ...good.data, name: 'x' } },
      { ...good, seq0: Number.MAX_SAFE_INTEGER, data: { ...good.data, dt: [1, 1], texts: ['a', 'b', 'c'] } },
      { ...good, time0: Number.MAX_SAFE_INTEGER, data: { ...good.data, dt: [1] } },
      { ...tool, data: { ...tool.data, id: 3 } },
      { ...tool, data: { ...tool.data, name: 4 } },
      { ...tool, data: { ...tool.data, texts: ['a'] } },
      { ...tool, data: { ...tool.data, args: 'ab' } },
      { ...tool, type: 'reasoning-chunks' },
    ]
    for (const row of broken) {
      const harness = harnessDecode(row)
      expect(harness, JSON.stringify(row)).toHaveProperty('error')
      expect(ourDecode(row), JSON.stringify(row)).toStrictEqual(harness)
    }
    // Accepted as the harness accepts them, edge cases of its float arithmetic included: (2^53 - 1) + 2 - 1 rounds
    // back to a safe integer, so a two-member row there decodes.
    for (const row of [good, tool, { ...good, seq0: Number.MAX_SAFE_INTEGER }]) {
      expect(harnessDecode(row), JSON.stringify(row)).toHaveProperty('events')
      expect(ourDecode(row), JSON.stringify(row)).toStrictEqual(harnessDecode(row))
    }
  })
})
