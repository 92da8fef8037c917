/** Each provider rule of a request, by its exact text, on hand-made requests (wire shapes as the DeepSeek adapter builds them). */

import { describe, expect, it } from 'vitest'
import { PROVIDER_ANSWERS, REJECTION_CODES, REJECTION_RULES, requestRejections } from './request-rejections.ts'
import { wireShapeOf } from './wire-shape.ts'

const user = (text: string) => ({ role: 'user', content: [{ type: 'text', text }], source: { kind: 'user' } })
const assistant = (...ids: unknown[]) => ({
  role: 'assistant',
  content: [{ type: 'text', text: 'ok' }, ...ids.map((id) => ({ type: 'tool-call', id, name: 'bash', arguments: '{}' }))],
})
const result = (id: unknown, text?: string) => ({
  role: 'user',
  content: [
    ...(text === undefined ? [] : [{ type: 'text', text }]),
    { type: 'tool-result', toolCallId: id, content: [{ type: 'text', text: 'out' }] },
  ],
  source: { kind: 'tool', callId: id },
})
/** Messages at seqs 10, 20, 30, ... */
const request = (...messages: unknown[]) => messages.map((message, i) => ({ seq: (i + 1) * 10, message }))

describe('requestRejections', () => {
  it('accepts answered calls, parallel calls answered in any order, and plain messages', () => {
    expect(requestRejections(request(user('hi'), assistant('a', 'b'), result('b'), result('a'), assistant()))).toStrictEqual([])
  })

  it('orphan-tool-result: a result no call before it made', () => {
    expect(requestRejections(request(user('hi'), result('x')))).toStrictEqual([
      {
        code: 'orphan-tool-result',
        index: 1,
        seq: 20,
        message: 'the tool result of message 1 (seq 20) answers call x, which no assistant message before it made',
      },
    ])
  })

  it('a user message between a call and its result breaks both: unanswered call, orphaned result', () => {
    expect(requestRejections(request(assistant('a'), user('wait'), result('a')))).toStrictEqual([
      {
        code: 'unanswered-tool-call',
        index: 0,
        seq: 10,
        message: 'tool call a of message 0 (seq 10) has no tool result right after it',
      },
      {
        code: 'orphan-tool-result',
        index: 2,
        seq: 30,
        message:
          'the tool result of message 2 (seq 30) answers call a, made in message 0 (seq 10), but message 1 (seq 20) stands between them',
      },
    ])
  })

  it('text before a tool result in the same message puts a user message on the wire first', () => {
    expect(wireShapeOf(result('a', 'note')).leadingUser).toBe(true)
    expect(requestRejections(request(assistant('a'), result('a', 'note'))).map((r) => r.code)).toStrictEqual([
      'unanswered-tool-call',
      'orphan-tool-result',
    ])
    expect(requestRejections(request(assistant('a'), result('a', 'note')))[1]?.message).toBe(
      'the tool result of message 1 (seq 20) answers call a, but this message has text before its tool result',
    )
  })

  it('a result for another call than the assistant message right before it made', () => {
    expect(requestRejections(request(assistant('a'), result('a'), assistant('b'), result('a')))).toStrictEqual([
      {
        code: 'unanswered-tool-call',
        index: 2,
        seq: 30,
        message: 'tool call b of message 2 (seq 30) has no tool result right after it',
      },
      {
        code: 'orphan-tool-result',
        index: 3,
        seq: 40,
        message:
          'the tool result of message 3 (seq 40) answers call a, but the assistant message right before it (message 2, seq 30) made no such call',
      },
    ])
  })

  it('unanswered-tool-call: a request ending on calls', () => {
    expect(
      requestRejections(request(user('go'), assistant('a', 'b'), result('a'))).map((r) => [r.code, r.message]),
    ).toStrictEqual([['unanswered-tool-call', 'tool call b of message 1 (seq 20) has no tool result right after it']])
  })

  it('a system message ends a run of tool messages', () => {
    const system = { role: 'system', content: [{ type: 'text', text: 'sys' }] }
    expect(requestRejections(request(assistant('a'), system, result('a'))).map((r) => r.code)).toStrictEqual([
      'unanswered-tool-call',
      'orphan-tool-result',
    ])
  })

  it('tool-call-id-empty: an empty or missing id (its result, with no id, answers nothing)', () => {
    expect(requestRejections(request(assistant(''), result('')))).toStrictEqual([
      { code: 'tool-call-id-empty', index: 0, seq: 10, message: 'tool call 1 of message 0 (seq 10) has an empty id' },
      {
        code: 'orphan-tool-result',
        index: 1,
        seq: 20,
        message:
          'the tool result of message 1 (seq 20) answers call "", but the assistant message right before it (message 0, seq 10) made no such call',
      },
    ])
    expect(requestRejections(request(assistant('a', 7), result('a'))).map((r) => r.message)).toStrictEqual([
      'tool call 2 of message 0 (seq 10) has an empty id',
    ])
  })

  it('tool-call-id-duplicate: an id already used in the request, or earlier in the message', () => {
    expect(requestRejections(request(assistant('a'), result('a'), assistant('a'), result('a')))).toStrictEqual([
      {
        code: 'tool-call-id-duplicate',
        index: 2,
        seq: 30,
        message: 'tool call id a of message 2 (seq 30) is already used in message 0 (seq 10)',
      },
    ])
    expect(requestRejections(request(assistant('a', 'a'), result('a'))).map((r) => r.message)).toStrictEqual([
      'tool call id a of message 0 (seq 10) is already used earlier in this message',
    ])
  })

  it('lone-surrogate: names the path and character, relative to the message', () => {
    expect(requestRejections(request(user('ab\ud800c')))).toStrictEqual([
      {
        code: 'lone-surrogate',
        index: 0,
        seq: 10,
        message: 'message 0 (seq 10) holds a lone UTF-16 surrogate U+D800 in content[0].text at character 2',
      },
    ])
    expect(requestRejections(request(user('pair \ud83d\ude00 ok')))).toStrictEqual([])
  })

  it('sorts by message, then by code, and every code has a rule and a provider answer', () => {
    const codes = requestRejections(request(result('x'), assistant('', 'q'), user('\udc00'))).map((r) => [r.index, r.code])
    expect(codes).toStrictEqual([
      [0, 'orphan-tool-result'],
      [1, 'unanswered-tool-call'],
      [1, 'tool-call-id-empty'],
      [2, 'lone-surrogate'],
    ])
    for (const code of REJECTION_CODES) {
      expect(REJECTION_RULES[code].length).toBeGreaterThan(10)
      expect(PROVIDER_ANSWERS[code].length).toBeGreaterThan(40)
    }
  })
})
