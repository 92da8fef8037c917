/**
 * A log compressed in one piece by the `zstd` command (header and events in one frame, which the harness's framing
 * does not expect) is listed and streamed whole, with the core's `zstd-header-frame` diagnostic told to the follower.
 */

import { writeFile } from 'node:fs/promises'
import { afterAll, beforeAll, expect, test } from 'vitest'
import { WebSocket } from 'ws'
import { harnessMessages } from '../../core/index.ts'
import { PROTOCOL, type ServerMessage } from '../../live/protocol.ts'
import { zstdFrame } from '../../test-support/zstd-frames.ts'
import { startLensServer, type LensServer } from '../lens-server.ts'
import { headerText, sessionPath, tempRoot, waitFor } from '../../test-support/live-test-kit.ts'
import { userLine } from '../../test-support/stream-test-kit.ts'

let server: LensServer

beforeAll(async () => {
  const root = await tempRoot()
  const lines = Array.from({ length: 5 }, (_, seq) => userLine(seq)).join('')
  await writeFile(await sessionPath(root, 'one-frame', true), zstdFrame(headerText('one-frame') + '\n' + lines))
  server = await startLensServer({ roots: [root], pollMs: 100 })
})
afterAll(() => server.close())

test('listed with the warning, streamed whole, the diagnostic told once', async () => {
  const ws = new WebSocket(`${server.streamUrl}?token=${server.token}`, [PROTOCOL])
  const seen: ServerMessage[] = []
  ws.on('message', (data) => seen.push(JSON.parse(data.toString()) as ServerMessage))
  await new Promise((resolve) => ws.once('open', resolve))
  const send = (m: unknown): void => ws.send(JSON.stringify(m))
  send({ type: 'hello', protocol: 1 })
  send({ type: 'list', req: 'l' })
  await waitFor('the list', () => seen.some((m) => m.type === 'sessions'))
  const list = seen.find((m) => m.type === 'sessions')
  expect(list?.type === 'sessions' && list.items[0]).toMatchObject({
    sessionId: 'one-frame',
    warning: harnessMessages.ZSTD.headerFrame,
    eventCount: 5,
  })
  send({ type: 'subscribe', sub: 's', source: { kind: 'file', sessionId: 'one-frame' } })
  await waitFor('the live tail', () => seen.some((m) => m.type === 'live'))
  const appends = seen.filter((m) => m.type === 'append')
  expect(appends.flatMap((m) => (m.type === 'append' ? m.lines : []))).toHaveLength(5)
  const errors = seen.filter((m) => m.type === 'error')
  expect(errors).toHaveLength(1)
  expect(errors[0]).toMatchObject({ code: 'corrupt', fatal: false, diagnostic: 'zstd-header-frame', line: 1, offset: 0 })
  ws.close()
})
