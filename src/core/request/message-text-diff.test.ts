/**
 * The message text diff both the Request view and the comparison of two runs show: unchanged runs collapse around a
 * change; two texts too different for the bounded search give no parts instead of a long wait; and a diff of up to
 * `DIFF_SURE_EDIT_LENGTH` changed lines is found whatever the clock says, so an answer never depends on how busy the
 * machine is (the clock below jumps a second at every reading, as a starved thread sees it).
 */

import { afterEach, describe, expect, it, vi } from 'vitest'
import { CONTEXT_LINES, DIFF_SURE_EDIT_LENGTH, diffParts, messageTextDiff } from './message-text-diff.ts'

const numbered = (count: number, prefix = 'line'): string[] => Array.from({ length: count }, (_, i) => `${prefix} ${i}`)

/** `count` lines of which `changed` (spread out) are rewritten: 2 * changed lines of edit. */
function rewritten(count: number, changed: number): [string, string] {
  const before = numbered(count)
  const after = [...before]
  for (let k = 0; k < changed; k++) after[Math.floor((k * count) / changed)] = `changed ${k}`
  return [before.join('\n') + '\n', after.join('\n') + '\n']
}

/** Date.now() a second later at every reading: every clock-bounded search is out of time at once. */
function starvedClock(): void {
  let now = 1_000_000
  vi.spyOn(Date, 'now').mockImplementation(() => (now += 1000))
}

afterEach(() => {
  vi.restoreAllMocks()
})

describe('message text diff', () => {
  it('collapses unchanged runs to their first and last lines around a change', () => {
    const lines = numbered(40)
    const changed = [...lines]
    changed[20] = 'changed'
    const parts = diffParts(lines.join('\n') + '\n', changed.join('\n') + '\n') ?? []
    expect(parts.map((p) => p.kind)).toStrictEqual(['skipped', 'same', 'removed', 'added', 'same', 'skipped'])
    expect(parts[0]?.lines).toBe(20 - CONTEXT_LINES)
    expect(parts[1]?.text).toBe('line 18\nline 19\n')
    expect(parts[5]?.lines).toBe(40 - 21 - CONTEXT_LINES)
  })

  it('gives up on two texts too different to diff in bounded time', () => {
    const a = numbered(9000, 'a').join('\n')
    const b = numbered(9000, 'b').join('\n')
    expect(diffParts(a, b)).toBeNull()
  })

  it('finds a diff of up to DIFF_SURE_EDIT_LENGTH lines on a machine too busy for any clock-bounded search', () => {
    starvedClock()
    const changed = DIFF_SURE_EDIT_LENGTH / 2
    const [before, after] = rewritten(2000, changed)
    const diff = messageTextDiff({ content: before }, { content: after })
    expect(diff.parts).not.toBeNull()
    expect([diff.removedLines, diff.addedLines]).toStrictEqual([changed, changed])
  })

  it('searches a longer edit under the clock only: out of time, it says so', () => {
    const [before, after] = rewritten(2000, DIFF_SURE_EDIT_LENGTH)
    // With time to spare (a clock that stands still: a busy machine must not make this part fail) the diff is found...
    const stopped = vi.spyOn(Date, 'now').mockReturnValue(1_000_000)
    expect(messageTextDiff({ content: before }, { content: after }).removedLines).toBe(DIFF_SURE_EDIT_LENGTH)
    stopped.mockRestore()
    // ...and on a starved clock it is not: the sure pass stops at its edit length.
    starvedClock()
    expect(messageTextDiff({ content: before }, { content: after }).parts).toBeNull()
  })
})
