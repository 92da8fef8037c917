/** The harness's in-memory legacy upgrades (reference 1.7) and its load-time refusals, by exact text. */

import { describe, expect, it } from 'vitest'
import { LegacyUpgrader, unsupportedLegacyEvent } from './legacy-upgrade.ts'
import { loadDefect } from './load-rules.ts'

const up = (event: Record<string, unknown>, upgrader = new LegacyUpgrader('S')) => upgrader.upgrade(event as never)

describe('legacy upgrades', () => {
  it('turn/start: the trigger is stripped, a malformed one refused', () => {
    expect(up({ type: 'turn/start', seq: 1, time: 0, data: { turn: 1, trigger: { kind: 'user' } } })).toStrictEqual({
      ok: true,
      upgraded: true,
      event: { type: 'turn/start', seq: 1, time: 0, data: { turn: 1 } },
    })
    expect(up({ type: 'turn/start', seq: 4, time: 0, data: { turn: 1, trigger: { kind: '' } } })).toStrictEqual({
      ok: false,
      message: 'session "S" contains malformed pre-react-loop turn/start at seq 4',
    })
  })

  it.each([
    [{ kind: 'aborted' }, { kind: 'aborted', reason: { kind: 'legacy' } }],
    [{ kind: 'disposed' }, { kind: 'aborted', reason: { kind: 'disposed' } }],
    [
      { kind: 'error', step: 1, message: 'boom' },
      { kind: 'error', error: { message: 'boom', code: 'UNKNOWN' } },
    ],
    [
      { kind: 'error', step: 1, message: 'boom', code: 'AUTH' },
      { kind: 'error', error: { message: 'boom', code: 'AUTH' } },
    ],
    [
      { kind: 'error', step: 1, failure: { message: 'm', code: 'C', status: 500 } },
      { kind: 'error', error: { message: 'm', code: 'C', status: 500 } },
    ],
  ])('turn/end %j becomes %j', (reason, current) => {
    const result = up({ type: 'turn/end', seq: 2, time: 0, data: { turn: 1, reason } })
    expect(result).toStrictEqual({
      ok: true,
      upgraded: true,
      event: { type: 'turn/end', seq: 2, time: 0, data: { turn: 1, reason: current } },
    })
  })

  it('turn/end: current and unknown kinds pass; malformed ones are refused', () => {
    expect(up({ type: 'turn/end', seq: 2, time: 0, data: { turn: 1, reason: { kind: 'completed' } } })).toMatchObject({
      ok: true,
      upgraded: false,
    })
    expect(up({ type: 'turn/end', seq: 2, time: 0, data: { turn: 1, reason: { kind: 'new-kind', x: 1 } } })).toMatchObject({
      ok: true,
      upgraded: false,
    })
    expect(up({ type: 'turn/end', seq: 9, time: 0, data: { turn: 1, reason: { kind: 'completed', x: 1 } } })).toStrictEqual({
      ok: false,
      message: 'session "S" contains malformed pre-react-loop turn/end at seq 9',
    })
    expect(up({ type: 'turn/end', seq: 9, time: 0, data: { turn: 1, error: 'x' } })).toMatchObject({ ok: false })
  })

  it('steering/message becomes a user/message in both old forms', () => {
    const wrapped = up({
      type: 'steering/message',
      seq: 3,
      time: 0,
      data: { turn: 1, message: { id: 'm', role: 'user', content: [], source: { kind: 'user' } } },
      surfaceOp: 'append',
    })
    expect(wrapped).toMatchObject({ ok: true, event: { type: 'user/message', data: { id: 'm' }, surfaceOp: 'append' } })
    const flat = up({ type: 'steering/message', seq: 3, time: 0, data: { turn: 1, content: [], source: { kind: 'user' } } })
    expect(flat).toMatchObject({
      ok: true,
      event: { type: 'user/message', data: { content: [], source: { kind: 'user' }, id: 'legacy-message:S:3', role: 'user' } },
    })
    expect(up({ type: 'steering/message', seq: 3, time: 0, data: { turn: 1 } })).toStrictEqual({
      ok: false,
      message: 'session "S" contains malformed pre-react-loop steering/message at seq 3',
    })
  })

  it('pre-identity messages get minted ids; a replacing tool result inherits the replaced id', () => {
    const upgrader = new LegacyUpgrader('S')
    expect(
      up(
        { type: 'user/message', seq: 0, time: 0, data: { content: [], source: { kind: 'user' } }, surfaceOp: 'append' },
        upgrader,
      ),
    ).toMatchObject({
      event: { data: { id: 'legacy-message:S:0', role: 'user' } },
    })
    expect(
      up(
        {
          type: 'assistant/message',
          seq: 1,
          time: 0,
          data: { turn: 1, step: 1, content: [], provenance: { provider: 'p', model: 'm' } },
          surfaceOp: 'append',
        },
        upgrader,
      ),
    ).toMatchObject({
      event: {
        data: {
          turn: 1,
          step: 1,
          message: {
            id: 'legacy-message:S:1',
            role: 'assistant',
            content: [],
            source: { provider: 'p', model: 'm', kind: 'model' },
          },
        },
      },
    })
    const original = {
      type: 'tool/result',
      seq: 2,
      time: 0,
      data: { turn: 1, step: 1, callId: 'c', content: [{ type: 'text', text: 'x' }], isError: false },
      surfaceOp: 'append',
    }
    expect(up(original, upgrader)).toMatchObject({
      event: {
        data: {
          turn: 1,
          step: 1,
          message: {
            id: 'legacy-message:S:2',
            role: 'user',
            content: [{ type: 'tool-result', toolCallId: 'c', isError: false }],
            source: { kind: 'tool', callId: 'c' },
          },
        },
      },
    })
    const rewrite = { ...original, seq: 3, surfaceOp: { op: 'replace', start: 2, end: 2 }, sourceEventSeqs: [2] }
    expect(up(rewrite, upgrader)).toMatchObject({ event: { data: { message: { id: 'legacy-message:S:2' } } } })
  })

  it('vocabulary the harness no longer reads is refused', () => {
    expect(unsupportedLegacyEvent({ type: 'request/header-delta', seq: 4, time: 0, data: {} }, 'S')).toBe(
      'session "S" contains unsupported legacy request/header-delta event at seq 4',
    )
    expect(unsupportedLegacyEvent({ type: 'mode/set', seq: 5, time: 0, data: {} }, 'S')).toBe(
      'session "S" contains unsupported legacy mode/set event at seq 5',
    )
    expect(unsupportedLegacyEvent({ type: 'request/header', seq: 6, time: 0, data: { reason: 'fallback' } }, 'S')).toBe(
      'session "S" contains unsupported legacy request/header reason "fallback" at seq 6',
    )
  })
})

describe('load rules', () => {
  const msg = { id: 'u', role: 'user', content: [], source: { kind: 'user' } }
  it.each([
    [
      { type: 'user/message', seq: 0, time: 0, data: { ...msg, id: '' }, surfaceOp: 'append' },
      'session event at seq 0 lacks an identified message',
    ],
    [
      { type: 'user/message', seq: 0, time: 0, data: { ...msg, role: 'x' }, surfaceOp: 'append' },
      'session event at seq 0 message must have role "user"',
    ],
    [
      { type: 'assistant/message', seq: 0, time: 0, data: { message: { ...msg, role: 'assistant' } }, surfaceOp: 'append' },
      'session event at seq 0 message must have model source',
    ],
    [{ type: 'turn/start', seq: 0, time: 0, data: { turn: 1 }, extra: 1 }, 'seed event at index 0 has an invalid event envelope'],
    [{ type: 'turn/start', seq: 0, time: 1.5, data: { turn: 1 } }, 'seed event at index 0 has an invalid event envelope'],
    [
      { type: 'request/header', seq: 0, time: 0, data: { header: { config: { provider: 'p' } }, reason: 'initial' } },
      'seed request/header at index 0 lacks provider/model',
    ],
  ])('%j: %s', (event, message) => {
    expect(loadDefect(event as never, 0)).toStrictEqual({ code: 'load-rule', message })
  })

  it('an unknown type is refused unless ignorable', () => {
    expect(loadDefect({ type: 'future/thing', seq: 3, time: 0, data: {} }, 3)?.code).toBe('unknown-event-type')
    expect(loadDefect({ type: 'future/thing', seq: 3, time: 0, data: {}, ignorable: true }, 3)).toBeUndefined()
  })
})
