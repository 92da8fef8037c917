/** The Connect flow end to end without a browser: server, TailClient, controller, store and the in-thread worker host agree with the disk. */

import { appendFile, rename, writeFile } from 'node:fs/promises'
import { expect, test } from 'vitest'
import { startLensServer } from '../../server/lens-server.ts'
import { diskEvents, headerText, sessionPath, tempRoot, waitFor } from '../../test-support/live-test-kit.ts'
import { liveStore } from '../../test-support/live-store.ts'
import { parseLiveParams, sessionItem, sessionItems } from './live-view.ts'
import { cleanupAfterEach, userLine as user } from '../../test-support/stream-test-kit.ts'

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
  const store = liveStore({ ws: server.streamUrl, token: server.token, session: null })
  cleanup.push(() => store.client.dispose())
  cleanup.push(() => store.getState().stopLive())
  store.getState().startLive()
  const live = () => store.getState().liveView

  await waitFor('session list', () => live().list.items !== null)
  expect(sessionItem(live().list, 'session-ui')?.children).toStrictEqual(['session-ui-child'])
  expect(live().pickerOpen).toBe(true)
  // A subagent that starts later is offered without asking (watch-sessions keeps the list current).
  const later = await sessionPath(root, 'session-ui-later', false)
  await writeFile(later, headerText('session-ui-later', { parentSession: 'session-ui', origin: 'subagent' }) + '\n' + user(0))
  await waitFor('the later child listed', () => (sessionItems(live().list) ?? []).some((s) => s.sessionId === 'session-ui-later'))
  expect(sessionItem(live().list, 'session-ui')?.children).toEqual(['session-ui-child', 'session-ui-later'])

  store.getState().openLiveSession('session-ui')
  await waitFor('two events', () => store.getState().summary?.length === 2)
  for (let seq = 2; seq < 6; seq++) await appendFile(path, user(seq))
  await waitFor('six events, cursor following', () => store.getState().summary?.length === 6 && store.getState().cursor === 5)

  store.getState().setCursor(1)
  await appendFile(path, user(6))
  await waitFor('seven events', () => store.getState().summary?.length === 7)
  expect(store.getState().cursor).toBe(1)
  store.getState().followNewest()
  expect(store.getState().cursor).toBe(6)

  // Replace the file: a reset, and the panes hold exactly the new log.
  await writeFile(`${path}.abcdef012345.tmp`, headerText('session-ui') + '\n' + user(0) + user(1) + user(2))
  await rename(`${path}.abcdef012345.tmp`, path)
  await waitFor('reset applied', () => live().resets >= 1 && store.getState().summary?.length === 3)
  expect((await diskEvents(path)).length).toBe(3)

  store.getState().openLiveSession('session-ui-child')
  await waitFor(
    'child opened',
    () => store.getState().summary?.length === 1 && store.getState().sourceName === 'session-ui-child',
  )
})
