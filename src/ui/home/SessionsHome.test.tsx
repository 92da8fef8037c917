// @vitest-environment jsdom
/**
 * Component test: the sessions home with a dsh web host attached. Host rows and file rows side by side, told apart by
 * `data-source` and the host's badge (its link state); a host subagent nested under its host parent; a host-only row
 * shows no size; the badge follows the link; a host row opens by its id.
 */

import { act } from 'react'
import { createRoot, type Root } from 'react-dom/client'
import { afterEach, beforeEach, expect, it } from 'vitest'
import type { SessionListItem } from '../../live/protocol.ts'
import { createLensStore, type LensStore } from '../../store/create-lens-store.ts'
import { LensProvider } from '../../store/lens-store-context.tsx'
import type { SessionsView } from '../../store/live/live-view.ts'
import { createInThreadClient } from '../../worker/in-thread-client.ts'
import { SessionsHome } from './SessionsHome.tsx'

;(globalThis as { IS_REACT_ACT_ENVIRONMENT?: boolean }).IS_REACT_ACT_ENVIRONMENT = true

const NOW = Date.now()
const file: SessionListItem = {
  sessionId: 'session-file-only',
  path: '/home/u/.dsh/sessions/--w--/session-file-only/session.jsonl.zstd',
  encoding: 'zstd',
  cwd: '/w',
  children: [],
  sizeBytes: 2048,
  mtimeMs: NOW - 60_000,
  turnOpen: false,
  lastSeq: 9,
  kind: 'root',
  scanned: true,
  title: 'On disk',
  eventCount: 10,
  running: false,
}
const host: SessionListItem = {
  sessionId: 'session-host',
  path: 'dsh-web:session-host',
  source: 'dsh-web',
  encoding: 'dsh-web',
  cwd: '/w',
  children: ['session-host-child'],
  sizeBytes: 0,
  mtimeMs: NOW,
  turnOpen: true,
  lastSeq: null,
  kind: 'root',
  scanned: true,
  title: 'From the host',
  running: true,
  blank: false,
  upstream: 'connected',
}
const child: SessionListItem = {
  ...host,
  sessionId: 'session-host-child',
  path: 'dsh-web:session-host-child',
  children: [],
  parentSession: 'session-host',
  origin: 'subagent',
  kind: 'subagent',
  title: 'SUBTASK',
  running: false,
  mtimeMs: NOW - 1_000,
  diskPath: '/home/u/.dsh/sessions/--w--/session-host-child/session.jsonl.zstd',
  sizeBytes: 4096,
}

let container: HTMLDivElement
let root: Root
let store: LensStore
const opened: string[] = []

function list(items: readonly SessionListItem[]): SessionsView {
  return { items: new Map(items.map((i) => [i.path, i])), scan: { scanned: 1, total: 1 }, roots: [] }
}

/** The served page's list as the store's live slice keeps it (no server here: the test sets it). */
function showList(items: readonly SessionListItem[]): void {
  store.setState((s) => ({ liveView: { ...s.liveView, mode: 'served', status: 'live', list: list(items) } }))
}

beforeEach(async () => {
  opened.length = 0
  store = createLensStore({ lens: createInThreadClient() })
  store.setState({ openLiveSession: (id) => void opened.push(id) })
  showList([file, host, child])
  container = document.createElement('div')
  document.body.append(container)
  root = createRoot(container)
  await act(async () =>
    root.render(
      <LensProvider store={store}>
        <SessionsHome signedIn />
      </LensProvider>,
    ),
  )
})

afterEach(async () => {
  await act(async () => root.unmount())
  container.remove()
  store.client.dispose()
})

const row = (id: string): HTMLElement =>
  container.querySelector(`[data-testid=session-row][data-session-id="${id}"]`) as HTMLElement

it('host rows and file rows: data-source, the badge, the nesting, no size for a session only the host has', () => {
  const rows = [...container.querySelectorAll<HTMLElement>('[data-testid=session-row]')]
  expect(rows.map((r) => [r.dataset['sessionId'], r.dataset['source'], r.dataset['kind']])).toStrictEqual([
    ['session-host', 'dsh-web', 'root'],
    ['session-host-child', 'dsh-web', 'subagent'],
    ['session-file-only', 'file', 'root'],
  ])
  const badge = row('session-host').querySelector('[data-testid=session-source]') as HTMLElement
  expect(badge.textContent).toBe('live via dsh web')
  expect(badge.dataset['source']).toBe('dsh-web')
  expect(badge.dataset['upstream']).toBe('connected')
  expect(row('session-host').dataset['running']).toBe('true')
  expect(row('session-host').textContent).toContain('From the host')
  expect(row('session-host-child').dataset['parentId']).toBe('session-host')
  expect(row('session-file-only').querySelector('[data-testid=session-source]')).toBeNull()
  // Size: the file's and the host child's log on disk; none for the host-only session.
  const size = (id: string): string | null => row(id).children[3]?.textContent ?? null
  expect([size('session-file-only'), size('session-host-child'), size('session-host')]).toStrictEqual(['2.0 KB', '4.0 KB', ''])
})

it("the badge follows the server's link to the host; a host row opens by its id", async () => {
  await act(async () => showList([file, { ...host, upstream: 'gone' }, child]))
  const badge = row('session-host').querySelector('[data-testid=session-source]') as HTMLElement
  expect(badge.textContent).toBe('host gone')
  expect(badge.dataset['upstream']).toBe('gone')
  await act(async () => showList([file, { ...host, upstream: 'reconnecting' }, child]))
  expect(row('session-host').querySelector('[data-testid=session-source]')?.textContent).toBe('dsh web reconnecting…')
  await act(async () => row('session-host').click())
  expect(opened).toStrictEqual(['session-host'])
})
