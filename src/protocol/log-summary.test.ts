/**
 * seq -> index: one bounds rule. The page answers a valid log's seqs itself (`indexOfSeqInSummary`) and the worker
 * answers the same way: on a generated valid log and on an invalid one, every seq around the log's bounds gets the
 * same index from the summary (when it can tell) as from the worker's `indexOfSeq`.
 */

import { describe, expect, it } from 'vitest'
import { generatePreset, toJsonl } from '../generate/index.ts'
import { OpenLog } from '../view/open-log.ts'
import { indexOfSeqInSummary } from './log-summary.ts'
import { indexOfSeq } from '../view/cursor-query.ts'

async function open(text: string): Promise<OpenLog> {
  const log = await OpenLog.create()
  log.begin('t.jsonl', text.length)
  log.push(new TextEncoder().encode(text))
  log.finish()
  return log
}

describe('indexOfSeqInSummary', () => {
  it('in a valid log: a seq inside it is its index, anything else is no event', () => {
    const summary = { seqIsIndex: true, length: 5 }
    expect([-1, 0, 4, 5, 99, 1.5, Number.NaN].map((seq) => indexOfSeqInSummary(summary, seq))).toStrictEqual([
      -1, 0, 4, -1, -1, -1, -1,
    ])
    expect(indexOfSeqInSummary({ seqIsIndex: true, length: 0 }, 0)).toBe(-1)
  })

  it('cannot tell for a log whose seqs are not its indices', () => {
    expect(indexOfSeqInSummary({ seqIsIndex: false, length: 5 }, 2)).toBeNull()
  })

  it('agrees with the worker on every seq around a valid log and leaves an invalid one to it', async () => {
    const valid = await open(toJsonl(generatePreset('demo', 3)))
    const summary = valid.summary()
    expect(summary.seqIsIndex).toBe(true)
    for (const seq of [-2, -1, 0, 1, summary.length - 1, summary.length, summary.length + 1]) {
      expect(indexOfSeqInSummary(summary, seq)).toBe(indexOfSeq(valid, seq))
    }
    const header = '{"type":"session","version":0,"id":"s","createdAt":0}'
    const event = (seq: number) => `{"type":"turn/start","seq":${seq},"time":0,"data":{"turn":1}}`
    const gapped = await open([header, event(0), event(5), ''].join('\n'))
    expect(gapped.summary().seqIsIndex).toBe(false)
    expect(indexOfSeqInSummary(gapped.summary(), 5)).toBeNull()
  })
})
