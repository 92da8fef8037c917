/** The Connect flow on a log with a bad line mid-file: the store (via the in-thread worker) keeps the events after it and lists the defect; the controller records where the server stepped over it. */

import { appendFile, writeFile } from 'node:fs/promises'
import { expect, test } from 'vitest'
import { startLensServer } from '../../server/lens-server.ts'
import { headerText, sessionPath, tempRoot, waitFor } from '../../test-support/live-test-kit.ts'
import { liveStore } from '../../test-support/live-store.ts'
import { cleanupAfterEach, userLine as user } from '../../test-support/stream-test-kit.ts'

const cleanup = cleanupAfterEach()

test('a bad line mid-log: the diagnostics list it at its line, the events after it arrive, the status line knows where it is', async () => {
  const root = await tempRoot()
  const path = await sessionPath(root, 'session-bad', false)
  const head = headerText('session-bad') + '\n' + user(0) + user(1)
  await writeFile(path, head)
  const server = await startLensServer({ roots: [root], pollMs: 100 })
  cleanup.push(() => server.close())
  const store = liveStore({ ws: server.streamUrl, token: server.token, session: 'session-bad' })
  cleanup.push(() => store.client.dispose())
  cleanup.push(() => store.getState().stopLive())
  store.getState().startLive()
  await waitFor('two events', () => store.getState().summary?.length === 2)

  await appendFile(path, user(2).slice(0, 30) + '\n' + user(3) + user(4))
  await waitFor('the events after the bad line', () => store.getState().summary?.length === 4)
  const diagnostics = store.getState().summary?.diagnostics ?? []
  expect(diagnostics.find((d) => d.code === 'line-invalid-json')).toMatchObject({ line: 4 })
  await waitFor('the defect noted', () => store.getState().liveView.defects.length >= 1)
  expect(store.getState().liveView.defects[0]).toMatchObject({
    code: 'corrupt',
    fatal: false,
    diagnostic: 'line-invalid-json',
    line: 4,
    offset: Buffer.byteLength(head),
  })
  expect(store.getState().liveView.error).toBeNull()
})
