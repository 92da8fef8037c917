/** A live log that grows past the viewer's decoded-bytes budget: the feed closes at the cut, the controller stops following. */

import { appendFile, writeFile } from 'node:fs/promises'
import { expect, test } from 'vitest'
import { startLensServer } from '../../server/lens-server.ts'
import { headerText, sessionPath, tempRoot, waitFor } from '../../test-support/live-test-kit.ts'
import { cleanupAfterEach, userLine as user } from '../../test-support/stream-test-kit.ts'
import { liveStore } from '../../test-support/live-store.ts'

const cleanup = cleanupAfterEach()
const BUDGET = 4096

test('past the budget a live log keeps its prefix, says so, and the controller stops following', async () => {
  const root = await tempRoot()
  const path = await sessionPath(root, 'session-budget', false)
  const header = headerText('session-budget') + '\n'
  await writeFile(path, header + user(0) + user(1))
  const server = await startLensServer({ roots: [root], pollMs: 100 })
  cleanup.push(() => server.close())
  const store = liveStore(
    { ws: server.streamUrl, token: server.token, session: 'session-budget' },
    { decodedBytesBudget: BUDGET },
  )
  cleanup.push(() => store.client.dispose())
  cleanup.push(() => store.getState().stopLive())
  store.getState().startLive()
  await waitFor('two events', () => store.getState().summary?.length === 2)

  // Grow it well past the budget, in appends the server sends as they land.
  let text = header + user(0) + user(1)
  for (let seq = 2; seq < 60; seq++) {
    await appendFile(path, user(seq))
    text += user(seq)
  }
  await waitFor('the cut', () => store.getState().summary?.sizeBudget != null)
  const bytes = new TextEncoder().encode(text)
  const kept = bytes.lastIndexOf(0x0a, BUDGET - 1) + 1
  const events = new TextDecoder().decode(bytes.subarray(0, kept)).split('\n').length - 2
  const summary = store.getState().summary
  expect(summary?.sizeBudget).toMatchObject({ budgetBytes: BUDGET, keptBytes: kept, events })
  expect(summary?.length).toBe(events)
  expect(summary?.final).toBe(true)
  expect(store.getState().live).toBe(false)

  // A later append reaches the controller, which stops following and says why.
  await appendFile(path, user(60))
  await waitFor('following stopped', () => store.getState().liveView.error !== null)
  expect(store.getState().liveView.error).toContain(`budget of ${BUDGET} decoded bytes after ${events} events`)
  expect(store.getState().summary?.length).toBe(events)
})
