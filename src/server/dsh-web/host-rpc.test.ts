import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { startStandInHost, type StandInHost } from '../../test-support/stand-in-dsh-host.ts'
import { HostRpc } from './host-rpc.ts'

let host: StandInHost
beforeAll(async () => {
  host = await startStandInHost()
  host.answer('session.list', () => ({ value: { items: [{ sessionId: 's', note: 'x'.repeat(4096) }] } }))
  host.answer('session.history', () => ({ error: 'session-not-found' }))
})
afterAll(() => host.close())

describe('HostRpc', () => {
  it('posts the envelope to /api/<method> and returns the value; a business error keeps its code', async () => {
    const rpc = new HostRpc({ base: new URL(host.url) })
    const list = await rpc.call('session.list', {})
    expect(list.ok && (list.value as { items: unknown[] }).items).toHaveLength(1)
    expect(host.calls.at(-1)).toStrictEqual({ method: 'session.list', payload: {} })
    expect(await rpc.call('session.history', { sessionId: 'x' })).toMatchObject({ ok: false, code: 'session-not-found' })
  })

  it('an answer past the size cap is refused, not buffered', async () => {
    const rpc = new HostRpc({ base: new URL(host.url), maxAnswerBytes: 1024 })
    expect(await rpc.call('session.list', {})).toStrictEqual({
      ok: false,
      why: 'session.list: the answer is larger than 1024 bytes',
    })
  })

  it('a host that does not answer is an error with the reason', async () => {
    const closed = await startStandInHost()
    await closed.close()
    const rpc = new HostRpc({ base: new URL(closed.url) })
    expect(await rpc.call('session.list', {})).toStrictEqual({ ok: false, why: 'session.list: ECONNREFUSED' })
  })
})
