// @vitest-environment jsdom
/**
 * One frame for every pane: the header's count is grouped the same way everywhere, `data-count` goes with it, the
 * pane's own attributes pass through, and no pane under src/ui/panes draws a header of its own (the copies had
 * drifted: one printed a raw count).
 */

import { describe, expect, it } from 'vitest'
import { mount } from '../../test-support/react-act.tsx'
import { PaneFrame } from './PaneFrame.tsx'

/** Every pane component's source, by path (Vite reads them as text at test time). */
const PANES = import.meta.glob<string>(['../panes/*/*.tsx', '!../panes/*/*.test.tsx'], {
  query: '?raw',
  import: 'default',
  eager: true,
})
/** The strip above the timeline (the context chart, its Time and Cost modes) has a values line, not a pane header. */
const NOT_PANES = new Set([
  '../panes/context-chart/ContextChart.tsx',
  '../panes/context-chart/ChartHeaderFrame.tsx',
  '../panes/time-lanes/TimeLanesChart.tsx',
  '../panes/cost-chart/CostChart.tsx',
])

describe('PaneFrame', () => {
  it('groups the count, says its unit and tone, and passes the pane attributes through', () => {
    const host = mount(
      <PaneFrame title="Request" testId="p" count={12345} countUnit="messages" countTone="warn" data-step="3.1" aria-busy="true">
        <p>body</p>
      </PaneFrame>,
    )
    const section = host.querySelector('section') as HTMLElement
    expect(section.dataset['testid']).toBe('p')
    expect(section.dataset['count']).toBe('12345')
    expect(section.dataset['step']).toBe('3.1')
    expect(section.getAttribute('aria-busy')).toBe('true')
    expect(section.getAttribute('aria-label')).toBe('Request')
    const count = section.querySelector('header span') as HTMLElement
    expect(count.textContent).toBe('12,345 messages')
    expect(count.className).toContain('text-warn')
  })

  it('without a count has neither data-count nor a figure', () => {
    const host = mount(
      <PaneFrame title="Inspector" testId="inspector">
        <p>body</p>
      </PaneFrame>,
    )
    const section = host.querySelector('section') as HTMLElement
    expect(section.hasAttribute('data-count')).toBe(false)
    expect(section.querySelector('header')?.textContent).toBe('Inspector')
  })

  it('is the only pane header: no pane renders a <section> or <header> of its own', () => {
    const files = Object.keys(PANES)
    expect(files).toContain('../panes/request/RequestPane.tsx')
    const offenders = files.filter((file) => !NOT_PANES.has(file) && /<(section|header)[\s>]/.test(PANES[file] as string))
    expect(offenders).toStrictEqual([])
  })
})
