/**
 * The message diff: on the demo, the step after the tool-result prune diffs the pruned result against the original
 * at the same position of the previous request (checked against the requests themselves); unchanged runs collapse;
 * two texts too different for the bounded search give no parts instead of a long wait.
 */

import { describe, expect, it } from 'vitest'
import { LensLog, loadContentChecksum, stepList, stepRequest } from '../core/index.ts'
import { demoSessionJsonl } from '../generate/index.ts'
import { CONTEXT_LINES, diffParts, messageText, requestMessageDiff } from './message-diff.ts'

const checksum = await loadContentChecksum()

describe('message diff', () => {
  it('on the demo: every step, against a direct comparison of the two requests', () => {
    const log = new LensLog({ checksum })
    log.push(new TextEncoder().encode(demoSessionJsonl()))
    log.finish()
    let pruneSeen = false
    for (const [p, s] of stepList(log).entries()) {
      const answer = requestMessageDiff(log, s.turn, s.step)
      const now = stepRequest(log, p)?.messages ?? []
      const before = p === 0 ? [] : (stepRequest(log, p - 1)?.messages ?? [])
      const index = now.findIndex((m, i) => i < before.length && JSON.stringify(m.message) !== JSON.stringify(before[i]?.message))
      if (index === -1) {
        expect(answer).toBeNull()
        continue
      }
      expect(answer?.index).toBe(index)
      expect(answer?.seq).toBe(now[index]?.seq)
      expect(answer?.previousSeq).toBe(before[index]?.seq)
      const removed = (answer?.parts ?? [])
        .filter((x) => x.kind === 'removed')
        .map((x) => x.text)
        .join('')
      const added = (answer?.parts ?? [])
        .filter((x) => x.kind === 'added')
        .map((x) => x.text)
        .join('')
      expect(removed.length + added.length).toBeGreaterThan(0)
      if (added.includes('tool output pruned')) {
        pruneSeen = true
        expect(messageText(before[index]?.message)).toContain(removed.split('\n')[0] as string)
      }
    }
    expect(pruneSeen).toBe(true)
  })

  it('collapses unchanged runs to their first and last lines around a change', () => {
    const lines = Array.from({ length: 40 }, (_, i) => `line ${i}`)
    const changed = [...lines]
    changed[20] = 'changed'
    const parts = diffParts(lines.join('\n') + '\n', changed.join('\n') + '\n') ?? []
    expect(parts.map((p) => p.kind)).toStrictEqual(['skipped', 'same', 'removed', 'added', 'same', 'skipped'])
    expect(parts[0]?.lines).toBe(20 - CONTEXT_LINES)
    expect(parts[1]?.text).toBe('line 18\nline 19\n')
    expect(parts[5]?.lines).toBe(40 - 21 - CONTEXT_LINES)
  })

  it('gives up on two texts too different to diff in bounded time', () => {
    const a = Array.from({ length: 9000 }, (_, i) => `a${i}`).join('\n')
    const b = Array.from({ length: 9000 }, (_, i) => `b${i}`).join('\n')
    expect(diffParts(a, b)).toBeNull()
  })
})
