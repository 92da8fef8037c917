// @vitest-environment jsdom
/**
 * Component test: the status line's word on the agent. A finished session opened from the home says it is not
 * running and since when it is idle (the home's rule: open turn and a change in the last minute); a running one says
 * running; a dsh web session follows its host's flag; without a catalog row an open turn is all there is.
 */

import { describe, expect, it } from 'vitest'
import type { SessionListItem } from '../../live/protocol.ts'
import { mount } from '../../test-support/react-act.tsx'
import { SessionActivity } from './SessionActivity.tsx'

const NOW = Date.now()
const finished: SessionListItem = {
  sessionId: 'session-done',
  path: '/h/.dsh/sessions/--w--/session-done/session.jsonl.zstd',
  encoding: 'zstd',
  cwd: '/w',
  children: [],
  sizeBytes: 2048,
  mtimeMs: NOW - 3 * 3_600_000,
  turnOpen: false,
  lastSeq: 41,
  kind: 'root',
  scanned: true,
  running: false,
}

const text = (el: HTMLElement): string => el.textContent ?? ''

describe('SessionActivity', () => {
  it('a finished session from the home: not running, idle since its log last changed', () => {
    const el = mount(<SessionActivity viaHost={false} turnOpen={false} entry={finished} />)
    const idle = el.querySelector('[data-testid=live-idle]') as HTMLElement
    expect(idle.getAttribute('data-since')).toBe(String(finished.mtimeMs))
    expect(text(idle)).toMatch(/^not running · idle since .+ \(3 h ago\)$/)
    expect(el.querySelector('[data-testid=live-running]')).toBeNull()
  })

  it('an open turn the log stopped writing a while ago is not running either, as the home says (the tooltip says why)', () => {
    const el = mount(<SessionActivity viaHost={false} turnOpen={true} entry={{ ...finished, turnOpen: true }} />)
    const idle = el.querySelector('[data-testid=live-idle]') as HTMLElement
    expect(idle.getAttribute('title')).toContain('its last turn never ended')
    expect(el.querySelector('[data-testid=live-running]')).toBeNull()
  })

  it('running when the catalog says so, and for a dsh web session when its host does', () => {
    const running = mount(<SessionActivity viaHost={false} turnOpen={true} entry={{ ...finished, running: true }} />)
    expect(text(running.querySelector('[data-testid=live-running]') as HTMLElement)).toBe('running')
    const host = mount(<SessionActivity viaHost={true} turnOpen={true} entry={{ ...finished, running: false }} />)
    expect(text(host.querySelector('[data-testid=live-running]') as HTMLElement)).toBe('running')
    const hostIdle = mount(<SessionActivity viaHost={true} turnOpen={false} entry={finished} />)
    expect(hostIdle.querySelector('[data-testid=live-idle]')).not.toBeNull()
  })

  it('without a catalog row (the Connect flow): an open turn, or nothing', () => {
    const open = mount(<SessionActivity viaHost={false} turnOpen={true} entry={undefined} />)
    expect(text(open.querySelector('[data-testid=live-running]') as HTMLElement)).toBe('turn open')
    const closed = mount(<SessionActivity viaHost={false} turnOpen={false} entry={undefined} />)
    expect(closed.textContent).toBe('')
  })
})
