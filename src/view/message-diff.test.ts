/**
 * The Request view's message diff: on the demo, the step after the tool-result prune diffs the pruned result against
 * the original at the same position of the previous request (checked against the requests themselves). The diff itself
 * is the core's: src/core/request/message-text-diff.test.ts.
 */

import { describe, expect, it } from 'vitest'
import { LensLog, loadContentChecksum, messageText, stepList, stepRequest } from '../core/index.ts'
import { demoSessionJsonl } from '../generate/index.ts'
import { requestMessageDiff } from './message-diff.ts'

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
})
