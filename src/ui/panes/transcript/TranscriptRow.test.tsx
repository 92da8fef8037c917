// @vitest-environment jsdom
/** Component test: log text reaches the DOM as text nodes only, whatever markup it contains. */

import { act } from 'react'
import { createRoot } from 'react-dom/client'
import { afterEach, expect, it } from 'vitest'
import type { EventSummary } from '../../../protocol/event-views.ts'
import { TranscriptRow } from './TranscriptRow.tsx'

;(globalThis as { IS_REACT_ACT_ENVIRONMENT?: boolean }).IS_REACT_ACT_ENVIRONMENT = true

const HOSTILE = '<script>window.__pwned = 1</script><img src=x onerror="window.__pwned = 2">'
const summary: EventSummary = {
  index: 1,
  seq: 1,
  line: 2,
  type: 'user/message',
  kind: 'message',
  role: 'user',
  text: HOSTILE,
  reasoning: '<b>thinking</b>',
  toolCalls: [{ name: '<i>tool</i>', args: '{"x":"<svg onload=alert(1)>"}' }],
  truncated: false,
  upgraded: true,
  packed: false,
  span: 1,
  replace: null,
  surface: { enteredIndex: 1, shadowedBySeq: 9, shadowedAtIndex: 9 },
  derives: true,
  deriveError: null,
}

let container: HTMLDivElement | undefined
afterEach(() => container?.remove())

it('renders hostile content as text, with the shadowed marker and legacy flag', async () => {
  container = document.createElement('div')
  document.body.append(container)
  const root = createRoot(container)
  await act(async () =>
    root.render(<TranscriptRow rowRef={{ row: 0, index: 1, kind: 'message', span: 1 }} summary={summary} cursor={10} />),
  )
  expect(container.querySelector('script, img, svg, b, i')).toBeNull()
  expect(container.textContent).toContain(HOSTILE)
  expect(container.textContent).toContain('shadowed by #9')
  expect(container.textContent).toContain('legacy, upgraded')
  await act(async () => root.unmount())
})
