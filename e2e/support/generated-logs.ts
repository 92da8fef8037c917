/**
 * Small generated logs built inline, for what the real fixtures lack: a tool-result prune, two summarizing
 * compactions where the second swallows the first's summary (nesting), and hostile content.
 */

type Event = Record<string, unknown>

const HEADER = { type: 'session', version: 0, id: 'e2e-generated', createdAt: 0, cwd: '/tmp/e2e', delegationDepth: 0 }

class LogBuilder {
  readonly events: Event[] = []

  get next(): number {
    return this.events.length
  }

  add(type: string, data: unknown, extra: Event = {}): number {
    const seq = this.next
    this.events.push({ type, seq, time: 1_000 + seq, data, ...extra })
    return seq
  }

  user(text: string, extra: Event = {}, source: unknown = { kind: 'user' }): number {
    return this.add(
      'user/message',
      { id: `u${this.next}`, role: 'user', content: [{ type: 'text', text }], source },
      { surfaceOp: 'append', ...extra },
    )
  }

  assistant(turn: number, step: number, content: unknown[]): number {
    const message = { id: `a${this.next}`, role: 'assistant', content, source: { kind: 'model', provider: 'p', model: 'm' } }
    return this.add('assistant/message', { turn, step, message }, { surfaceOp: 'append' })
  }

  toolResultData(turn: number, step: number, callId: string, text: string): Event {
    const message = {
      id: `t-${callId}`,
      role: 'user',
      content: [{ type: 'tool-result', toolCallId: callId, content: [{ type: 'text', text }] }],
      source: { kind: 'tool', callId },
    }
    return { turn, step, message }
  }

  toJsonl(): string {
    return [HEADER, ...this.events].map((e) => JSON.stringify(e)).join('\n') + '\n'
  }
}

function compaction(b: LogBuilder, id: string, start: number, end: number, shadowed: number[], turn: number): number {
  const startSeq = b.add('compaction/start', { compactionId: id, turn })
  const summarySeq = b.add('compaction/summary', {
    compactionId: id,
    summary: [{ type: 'text', text: `summary ${id}` }],
    shadowedRange: { start, end },
    shadowedSeqs: shadowed,
    shadowedTokenCount: 500,
    provider: 'p',
    model: 'm',
  })
  const checkpoint = b.user(
    `<summary>compacted ${id}</summary>`,
    { surfaceOp: { op: 'replace', start, end }, sourceEventSeqs: [startSeq, summarySeq, ...shadowed] },
    { kind: 'plugin', plugin: 'compact', compactionId: id },
  )
  b.add('compaction/end', { compactionId: id, turn })
  return checkpoint
}

/** A log with a prune, a compaction, and a second compaction that shadows the first checkpoint (nested). */
export function nestedReplaceLog(): { jsonl: string; prune: number; first: number; second: number } {
  const b = new LogBuilder()
  b.add('turn/start', { turn: 1 })
  const u1 = b.user('Please run the build.')
  b.add('step/start', { turn: 1, step: 1 })
  const a1 = b.assistant(1, 1, [
    { type: 'reasoning', text: 'I should run it.' },
    { type: 'tool-call', id: 'c1', name: 'bash', arguments: '{"command":"npm run build"}' },
  ])
  b.add('tool/call', { turn: 1, step: 1, callId: 'c1', name: 'bash', arguments: '{"command":"npm run build"}' })
  const data = b.toolResultData(1, 1, 'c1', 'very long build output '.repeat(40))
  const t1 = b.add('tool/result', data, { surfaceOp: 'append', sourceEventSeqs: [a1] })
  b.add('step/end', { turn: 1, step: 1 })
  b.add('compaction/prune', { shadowedRange: { start: t1, end: t1 }, shadowedSeqs: [t1], shadowedTokenCount: 200 })
  const pruned = b.toolResultData(1, 1, 'c1', '[pruned]')
  const prune = b.add('tool/result', pruned, { surfaceOp: { op: 'replace', start: t1, end: t1 }, sourceEventSeqs: [t1] })
  b.add('step/start', { turn: 1, step: 2 })
  const a2 = b.assistant(1, 2, [{ type: 'text', text: 'The build passed.' }])
  b.add('step/end', { turn: 1, step: 2 })
  b.add('turn/end', { turn: 1, reason: { kind: 'completed' } })
  b.add('turn/start', { turn: 2 })
  const u2 = b.user('Now the tests.')
  const first = compaction(b, 'cmp-1', u1, a2, [u1, a1, prune, a2], 2)
  b.add('step/start', { turn: 2, step: 1 })
  const a3 = b.assistant(2, 1, [{ type: 'text', text: 'Tests pass too.' }])
  b.add('step/end', { turn: 2, step: 1 })
  b.add('turn/end', { turn: 2, reason: { kind: 'completed' } })
  b.add('turn/start', { turn: 3 })
  const second = compaction(b, 'cmp-2', first, a3, [first, u2, a3], 3)
  b.user('Thanks, what next?')
  b.add('turn/end', { turn: 3, reason: { kind: 'completed' } })
  return { jsonl: b.toJsonl(), prune, first, second }
}

/** A valid log whose user message and tool output are hostile HTML and script. */
export function hostileLog(): string {
  const b = new LogBuilder()
  b.add('turn/start', { turn: 1 })
  b.user('<script>window.__pwned = 1</script><img src=x onerror="window.__pwned = 2"><b>bold?</b>')
  b.assistant(1, 1, [{ type: 'text', text: '<iframe src="javascript:window.__pwned=3"></iframe>' }])
  b.add('session/title', { title: '<img src=x onerror="window.__pwned=4">', messageSeqs: [1], source: { kind: 'fallback' } })
  b.add('turn/end', { turn: 1, reason: { kind: 'completed' } })
  return b.toJsonl()
}

/** `count` user messages: a long log for the virtualization bound. */
export function longLog(count: number): string {
  const b = new LogBuilder()
  for (let i = 0; i < count; i++) b.user(`message number ${i}`)
  return b.toJsonl()
}

/** `count` tool results, each pruned right after it arrived: a log with many replacements for the graph. */
export function manyPrunesLog(count: number): string {
  const b = new LogBuilder()
  b.add('turn/start', { turn: 1 })
  b.user('Run the tools.')
  for (let step = 1; step <= count; step++) {
    const callId = `c${step}`
    b.add('step/start', { turn: 1, step })
    const call = b.assistant(1, step, [{ type: 'tool-call', id: callId, name: 'bash', arguments: '{"command":"ls"}' }])
    b.add('tool/call', { turn: 1, step, callId, name: 'bash', arguments: '{"command":"ls"}' })
    const result = b.add('tool/result', b.toolResultData(1, step, callId, `output ${step} `.repeat(20)), {
      surfaceOp: 'append',
      sourceEventSeqs: [call],
    })
    b.add('compaction/prune', { shadowedRange: { start: result, end: result }, shadowedSeqs: [result], shadowedTokenCount: 50 })
    b.add('tool/result', b.toolResultData(1, step, callId, '[pruned]'), {
      surfaceOp: { op: 'replace', start: result, end: result },
      sourceEventSeqs: [result],
    })
    b.add('step/end', { turn: 1, step })
  }
  b.add('turn/end', { turn: 1, reason: { kind: 'completed' } })
  return b.toJsonl()
}
