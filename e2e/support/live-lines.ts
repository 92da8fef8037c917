/** Small hand-written live log lines for the e2e specs that append to a followed file. */

export const line = (event: Record<string, unknown>): string => JSON.stringify(event) + '\n'

/** A short user message appended to the surface. */
export const user = (seq: number): string =>
  line({
    type: 'user/message',
    seq,
    time: seq,
    data: { id: `u${seq}`, role: 'user', content: [{ type: 'text', text: `hello ${seq}` }], source: { kind: 'user' } },
    surfaceOp: 'append',
  })

/** A compaction of surface seqs 0..3 landing at seqs 6..9, as compaction-basic writes it. */
export const compaction = (): string =>
  line({ type: 'compaction/start', seq: 6, time: 6, data: { compactionId: 'c1', turn: null } }) +
  line({
    type: 'compaction/summary',
    seq: 7,
    time: 7,
    data: {
      compactionId: 'c1',
      summary: [{ type: 'text', text: 'summary of 0..3' }],
      shadowedRange: { start: 0, end: 3 },
      shadowedSeqs: [0, 1, 2, 3],
      shadowedTokenCount: 40,
      provider: 'deepseek',
      model: 'deepseek-chat',
    },
  }) +
  line({
    type: 'user/message',
    seq: 8,
    time: 8,
    data: {
      id: 'checkpoint-c1',
      role: 'user',
      content: [{ type: 'text', text: 'summary of 0..3' }],
      source: { kind: 'plugin', plugin: 'compact', compactionId: 'c1' },
    },
    sourceEventSeqs: [6, 7, 0, 1, 2, 3],
    surfaceOp: { op: 'replace', start: 0, end: 3 },
  }) +
  line({ type: 'compaction/end', seq: 9, time: 9, data: { compactionId: 'c1', turn: null } })
