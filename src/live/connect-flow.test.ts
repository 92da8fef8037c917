/** The Connect flow end to end without a browser: server, TailClient, controller, store and the in-thread worker host agree with the disk. */

import { appendFile, rename, writeFile } from 'node:fs/promises'
import { expect, test } from 'vitest'
import { startLensServer } from '../server/lens-server.ts'
import { diskEvents, headerText, sessionPath, tempRoot, waitFor, wsFactory } from '../test-support/live-test-kit.ts'
import { createLensStore } from '../store/create-lens-store.ts'
import { createInThreadClient } from '../worker/in-thread-client.ts'
import { LiveController, parseLiveParams } from '../ui/live/live-controller.ts'
import { cleanupAfterEach, userLine as user } from '../test-support/stream-test-kit.ts'

const cleanup = cleanupAfterEach()

test('parseLiveParams reads ?ws=&token=&session= and ignores pages without a ws URL', () => {
  expect(parseLiveParams('?ws=ws://127.0.0.1:1/v1/stream&token=t&session=s')).toStrictEqual({
    ws: 'ws://127.0.0.1:1/v1/stream',
    token: 't',
    session: 's',
  })
  expect(parseLiveParams('?log=/x.jsonl')).toBeNull()
  expect(parseLiveParams('?ws=http://evil')).toBeNull()
})

test('picker list, live feed into the store, follow, pause on scrub, resume, and reset', async () => {
  const root = await tempRoot()
  const path = await sessionPath(root, 'session-ui', false)
  await writeFile(path, headerText('session-ui') + '\n' + user(0) + user(1))
  const child = await sessionPath(root, 'session-ui-child', false)
  await writeFile(child, headerText('session-ui-child', { parentSession: 'session-ui', origin: 'subagent' }) + '\n' + user(0))
  const server = await startLensServer({ roots: [root], pollMs: 250 })
  cleanup.push(() => server.close())
  const store = createLensStore({ lens: createInThreadClient() })
  cleanup.push(() => store.client.dispose())
  const controller = new LiveController(store, { ws: server.streamUrl, token: server.token, session: null }, wsFactory())
  cleanup.push(() => controller.stop())
  controller.start()

  await waitFor('session list', () => controller.view.getState().sessions !== null)
  const listed = controller.view.getState().sessions ?? []
  expect(listed.find((s) => s.sessionId === 'session-ui')?.children).toStrictEqual(['session-ui-child'])
  expect(controller.view.getState().pickerOpen).toBe(true)
  // A subagent that starts later is offered without asking (watch-sessions keeps the list current).
  const later = await sessionPath(root, 'session-ui-later', false)
  await writeFile(later, headerText('session-ui-later', { parentSession: 'session-ui', origin: 'subagent' }) + '\n' + user(0))
  await waitFor('the later child listed', () =>
    (controller.view.getState().sessions ?? []).some((s) => s.sessionId === 'session-ui-later'),
  )
  expect(controller.view.getState().sessions?.find((s) => s.sessionId === 'session-ui')?.children).toEqual([
    'session-ui-child',
    'session-ui-later',
  ])

  controller.open('session-ui')
  await waitFor('two events', () => store.getState().summary?.length === 2)
  for (let seq = 2; seq < 6; seq++) await appendFile(path, user(seq))
  await waitFor('six events, cursor following', () => store.getState().summary?.length === 6 && store.getState().cursor === 5)

  store.getState().setCursor(1)
  await appendFile(path, user(6))
  await waitFor('seven events', () => store.getState().summary?.length === 7)
  expect(store.getState().cursor).toBe(1)
  controller.follow()
  expect(store.getState().cursor).toBe(6)

  // Replace the file: a reset, and the panes hold exactly the new log.
  await writeFile(`${path}.abcdef012345.tmp`, headerText('session-ui') + '\n' + user(0) + user(1) + user(2))
  await rename(`${path}.abcdef012345.tmp`, path)
  await waitFor('reset applied', () => controller.view.getState().resets >= 1 && store.getState().summary?.length === 3)
  expect((await diskEvents(path)).length).toBe(3)

  controller.open('session-ui-child')
  await waitFor(
    'child opened',
    () => store.getState().summary?.length === 1 && store.getState().sourceName === 'session-ui-child',
  )
})
