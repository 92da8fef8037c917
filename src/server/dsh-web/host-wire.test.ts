import { describe, expect, it } from 'vitest'
import { parseHistoryPage, parseHostFrame, parseMuxFrame, parseSessionList, responseValue } from './host-wire.ts'

const frame = (method: string, payload: Record<string, unknown>): string =>
  JSON.stringify({ type: 'server-request', rpcId: 'r', method, payload: { type: method, ...payload } })

describe('host wire', () => {
  it('a session/event keeps the event text exactly and drops the view hint', () => {
    const event = { type: 'tool/call', seq: 7, time: 1, data: { callId: 'c', name: 'bash', arguments: '{}' } }
    expect(parseMuxFrame(frame('session/event', { sessionId: 's', event, view: { for: 'call' } }))).toStrictEqual({
      ok: true,
      value: { kind: 'event', sessionId: 's', type: 'tool/call', event: { seq: 7, line: JSON.stringify(event) } },
    })
  })

  it('refuses what is not a host frame, with the reason', () => {
    expect(parseMuxFrame('{')).toStrictEqual({ ok: false, why: 'frame is not JSON' })
    expect(parseMuxFrame(JSON.stringify({ type: 'server-response' }))).toStrictEqual({
      ok: false,
      why: 'frame is not a server-request envelope',
    })
    expect(parseMuxFrame(JSON.stringify({ type: 'server-request', method: 'a', payload: { type: 'b' } }))).toStrictEqual({
      ok: false,
      why: 'frame method "a" differs from its payload type',
    })
    expect(parseMuxFrame(frame('session/event', { sessionId: 's', event: { type: 'x', seq: -1 } }))).toStrictEqual({
      ok: false,
      why: 'session/event: event.seq is not a non-negative integer',
    })
    expect(parseMuxFrame(frame('session/subscribed', { sessionId: 's', lastSeq: -2 })).ok).toBe(false)
  })

  it('an unknown method is well-formed but of no use', () => {
    expect(parseMuxFrame(frame('session/queue', { sessionId: 's', items: [] }))).toStrictEqual({
      ok: true,
      value: { kind: 'other', method: 'session/queue' },
    })
    expect(parseHostFrame(frame('host/remote-event', { event: 'commands/change', args: [] }))).toStrictEqual({
      ok: true,
      value: { kind: 'other', method: 'host/remote-event' },
    })
  })

  it('host frames as the real host sends them', () => {
    expect(
      parseHostFrame(
        frame('host/session-added', {
          sessionId: 'c',
          blank: true,
          parentSessionId: 'p',
          origin: 'subagent',
          cwd: '/w',
          agentPreset: 'standard',
        }),
      ),
    ).toStrictEqual({
      ok: true,
      value: {
        kind: 'session-added',
        sessionId: 'c',
        blank: true,
        parentSessionId: 'p',
        origin: 'subagent',
        cwd: '/w',
        agentPreset: 'standard',
      },
    })
    expect(parseHostFrame(frame('host/session-status', { sessionId: 'c', running: 'yes' })).ok).toBe(false)
  })

  it('a history page must be contiguous', () => {
    const page = (seqs: number[]) => ({ events: seqs.map((seq) => ({ event: { type: 'x', seq, time: 0 } })), hasMore: false })
    expect(parseHistoryPage(page([3, 4, 5])).ok).toBe(true)
    expect(parseHistoryPage(page([3, 5]))).toStrictEqual({ ok: false, why: 'session.history: seq 5 follows 3' })
  })

  it('session.list rows with titles from their projections; rows without an id are skipped', () => {
    expect(
      parseSessionList({
        items: [
          {
            sessionId: 's',
            updatedAt: 5,
            running: true,
            blank: false,
            cwd: '/w',
            projections: { asOfSeq: 9, values: { title: 'T' } },
          },
          { updatedAt: 1 },
        ],
      }),
    ).toStrictEqual({
      ok: true,
      value: [{ sessionId: 's', updatedAt: 5, running: true, blank: false, cwd: '/w', title: 'T', titleSeq: 9, asOfSeq: 9 }],
    })
  })

  it('an answer must echo the rpcId; a business error carries its code', () => {
    const answer = (rpcId: string, result: unknown) => JSON.stringify({ type: 'server-response', rpcId, result })
    expect(responseValue(answer('a', { ok: true, value: 1 }), 'a', 'm')).toStrictEqual({ ok: true, value: 1 })
    expect(responseValue(answer('b', { ok: true, value: 1 }), 'a', 'm')).toStrictEqual({
      ok: false,
      why: 'm: the answer echoes another rpcId',
    })
    expect(
      responseValue(answer('a', { ok: false, error: { code: 'session-not-found', message: 'no' } }), 'a', 'm'),
    ).toStrictEqual({ ok: false, why: 'm: session-not-found: no', code: 'session-not-found' })
  })
})
