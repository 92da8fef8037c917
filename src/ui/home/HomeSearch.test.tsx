// @vitest-environment jsdom
/**
 * Component test: the home's content search while the index builds and after. The progress bar with how many logs
 * are indexed; a search before the build is done lists its hits and says how much is indexed so far; the bar goes when
 * the index is ready; a refused query shows its one sentence; a hit opens its session at its seq; a server that cannot
 * search says why in words, in place of the results.
 */

import { act } from 'react'
import { createRoot, type Root } from 'react-dom/client'
import { afterEach, beforeEach, expect, it } from 'vitest'
import type { IndexProgressView } from '../../live/protocol.ts'
import type { ContentHits } from '../../live/tail-client.ts'
import { createLensStore, type LensStore } from '../../store/create-lens-store.ts'
import { LensProvider } from '../../store/lens-store-context.tsx'
import { createInThreadClient } from '../../worker/in-thread-client.ts'
import { HomeSearch } from './HomeSearch.tsx'

;(globalThis as { IS_REACT_ACT_ENVIRONMENT?: boolean }).IS_REACT_ACT_ENVIRONMENT = true

let container: HTMLDivElement
let root: Root
let store: LensStore
const opened: Array<[string, number]> = []

const building: IndexProgressView = { state: 'building', done: 120, total: 400, sessions: 118, events: 9_000 }
const ready: IndexProgressView = { state: 'ready', done: 400, total: 400, sessions: 400, events: 30_000 }
const answer = (index: IndexProgressView): ContentHits => ({
  type: 'content-hits',
  req: 'c1',
  query: 'csv',
  ok: true,
  sessions: [
    {
      id: 'session-a',
      title: 'Fix the csv parser',
      project: '/w/a',
      hits: [
        {
          seq: 12,
          turn: 1,
          step: 2,
          type: 'tool/result',
          tool: 'bash',
          surface: 'shadowed',
          shadowedBy: 40,
          snippet: 'cat data.csv: no such file',
          highlight: [9, 12],
        },
        {
          seq: 2,
          turn: 1,
          step: null,
          type: 'user/message',
          tool: null,
          surface: 'current',
          shadowedBy: null,
          snippet: 'the csv bug',
          highlight: [4, 7],
        },
      ],
    },
  ],
  index,
})

beforeEach(async () => {
  opened.length = 0
  store = createLensStore({ lens: createInThreadClient() })
  store.setState({ watchIndex: () => () => undefined, openSearchHit: (id, seq) => void opened.push([id, seq]) })
  container = document.createElement('div')
  document.body.append(container)
  root = createRoot(container)
  await act(async () =>
    root.render(
      <LensProvider store={store}>
        <HomeSearch />
      </LensProvider>,
    ),
  )
})

afterEach(async () => {
  await act(async () => root.unmount())
  container.remove()
  store.client.dispose()
})

const q = (selector: string): HTMLElement | null => container.querySelector<HTMLElement>(selector)

it('shows the build’s progress, hits found before it ends with how much is indexed, and no bar once ready', async () => {
  expect(q('[data-testid=index-progress]')).toBeNull()
  await act(async () => store.setState({ indexProgress: building }))
  const bar = q('[data-testid=index-progress]') as HTMLElement
  expect([bar.dataset['done'], bar.dataset['total']]).toStrictEqual(['120', '400'])
  expect(bar.textContent).toContain('120 of 400 logs (30%)')
  expect(q('[data-testid=home-search]')?.dataset['indexState']).toBe('building')

  await act(async () => store.setState({ homeSearch: { query: 'csv', answer: answer(building), pending: false, error: null } }))
  const results = q('[data-testid=home-search-results]') as HTMLElement
  expect([results.dataset['count'], results.dataset['state']]).toStrictEqual(['2', 'done'])
  expect(results.textContent).toContain('2 hits in 1 session · 118 sessions indexed so far, of 400')
  const hits = [...container.querySelectorAll<HTMLElement>('[data-testid=search-hit]')]
  expect(hits.map((h) => [h.dataset['sessionId'], h.dataset['seq'], h.dataset['surface']])).toStrictEqual([
    ['session-a', '12', 'shadowed'],
    ['session-a', '2', 'current'],
  ])
  expect(hits[0]?.textContent).toContain('shadowed by #40')
  expect(hits[0]?.querySelector('mark')?.textContent).toBe('csv')

  await act(async () => store.setState({ indexProgress: ready }))
  expect(q('[data-testid=index-progress]')).toBeNull()
  await act(async () => hits[0]?.click())
  expect(opened).toStrictEqual([['session-a', 12]])
})

it('says when the sessions are newest first, because the words are in too many events to rank', async () => {
  await act(async () => store.setState({ homeSearch: { query: 'csv', answer: answer(ready), pending: false, error: null } }))
  const results = q('[data-testid=home-search-results]') as HTMLElement
  expect(results.dataset['order']).toBe('strength')
  expect(results.textContent).not.toContain('newest sessions first')
  const recent: ContentHits = { ...answer(ready), order: 'recent' }
  await act(async () => store.setState({ homeSearch: { query: 'the', answer: recent, pending: false, error: null } }))
  expect(results.dataset['order']).toBe('recent')
  expect(q('[role=status]')?.textContent).toBe(
    '2 hits in 1 session · newest sessions first: the words are in too many events to rank them all',
  )
})

it('keeps the line under the box one line high in every state, so the rows below never move', async () => {
  const line = (): HTMLElement => q('[data-testid=index-line]') as HTMLElement
  const seen: Array<[string | undefined, string]> = [[line().dataset['state'], line().className]]
  await act(async () => store.setState({ indexProgress: building }))
  expect(line().querySelector('[data-testid=index-progress]')).not.toBeNull()
  seen.push([line().dataset['state'], line().className])
  await act(async () => store.setState({ indexProgress: ready }))
  expect(q('[data-testid=index-progress]')).toBeNull()
  expect(line().textContent).toContain('the text of 400 sessions indexed')
  seen.push([line().dataset['state'], line().className])
  // The same element's box in each state: a fixed height (h-4), whatever it holds.
  expect(seen.map(([state]) => state)).toStrictEqual(['waiting', 'building', 'ready'])
  expect(new Set(seen.map(([, className]) => className)).size).toBe(1)
  expect(line().className).toContain('h-4')
})

it('says a refused query’s sentence, and nothing for an empty box', async () => {
  const refused: ContentHits = {
    ...answer(building),
    ok: false,
    message: 'the query "*" has no word to search for',
    sessions: [],
  }
  await act(async () => store.setState({ homeSearch: { query: '*', answer: refused, pending: false, error: null } }))
  const results = q('[data-testid=home-search-results]') as HTMLElement
  expect([results.dataset['count'], results.dataset['state']]).toStrictEqual(['0', 'refused'])
  expect(results.textContent).toContain('the query "*" has no word to search for')
  await act(async () => store.setState({ homeSearch: { query: '', answer: refused, pending: false, error: null } }))
  expect(q('[data-testid=home-search-results]')).toBeNull()
})

it('says in words why a server cannot search, in place of the results, with the box disabled', async () => {
  const why = 'this server was started without a content index (no cache directory was given for one)'
  const unavailable: IndexProgressView = { state: 'unavailable', done: 0, total: 0, sessions: 0, events: 0, message: why }
  const refused: ContentHits = { ...answer(unavailable), ok: false, message: why, sessions: [] }
  await act(async () =>
    store.setState({ indexProgress: unavailable, homeSearch: { query: 'csv', answer: refused, pending: false, error: null } }),
  )
  expect(q('[data-testid=index-unavailable]')?.textContent).toBe(`Content search is unavailable here: ${why}`)
  expect(q('[data-testid=home-search-results]')).toBeNull()
  expect(q('[data-testid=index-progress]')).toBeNull()
  const box = q('[data-testid=home-search]') as HTMLInputElement
  expect([box.dataset['indexState'], box.disabled]).toStrictEqual(['unavailable', true])
})
