/**
 * The search filters on a log written out by hand, where every event matches (a regex for any character) so the
 * filter alone decides what is found: a turn, a step of a turn, a step number in every turn, event types, the
 * surface. The log has the brackets the structure must read: a step left open by the next `step/start`, a step
 * closed by its `step/end`, a turn (and its step) left open by the next `turn/start`, a last turn open at the end.
 */

import { describe, expect, it } from 'vitest'
import { LensLog } from '../log/lens-log.ts'
import { LogSearch, type SearchFilters } from './log-search.ts'
import { compileMatcher } from './text-matcher.ts'

const HEADER = { type: 'session', version: 0, id: 's', createdAt: 0, delegationDepth: 0 }
const user = (text: string) => ({
  type: 'user/message',
  data: { id: `u-${text}`, role: 'user', content: [{ type: 'text', text }], source: { kind: 'user' } },
  surfaceOp: 'append',
})
const EVENTS: Record<string, unknown>[] = [
  { type: 'turn/start', data: { turn: 1 } }, // 0
  { type: 'step/start', data: { turn: 1, step: 1 } }, // 1
  user('in turn 1 step 1'), // 2: step 1 is left open...
  { type: 'step/start', data: { turn: 1, step: 2 } }, // 3: ...by the next step/start
  user('in turn 1 step 2'), // 4
  { type: 'step/end', data: { turn: 1, step: 2 } }, // 5
  { type: 'turn/end', data: { turn: 1, reason: { kind: 'completed' } } }, // 6
  { type: 'turn/start', data: { turn: 2 } }, // 7
  { type: 'step/start', data: { turn: 2, step: 1 } }, // 8
  user('in turn 2 step 1'), // 9: turn 2 and its step are left open...
  { type: 'turn/start', data: { turn: 3 } }, // 10: ...by the next turn/start
  user('in turn 3, no step'), // 11: turn 3 stays open to the end of the log
]

function load(): LensLog {
  const lines = [HEADER, ...EVENTS.map((e, seq) => ({ ...e, seq, time: seq }))].map((e) => JSON.stringify(e) + '\n')
  const log = new LensLog()
  log.push(new TextEncoder().encode(lines.join('')))
  log.finish()
  return log
}

/** The event indices a search for anything finds under `filters`. */
function found(filters: SearchFilters): number[] {
  const compiled = compileMatcher('.', true)
  if (!compiled.ok) throw new Error(compiled.error)
  const search = new LogSearch(load(), compiled.matcher, filters)
  const indices = new Set<number>()
  while (!search.done) for (const m of search.step()) indices.add(m.index)
  return [...indices].sort((a, b) => a - b)
}

describe('search filters', () => {
  it('the log is what the filters are tested on: every event found without a filter, no diagnostics', () => {
    expect(load().diagnostics.filter((d) => d.severity === 'error')).toStrictEqual([])
    expect(found({})).toStrictEqual(EVENTS.map((_, i) => i))
  })

  it('a step left open by the next step/start ends at the event before it', () => {
    expect(found({ turn: 1, step: 1 })).toStrictEqual([1, 2])
  })

  it('a step closed by its step/end ends there', () => {
    expect(found({ turn: 1, step: 2 })).toStrictEqual([3, 4, 5])
  })

  it('a step number alone keeps that step of every turn; a step open when its turn is left open ends with the turn', () => {
    expect(found({ step: 1 })).toStrictEqual([1, 2, 8, 9])
  })

  it('a turn keeps its brackets: left open, it ends before the next turn/start, or at the end of the log', () => {
    expect(found({ turn: 1 })).toStrictEqual([0, 1, 2, 3, 4, 5, 6])
    expect(found({ turn: 2 })).toStrictEqual([7, 8, 9])
    expect(found({ turn: 3 })).toStrictEqual([10, 11])
    expect(found({ turn: 4 })).toStrictEqual([])
    expect(found({ turn: 2, step: 2 })).toStrictEqual([])
  })

  it('types and the surface keep only their events', () => {
    expect(found({ types: ['user/message'] })).toStrictEqual([2, 4, 9, 11])
    expect(found({ types: ['step/start', 'turn/end'] })).toStrictEqual([1, 3, 6, 8])
    expect(found({ surfaceOnly: true })).toStrictEqual([2, 4, 9, 11])
    expect(found({ surfaceOnly: true, turn: 1, step: 2 })).toStrictEqual([4])
  })
})
