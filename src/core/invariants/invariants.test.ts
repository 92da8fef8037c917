/**
 * Each provider invariant with a log that breaks it and one that does not (built the way the
 * harness writes logs, then broken in one place), read through LensLog as the viewer and the CLI
 * read them: the exact warnings, their seq and text, and that the fold's verdict is untouched.
 */

import { describe, expect, it } from 'vitest'
import { LogBuilder, toJsonlBytes, type BuildStep, type TestEvent } from '../../test-support/log-builder.ts'
import { harnessVerdict } from '../../test-support/harness-oracle.ts'
import { LensLog } from '../log/lens-log.ts'
import { INVARIANT_CODES } from './index.ts'

const PROVIDER_INVARIANTS = new Set<string>(INVARIANT_CODES)
const S = (m: string) => `invariant violated by "@deepseek-ai/dsh-session": ${m}`
const C = (m: string) => `invariant violated by "@deepseek-ai/dsh-compaction": ${m}`

function build(steps: BuildStep[], edit?: (events: TestEvent[]) => void): TestEvent[] {
  const builder = new LogBuilder()
  for (const step of steps) builder.apply(step)
  const events = structuredClone(builder.events)
  edit?.(events)
  return events
}

function read(events: readonly unknown[]): LensLog {
  const log = new LensLog()
  log.push(toJsonlBytes(events))
  log.finish()
  return log
}

/** The invariant warnings of a log, as [code, seq, message]; the fold must agree with the harness regardless. */
function warnings(events: readonly unknown[]): [string, number | null, string][] {
  const log = read(events)
  const harness = harnessVerdict(events)
  expect(log.fold.firstViolation?.message ?? null).toBe(harness.error?.message ?? null)
  // Every log here is one the harness's fold accepts: the warnings are all that is wrong with it.
  expect(harness.error).toBeNull()
  const found = log.diagnostics.filter((d) => PROVIDER_INVARIANTS.has(d.code))
  for (const d of found) {
    expect(d.severity).toBe('warning')
    expect(d.detail?.length ?? 0).toBeGreaterThan(20)
    // A companion text gets its rule in plain words before the general note, never the note alone.
    if (d.code === 'session-invariant' || d.code === 'compaction-invariant') expect(d.detail).not.toMatch(/^The harness refuses/)
    expect(d.line).toBe(typeof d.index === 'number' ? log.lineOf(d.index) : null)
  }
  return found.map((d) => [d.code, d.seq, d.message])
}

const at = (events: TestEvent[], type: string, nth = 0): TestEvent => events.filter((e) => e['type'] === type)[nth] as TestEvent
const seqOf = (events: TestEvent[], type: string, nth = 0): number => at(events, type, nth)['seq'] as number
const user: BuildStep = { kind: 'user', text: 'hi' }
const tools = (calls: number): BuildStep => ({ kind: 'tools', calls, resultSize: 3 })
type Msg = { message: { content: Record<string, unknown>[]; source: Record<string, unknown> } }
const msg = (e: TestEvent) => (e['data'] as Msg).message
const data = (e: TestEvent) => e['data'] as Record<string, unknown>

describe('a well-formed log trips none', () => {
  it('turns, steps, tools, compactions, prunes and turn boundaries', () => {
    const events = build([
      user,
      { kind: 'assistant', text: 'ok', chunks: 3, reasoning: true },
      tools(2),
      { kind: 'turn-boundary' },
      user,
      tools(1),
      { kind: 'compact', from: 1, length: 3 },
      { kind: 'prune', pick: 0 },
      { kind: 'turn-boundary' },
      { kind: 'compact', from: 0, length: 5 },
    ])
    expect(events.some((e) => e['type'] === 'compaction/prune')).toBe(true)
    expect(warnings(events)).toStrictEqual([])
  })
})

describe('orphan-tool-result', () => {
  it('a result whose call is in no assistant message on the surface', () => {
    const events = build([user, tools(1)], (e) => {
      msg(at(e, 'assistant/message')).content[0]!['id'] = 'call-other'
    })
    const result = seqOf(events, 'tool/result')
    expect(warnings(events)).toStrictEqual([
      [
        'orphan-tool-result',
        result,
        'tool/result for call call-2 has no tool call with that id in an earlier assistant message on the surface',
      ],
      [
        'unanswered-tool-call',
        seqOf(events, 'step/end'),
        `tool call call-other (assistant message at seq ${seqOf(events, 'assistant/message')}) has no tool/result when step 1/1 ends`,
      ],
    ])
  })

  it('a compaction that shadows the call but leaves its result', () => {
    // Surface: user, assistant(call), result. Compact [1..1]: only the assistant message.
    const events = build([user, tools(1), { kind: 'compact', from: 1, length: 0 }])
    const checkpoint = events.find((e) => e['type'] === 'user/message' && e['surfaceOp'] !== 'append') as TestEvent
    expect(warnings(events)).toStrictEqual([
      [
        'orphan-tool-result',
        checkpoint['seq'],
        `the tool/result at seq ${seqOf(events, 'tool/result')} (call call-2) stays on the surface, but this replacement took the assistant message that made the call off it`,
      ],
    ])
  })

  it('not when the compaction holds the call and its results together, nor after a prune', () => {
    expect(warnings(build([user, tools(2), { kind: 'compact', from: 1, length: 2 }]))).toStrictEqual([])
    expect(warnings(build([user, tools(2), { kind: 'prune', pick: 1 }, { kind: 'prune', pick: 0 }]))).toStrictEqual([])
  })

  it('a call with the same id later on the surface does not answer a result before it', () => {
    // Surface: user, A1(call-2), R1(call-2), A2(call-2 again), R2(call-2). Compacting A1 leaves R1 with only a call
    // after it: an orphan. R2 still follows A2.
    const events = build([user, tools(1), { kind: 'turn-boundary' }, tools(1), { kind: 'compact', from: 1, length: 0 }], (e) => {
      msg(at(e, 'assistant/message', 1)).content[0]!['id'] = 'call-2'
      msg(at(e, 'tool/result', 1)).content[0]!['toolCallId'] = 'call-2'
      msg(at(e, 'tool/result', 1)).source['callId'] = 'call-2'
      data(at(e, 'tool/call', 1))['callId'] = 'call-2'
    })
    const checkpoint = events.find((e) => e['type'] === 'user/message' && e['surfaceOp'] !== 'append') as TestEvent
    expect(warnings(events)).toStrictEqual([
      [
        'tool-call-id-duplicate',
        seqOf(events, 'assistant/message', 1),
        `tool call id call-2 is used again: it is already in the assistant message at seq ${seqOf(events, 'assistant/message')}, still on the surface`,
      ],
      [
        'orphan-tool-result',
        checkpoint['seq'],
        `the tool/result at seq ${seqOf(events, 'tool/result')} (call call-2) stays on the surface, but this replacement took the assistant message that made the call off it`,
      ],
    ])
  })

  it('a result rewritten in place (a prune) before the call it answers is an orphan again', () => {
    // Step 2's result for call-5 comes before the assistant message that makes the call (the two events swapped,
    // seqs kept); a prune then rewrites that result at its place, still before the call.
    const events = build([user, tools(1), tools(1), { kind: 'prune', pick: 1 }], (e) => {
      const second = at(e, 'tool/result', 1)
      const call = at(e, 'assistant/message', 1)
      const [resultSeq, callSeq] = [second['seq'] as number, call['seq'] as number]
      // (The result keeps no sources: its tool/call is now after it, and a source must come earlier.)
      const { sourceEventSeqs: _, ...result } = second
      e[callSeq] = { ...result, seq: callSeq, time: call['time'] }
      e[resultSeq] = { ...call, seq: resultSeq, time: second['time'] }
      // The prune (built against the result's old place) now shadows it at its new one.
      const prune = at(e, 'compaction/prune')
      prune['data'] = { ...data(prune), shadowedRange: { start: callSeq, end: callSeq }, shadowedSeqs: [callSeq] }
      const rewrite = e.at(-1) as TestEvent
      rewrite['surfaceOp'] = { op: 'replace', start: callSeq, end: callSeq }
      rewrite['sourceEventSeqs'] = [callSeq]
    })
    const results = events.filter((e) => e['type'] === 'tool/result')
    const early = results[1] as TestEvent
    const rewritten = results.at(-1) as TestEvent
    expect((rewritten['surfaceOp'] as { start: number }).start).toBe(early['seq'])
    const orphans = warnings(events).filter(([code]) => code === 'orphan-tool-result')
    expect(orphans).toStrictEqual([
      [
        'orphan-tool-result',
        early['seq'],
        'tool/result for call call-5 has no tool call with that id in an earlier assistant message on the surface',
      ],
      [
        'orphan-tool-result',
        rewritten['seq'],
        'tool/result for call call-5 has no tool call with that id in an earlier assistant message on the surface',
      ],
    ])
  })
})

describe('unanswered-tool-call', () => {
  it('a call with no result when its step ends', () => {
    const events = build([user, tools(2)], (e) => {
      // The second result never came: the slot holds a log-only event instead (seqs stay contiguous).
      const second = at(e, 'tool/result', 1)
      e[second['seq'] as number] = {
        type: 'llm/retry-started',
        seq: second['seq'],
        time: second['time'],
        data: { retryId: 'r', retry: 1 },
      }
    })
    expect(warnings(events)).toStrictEqual([
      [
        'unanswered-tool-call',
        seqOf(events, 'step/end'),
        `tool call call-3 (assistant message at seq ${seqOf(events, 'assistant/message')}) has no tool/result when step 1/1 ends`,
      ],
    ])
  })

  it('not when every call is answered', () => expect(warnings(build([user, tools(3)]))).toStrictEqual([]))

  it('not for a call a compaction took off the surface before the step ended (it is not sent any more)', () => {
    // A step whose assistant message (one call) is compacted away before any result came: nothing to answer.
    const compacted = build([user, tools(1)], (e) => {
      const assistant = seqOf(e, 'assistant/message')
      const end = at(e, 'step/end')
      e.splice(assistant + 1)
      const add = (type: string, body: unknown, extra: Record<string, unknown> = {}) =>
        e.push({ type, seq: e.length, time: (end['time'] as number) + e.length, data: body, ...extra })
      add('compaction/start', { compactionId: 'c1', turn: 1 })
      add('compaction/summary', {
        compactionId: 'c1',
        summary: [{ type: 'text', text: 'summary' }],
        shadowedRange: { start: assistant, end: assistant },
        shadowedSeqs: [assistant],
        shadowedTokenCount: 10,
        provider: 'deepseek',
        model: 'deepseek-chat',
      })
      add(
        'user/message',
        {
          id: 'cp',
          role: 'user',
          content: [{ type: 'text', text: 'summary' }],
          source: { kind: 'plugin', plugin: 'compact', compactionId: 'c1' },
        },
        {
          surfaceOp: { op: 'replace', start: assistant, end: assistant },
          sourceEventSeqs: [e.length - 2, e.length - 1, assistant],
        },
      )
      add('compaction/end', { compactionId: 'c1', turn: 1 })
      add('step/end', end['data'])
    })
    expect(warnings(compacted).filter(([code]) => code === 'unanswered-tool-call')).toStrictEqual([])
    // The same step without the compaction: the call is still sent, and unanswered.
    const kept = build([user, tools(1)], (e) => {
      const end = at(e, 'step/end')
      const assistant = seqOf(e, 'assistant/message')
      e.splice(assistant + 1)
      e.push({ ...end, seq: e.length })
    })
    expect(warnings(kept).filter(([code]) => code === 'unanswered-tool-call')).toStrictEqual([
      [
        'unanswered-tool-call',
        seqOf(kept, 'step/end'),
        `tool call call-2 (assistant message at seq ${seqOf(kept, 'assistant/message')}) has no tool/result when step 1/1 ends`,
      ],
    ])
  })
})

describe('unanswered-tool-call after a replacement', () => {
  it('a compaction that shadows a result but leaves the call that made it', () => {
    // Surface: user, assistant(2 calls), result 1, result 2. Compact [3..3]: only the second result.
    const events = build([user, tools(2), { kind: 'compact', from: 3, length: 0 }])
    const summary = events.find((e) => e['type'] === 'user/message' && e['surfaceOp'] !== 'append') as TestEvent
    expect(warnings(events)).toStrictEqual([
      [
        'unanswered-tool-call',
        summary['seq'],
        `this replacement took the tool/result at seq ${seqOf(events, 'tool/result', 1)} (call call-3) off the surface, but the assistant message at seq ${seqOf(events, 'assistant/message')} that made the call stays on it`,
      ],
    ])
  })

  it('not when the call goes with it, nor when a prune rewrites the result in place', () => {
    expect(warnings(build([user, tools(2), { kind: 'compact', from: 1, length: 2 }]))).toStrictEqual([])
    expect(warnings(build([user, tools(2), { kind: 'prune', pick: 1 }]))).toStrictEqual([])
  })
})

describe('tool-call ids', () => {
  it('an empty id (its result answers nothing a provider can match)', () => {
    const events = build([user, tools(1)], (e) => {
      msg(at(e, 'assistant/message')).content[0]!['id'] = ''
      const result = msg(at(e, 'tool/result'))
      result.content[0]!['toolCallId'] = ''
      result.source['callId'] = ''
      data(at(e, 'tool/call'))['callId'] = ''
    })
    const assistant = seqOf(events, 'assistant/message')
    expect(warnings(events)).toStrictEqual([
      ['tool-call-id-empty', assistant, 'assistant/message tool call #1 has an empty id'],
      [
        'orphan-tool-result',
        seqOf(events, 'tool/result'),
        'tool/result for call  has no tool call with that id in an earlier assistant message on the surface',
      ],
    ])
  })

  it('a duplicate id: in the same message, and across messages on the surface', () => {
    const same = build([user, tools(2)], (e) => {
      msg(at(e, 'assistant/message')).content[1]!['id'] = 'call-2'
    })
    expect(warnings(same)).toStrictEqual([
      [
        'tool-call-id-duplicate',
        seqOf(same, 'assistant/message'),
        'tool call id call-2 is used again: it is already earlier in this message',
      ],
      // The second call's own id is gone: its result answers nothing.
      [
        'orphan-tool-result',
        seqOf(same, 'tool/result', 1),
        'tool/result for call call-3 has no tool call with that id in an earlier assistant message on the surface',
      ],
    ])
    const across = build([user, tools(1), { kind: 'turn-boundary' }, tools(1)], (e) => {
      msg(at(e, 'assistant/message', 1)).content[0]!['id'] = 'call-2'
      msg(at(e, 'tool/result', 1)).content[0]!['toolCallId'] = 'call-2'
    })
    expect(warnings(across)).toStrictEqual([
      [
        'tool-call-id-duplicate',
        seqOf(across, 'assistant/message', 1),
        `tool call id call-2 is used again: it is already in the assistant message at seq ${seqOf(across, 'assistant/message')}, still on the surface`,
      ],
    ])
  })

  it('not when the earlier use was compacted off the surface', () => {
    const events = build([user, tools(1), { kind: 'compact', from: 1, length: 1 }, { kind: 'turn-boundary' }, tools(1)], (e) => {
      msg(at(e, 'assistant/message', 1)).content[0]!['id'] = 'call-2'
      msg(at(e, 'tool/result', 1)).content[0]!['toolCallId'] = 'call-2'
    })
    expect(warnings(events)).toStrictEqual([])
  })
})

describe('lone-surrogate', () => {
  it('a lone high or low surrogate in a message, with where', () => {
    const high = build([{ kind: 'user', text: 'a\uD800b' }])
    expect(warnings(high)).toStrictEqual([
      ['lone-surrogate', 0, 'user/message holds a lone UTF-16 surrogate U+D800 in data.content[0].text at character 1'],
    ])
    const low = build([user, tools(1)], (e) => {
      ;(msg(at(e, 'tool/result')).content[0]!['content'] as { text: string }[])[0]!.text = 'ok \uDC00'
    })
    expect(warnings(low)).toStrictEqual([
      [
        'lone-surrogate',
        seqOf(low, 'tool/result'),
        'tool/result holds a lone UTF-16 surrogate U+DC00 in data.message.content[0].content[0].text at character 3',
      ],
    ])
  })

  it('not for a surrogate pair, nor in an event that is not sent to the model', () => {
    expect(warnings(build([{ kind: 'user', text: 'smile \uD83D\uDE00' }]))).toStrictEqual([])
    const logOnly = build([user, { kind: 'log-only', which: 1 }], (e) => {
      data(at(e, 'session/title'))['title'] = '\uD800'
    })
    expect(warnings(logOnly)).toStrictEqual([])
  })
})

describe('session-invariant: the harness companion texts', () => {
  it('a turn left open, a turn number skipped, steps out of order, events outside their step', () => {
    const open = build([user, tools(1), { kind: 'turn-boundary' }, tools(1)], (e) => {
      e[seqOf(e, 'turn/end')] = { ...at(e, 'turn/end'), type: 'llm/retry-started', data: { retryId: 'r', retry: 1 } }
    })
    expect(warnings(open)).toStrictEqual([
      ['session-invariant', seqOf(open, 'turn/start', 1), S('turn/start 2 while turn 1 is still open')],
    ])

    const skipped = build([user, tools(1), { kind: 'turn-boundary' }, tools(1)], (e) => {
      for (const x of e) if (typeof data(x)['turn'] === 'number' && data(x)['turn'] === 2) data(x)['turn'] = 3
    })
    expect(warnings(skipped)).toStrictEqual([
      ['session-invariant', seqOf(skipped, 'turn/start', 1), S('turn/start expected turn 2, got 3')],
    ])

    // (LogBuilder numbers every tool step of a turn 1, so the second step/start says 1.)
    const steps = build([user, tools(1), tools(1)], (e) => {
      e[seqOf(e, 'step/end')] = { ...at(e, 'step/end'), type: 'llm/retry-started', data: { retryId: 'r', retry: 1 } }
    })
    expect(warnings(steps)).toStrictEqual([
      ['session-invariant', seqOf(steps, 'step/start', 1), S('step/start 1 while step 1 is still open')],
    ])
  })

  it('a chunk row outside any step is one warning for the run, at its first seq', () => {
    const events = [
      {
        type: 'user/message',
        seq: 0,
        time: 1,
        data: { id: 'u', role: 'user', content: [{ type: 'text', text: 'q' }], source: { kind: 'user' } },
        surfaceOp: 'append',
      },
      ...[1, 2, 3, 4].map((seq) => ({
        type: 'assistant/chunk',
        seq,
        time: 1,
        data: { turn: 1, step: 1, chunk: { type: 'text-delta', index: 0, text: 'x' } },
      })),
    ]
    expect(warnings(events)).toStrictEqual([
      ['session-invariant', 1, S('assistant/chunk names turn 1/step 1 but open is turn null/step null')],
    ])
  })

  it('a tool/result with no prior tool/call in its step, unless it is the synthetic not-started result', () => {
    const noCall = build([user, tools(1)], (e) => {
      e[seqOf(e, 'tool/call')] = { ...at(e, 'tool/call'), type: 'llm/retry-started', data: { retryId: 'r', retry: 1 } }
    })
    expect(warnings(noCall)).toStrictEqual([
      ['session-invariant', seqOf(noCall, 'tool/result'), S('tool/result for call-2 with no prior tool/call in this step')],
    ])
    const synthetic = build([user, tools(1)], (e) => {
      e[seqOf(e, 'tool/call')] = { ...at(e, 'tool/call'), type: 'llm/retry-started', data: { retryId: 'r', retry: 1 } }
      const result = at(e, 'tool/result')
      msg(result).content[0]!['isError'] = true
      data(result)['error'] = { name: 'ToolNotStartedError', code: 'TOOL_NOT_STARTED' }
    })
    expect(warnings(synthetic)).toStrictEqual([])
  })

  it('turn-enclosed events outside a turn', () => {
    const events = build([{ kind: 'log-only', which: 0 }, user])
    expect(warnings(events)).toStrictEqual([
      ['session-invariant', 0, S('todo/write appended outside any open turn (core execution events must be turn-enclosed)')],
    ])
  })
})

describe('compaction-invariant: the harness companion texts', () => {
  const compacted = (edit: (e: TestEvent[]) => void) => build([user, tools(1), { kind: 'compact', from: 0, length: 2 }], edit)

  it('a checkpoint with no compaction/start (as in the agent-instructions fixture)', () => {
    const events = compacted((e) => {
      for (const type of ['compaction/start', 'compaction/summary', 'compaction/end'])
        e[seqOf(e, type)] = { ...at(e, type), type: 'llm/retry-started', data: { retryId: 'r', retry: 1 } }
    })
    const checkpoint = events.find((x) => x['type'] === 'user/message' && x['surfaceOp'] !== 'append') as TestEvent
    expect(warnings(events)).toStrictEqual([
      ['compaction-invariant', checkpoint['seq'], C('compaction checkpoint has no matching compaction/start')],
    ])
  })

  it('an end with no summary, a summary whose range is not its seqs, an end with no start', () => {
    const noSummary = compacted((e) => {
      e[seqOf(e, 'compaction/summary')] = {
        ...at(e, 'compaction/summary'),
        type: 'llm/retry-started',
        data: { retryId: 'r', retry: 1 },
      }
    })
    expect(warnings(noSummary)).toStrictEqual([
      [
        'compaction-invariant',
        seqOf(noSummary, 'compaction/end'),
        C('successful compaction/end requires one compaction/summary'),
      ],
    ])
    const failed = compacted((e) => {
      e[seqOf(e, 'compaction/summary')] = {
        ...at(e, 'compaction/summary'),
        type: 'llm/retry-started',
        data: { retryId: 'r', retry: 1 },
      }
      data(at(e, 'compaction/end'))['error'] = 'summarizer failed'
    })
    expect(warnings(failed)).toStrictEqual([])
    const range = compacted((e) => {
      ;(data(at(e, 'compaction/summary'))['shadowedRange'] as { end: number }).end = 99
    })
    expect(warnings(range)).toStrictEqual([
      [
        'compaction-invariant',
        seqOf(range, 'compaction/summary'),
        C('compaction/summary shadowedRange must match the first and last shadowedSeqs'),
      ],
    ])
    const noStart = compacted((e) => {
      e[seqOf(e, 'compaction/start')] = {
        ...at(e, 'compaction/start'),
        type: 'llm/retry-started',
        data: { retryId: 'r', retry: 1 },
      }
    })
    expect(warnings(noStart)).toStrictEqual([
      ['compaction-invariant', seqOf(noStart, 'compaction/summary'), C('compaction/summary has no matching compaction/start')],
      ['compaction-invariant', seqOf(noStart, 'compaction/end') - 1, C('compaction checkpoint has no matching compaction/start')],
      ['compaction-invariant', seqOf(noStart, 'compaction/end'), C('compaction/end has no matching compaction/start')],
    ])
  })

  it('a start while another is open, and a turn boundary crossing an open bracket', () => {
    const more = build([user, tools(1), { kind: 'compact', from: 0, length: 2 }, { kind: 'compact', from: 0, length: 0 }])
    const second = more.filter((x) => x['type'] === 'compaction/start')[1] as TestEvent
    more[seqOf(more, 'compaction/end')] = {
      ...at(more, 'compaction/end'),
      type: 'llm/retry-started',
      data: { retryId: 'r', retry: 1 },
    }
    expect(warnings(more)).toStrictEqual([
      ['compaction-invariant', second['seq'], C('compaction/start while turn 1 is still compacting')],
    ])
    // The unfinished bracket, then a turn boundary: both turn/end and turn/start cross it.
    const crossing = build([user, tools(1), { kind: 'compact', from: 0, length: 2 }, { kind: 'turn-boundary' }], (e) => {
      e[seqOf(e, 'compaction/end')] = { ...at(e, 'compaction/end'), type: 'llm/retry-started', data: { retryId: 'r', retry: 1 } }
    })
    expect(warnings(crossing)).toStrictEqual([
      ['compaction-invariant', seqOf(crossing, 'turn/end'), C('turn/end cannot cross an open compaction for turn 1')],
      ['compaction-invariant', seqOf(crossing, 'turn/start', 1), C('turn/start cannot cross an open compaction for turn 1')],
      // And the file ends with it still open.
      [
        'compaction-unclosed',
        seqOf(crossing, 'compaction/start'),
        'compaction/start (compaction compaction-5) has no compaction/end: the log ends while it is open',
      ],
    ])
  })

  it('compaction-unclosed: a start whose end never came, not when it ended (even failed) nor when a resume made it stale', () => {
    const unclosed = build([user, tools(1), { kind: 'compact', from: 0, length: 2 }], (e) => {
      e[seqOf(e, 'compaction/end')] = { ...at(e, 'compaction/end'), type: 'llm/retry-started', data: { retryId: 'r', retry: 1 } }
    })
    expect(warnings(unclosed)).toStrictEqual([
      [
        'compaction-unclosed',
        seqOf(unclosed, 'compaction/start'),
        'compaction/start (compaction compaction-5) has no compaction/end: the log ends while it is open',
      ],
    ])
    expect(warnings(build([user, tools(1), { kind: 'compact', from: 0, length: 2 }]))).toStrictEqual([])
    const resumed = build([user, tools(1), { kind: 'compact', from: 0, length: 2 }], (e) => {
      const end = seqOf(e, 'compaction/end')
      e[end] = { type: 'session/end-seed', seq: end, time: e[end]!['time'], data: {} }
    })
    expect(warnings(resumed)).toStrictEqual([])
  })

  it('a crossing is dropped when a later session/end-seed makes the start stale (a crashed compaction, resumed)', () => {
    const events = build([user, tools(1), { kind: 'compact', from: 0, length: 2 }, { kind: 'turn-boundary' }], (e) => {
      e[seqOf(e, 'compaction/end')] = { ...at(e, 'compaction/end'), type: 'llm/retry-started', data: { retryId: 'r', retry: 1 } }
      const start = seqOf(e, 'turn/start', 1)
      e[start] = { type: 'session/end-seed', seq: start, time: e[start]!['time'], data: {} }
    })
    expect(warnings(events)).toStrictEqual([])
  })
})
