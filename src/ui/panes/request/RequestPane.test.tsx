// @vitest-environment jsdom
/**
 * Component test of the Request view over the real store and the in-thread worker host: while a live feed of the
 * demo grows, the pane (following the cursor, which follows the end) shows the step in force at the last event with
 * the core's message count and first difference; and log text reaches the DOM only as text.
 */

import { expect, it } from 'vitest'
import { mount, until } from '../../../test-support/react-act.tsx'
import { LensLog, loadContentChecksum, stepPositionAt, stepRequest, type StepRequestJson } from '../../../core/index.ts'
import { createLensStore, type LensState, type LensStore } from '../../../store/create-lens-store.ts'
import { LensProvider } from '../../../store/lens-store-context.tsx'
import { createInThreadClient } from '../../../worker/in-thread-client.ts'
import { requestMessageDiff } from '../../../view/message-diff.ts'
import type { StepRequestView } from '../../../protocol/step-request.ts'
import { RequestDiffBar } from './RequestDiffBar.tsx'
import { RequestHeaderInfo } from './RequestHeaderInfo.tsx'
import { RequestMessageRow } from './RequestMessageRow.tsx'
import { RequestPane } from './RequestPane.tsx'
import { RequestRejected } from './RequestRejected.tsx'
// The bundled demo, generated (a fresh clone has no public/demo/ until `npm run demo`).
import { demoSessionJsonl } from '../../../generate/index.ts'

const demoText = demoSessionJsonl()

const HOSTILE = '<script>window.__pwned = 1</script><img src=x onerror="window.__pwned = 2">'

const settled = (store: LensStore, length: number) => (s: LensState) =>
  s.summary?.length === length && s.cursor === length - 1 && store.getState().snapshot?.index === length - 1

/** The Request view over a live feed of the demo; `append` feeds text and waits until the store has shown all of it. */
async function liveDemoPane() {
  const store = createLensStore({ lens: createInThreadClient() })
  const host = mount(
    <LensProvider store={store}>
      <RequestPane />
    </LensProvider>,
  )
  const feed = store.getState().startLiveFeed('live')
  // The same bytes folded here: what the pane must show.
  const prefix = new LensLog({ checksum: await loadContentChecksum() })
  const append = async (text: string): Promise<void> => {
    prefix.push(new TextEncoder().encode(text))
    feed.append(text)
    await until(
      () => settled(store, prefix.length)(store.getState()),
      () => `length ${store.getState().summary?.length} of ${prefix.length}`,
    )
  }
  return { store, host, feed, prefix, append }
}

it('follows a growing live log: the step in force at the end, with the core’s count and first difference', async () => {
  const lines = demoText.split(/(?<=\n)/)
  const { store, host, feed, prefix, append } = await liveDemoPane()
  const pane = () => host.querySelector('[data-testid=request-pane]') as HTMLElement
  let sent = 0
  for (const cut of [12, 60, 150, 290, lines.length]) {
    await append(lines.slice(sent, cut).join(''))
    sent = cut
    const expected = stepRequest(prefix, stepPositionAt(prefix, prefix.length - 1)) as StepRequestJson
    const step = `${expected.turn}.${expected.step}`
    await until(
      () => pane().dataset['step'] === step && pane().dataset['count'] === String(expected.messages.length),
      () => `pane at ${pane().dataset['step']}/${pane().dataset['count']}, want ${step}/${expected.messages.length} (cut ${cut})`,
    )
    expect(pane().dataset['following']).toBe('true')
    const diff = host.querySelector('[data-testid=request-diff]') as HTMLElement
    expect(diff.dataset['firstDifference']).toBe(String(expected.diff.firstDifference ?? ''))
  }
  feed.end()
  store.client.dispose()
})

/** Every state of the pane the DOM went through, as "step|diff" (diff: the changed message's data-seq, or '-'). */
function watchPane(host: HTMLElement): string[] {
  const seen: string[] = []
  const note = (): void => {
    const pane = host.querySelector('[data-testid=request-pane]')
    // (jsdom lays nothing out, so the list mounts no row: the pane's step is what it shows.)
    if (pane === null || pane.getAttribute('data-step') === '') return
    const diff = host.querySelector('[data-testid=request-message-diff]')
    const state = `${pane.getAttribute('data-step')}|${diff?.getAttribute('data-seq') ?? '-'}`
    if (seen.at(-1) !== state) seen.push(state)
  }
  new MutationObserver(note).observe(host, { subtree: true, childList: true, attributes: true })
  return seen
}

it('shows a step with its message diff at once, and keeps it while a live log grows', async () => {
  // Each part arriving on its own moved the message list under the reader (use-request-snapshot.ts): a step with a
  // changed message must never be on screen without that message's diff, nor lose it while the log grows.
  const lines = demoText.split(/(?<=\n)/)
  const { store, host, feed, prefix, append } = await liveDemoPane()
  const seen = watchPane(host)
  const cut = lines.findIndex((l) => l.includes('"type":"turn/start"') && l.includes('"turn":3'))
  expect(cut).toBeGreaterThan(0)
  await append(lines.slice(0, cut).join(''))
  store.getState().openRequest({ turn: 2, step: 1 })
  const diffSeq = (requestMessageDiff(prefix, 2, 1) as { seq: number }).seq
  await until(
    () => seen.includes(`2.1|${diffSeq}`),
    () => `states ${seen.join(' ')}`,
  )
  // The rest of the log arrives in pieces; the pinned step's request is asked again at every growth.
  for (const piece of [lines.slice(cut, cut + 5), lines.slice(cut + 5)]) await append(piece.join(''))
  feed.end()
  await until(
    () => store.getState().summary?.final === true,
    () => 'not final',
  )
  expect(seen.filter((state) => state.startsWith('2.1|'))).toStrictEqual([`2.1|${diffSeq}`])
  // The picker's step list is the last question a final log asks: disposing before it would reject it.
  await until(
    () => host.querySelectorAll('[data-testid=request-step-select] option').length > 1,
    () => 'no step list',
  )
  store.client.dispose()
})

it('renders message and system prompt text as text, never as markup', () => {
  const request = {
    header: { config: { model: HOSTILE, provider: 'p' }, system: HOSTILE, tools: [{ name: HOSTILE, description: HOSTILE }] },
    headerSeq: 1,
    usage: null,
    estimatedTokens: 3,
    rejected: [{ code: 'orphan-tool-result', index: 0, seq: 5, message: HOSTILE }],
  } as unknown as StepRequestView
  const host = mount(
    <div>
      <RequestHeaderInfo request={request} onSeq={() => {}} />
      <RequestRejected request={request} onSeq={() => {}} />
      <RequestMessageRow
        row={{
          seq: 5,
          role: 'user',
          text: HOSTILE,
          reasoning: HOSTILE,
          toolCalls: [{ name: HOSTILE, args: HOSTILE }],
          truncated: false,
          tokens: 9,
        }}
        position={0}
        change="appended"
        firstDifference
        tokensBefore={0}
        rejected={['orphan-tool-result']}
      />
    </div>,
  )
  expect(host.querySelector('script, img')).toBeNull()
  expect(host.textContent).toContain(HOSTILE)
  expect(host.querySelector('[data-testid=request-rejected]')?.getAttribute('data-codes')).toBe('orphan-tool-result')
  expect(host.querySelector('[data-rejected]')?.getAttribute('data-rejected')).toBe('orphan-tool-result')
  expect((globalThis as { __pwned?: number }).__pwned).toBeUndefined()
})

it('the diff names header changes: model before → after, tools added and removed by name', () => {
  const request = {
    header: { config: { provider: 'p', model: 'model-b' } },
    diff: {
      previous: '1.1',
      firstDifference: 0,
      appended: [4],
      removed: [],
      replacedBy: [],
      headerChanged: ['model', 'tools-added', 'tools-removed'],
      tokensBeforeFirstDifference: 0,
      cacheWarning: null,
    },
  } as unknown as StepRequestView
  const host = mount(
    <RequestDiffBar
      request={request}
      headerChange={{ previousConfig: { provider: 'p', model: 'model-a' }, toolsAdded: ['edit'], toolsRemoved: ['grep'] }}
      onSeq={() => {}}
    />,
  )
  const field = (name: string) => host.querySelector(`[data-field="${name}"]`)?.textContent
  expect(field('model')).toBe('model model-a → model-b')
  expect(field('tools-added')).toBe('tools-added edit')
  expect(field('tools-removed')).toBe('tools-removed grep')
  expect(host.querySelector('[data-testid=request-diff]')?.getAttribute('data-first-difference')).toBe('0')
})
