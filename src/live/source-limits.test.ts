/**
 * A session id the server refuses (longer than SESSION_ID_MAX) used to make TailClient retry forever: the server
 * closes the connection on the bad-request, the reconnect sends the same subscribe. Now the client refuses it itself,
 * once, and stays connected; the limit is the server's own (parseClientMessage).
 */

import { afterAll, beforeAll, expect, test } from 'vitest'
import { parseClientMessage } from '../server/stream/client-message.ts'
import { startLensServer, type LensServer } from '../server/lens-server.ts'
import { Follower, headerText, sessionPath, tempRoot, waitFor } from '../test-support/live-test-kit.ts'
import { writeFile } from 'node:fs/promises'
import { SESSION_ID_MAX, sourceRefProblem } from './source-limits.ts'

const token = 'source-limits-token-0123456789abcdef'
let server: LensServer

beforeAll(async () => {
  const root = await tempRoot()
  await writeFile(await sessionPath(root, 'session-ok', false), headerText('session-ok') + '\n')
  server = await startLensServer({ roots: [root], token, pollMs: 250 })
})
afterAll(() => server.close())

const subscribe = (sessionId: string) =>
  parseClientMessage(JSON.stringify({ type: 'subscribe', sub: 's', source: { kind: 'file', sessionId } }))

test('the client limit is the server limit', () => {
  expect(subscribe('x'.repeat(SESSION_ID_MAX)).ok).toBe(true)
  expect(subscribe('x'.repeat(SESSION_ID_MAX + 1)).ok).toBe(false)
  expect(sourceRefProblem({ kind: 'file', sessionId: 'x'.repeat(SESSION_ID_MAX) })).toBeNull()
  expect(sourceRefProblem({ kind: 'file', sessionId: 'x'.repeat(SESSION_ID_MAX + 1) })).toContain('at most 512')
})

test('a session id over the limit fails that subscription once, with the reason; the connection stays up', async () => {
  const tooLong = new Follower(server.streamUrl, token, { sessionId: 's'.repeat(SESSION_ID_MAX + 1) })
  const fine = new Follower(server.streamUrl, token, { sessionId: 'session-ok' })
  try {
    await waitFor('the refusal', () => tooLong.streamErrors.length > 0)
    await waitFor('the good follower', () => fine.headerLine !== null)
    expect(tooLong.streamErrors).toStrictEqual([
      {
        code: 'bad-request',
        fatal: true,
        message: `not subscribed: the session id is 513 characters long; the server takes at most 512`,
      },
    ])
    expect(tooLong.errors).toHaveLength(1)
    // Give a retry loop time to show (backoff 50-400 ms): the client connected once and was never cut off.
    await new Promise((r) => setTimeout(r, 1500))
    expect(tooLong.statuses).toStrictEqual(['connecting', 'connected'])
    expect(tooLong.streamErrors).toHaveLength(1)
  } finally {
    tooLong.close()
    fine.close()
  }
})
