import { describe, expect, it } from 'vitest'
import type { SessionListItem } from '../../live/protocol.ts'
import { HostCatalog, mergeSessionLists } from './host-catalog.ts'

const none = (): undefined => undefined

describe('HostCatalog', () => {
  it('a title projection wins over an older list title, never over a newer one', () => {
    const c = new HostCatalog()
    c.baseline([{ sessionId: 's', updatedAt: 1, running: false, blank: false, title: 'A', titleSeq: 5 }])
    expect(c.title('s', 'B', 4)).toBe(false)
    expect(c.title('s', 'C', 7)).toBe(true)
    c.baseline([{ sessionId: 's', updatedAt: 1, running: false, blank: false, title: 'A', titleSeq: 5 }])
    expect(c.titleOf('s')).toBe('C')
    c.baseline([{ sessionId: 's', updatedAt: 1, running: false, blank: false, title: 'D', titleSeq: 9 }])
    expect(c.titleOf('s')).toBe('D')
  })

  it('a title that overtakes its session-added (another socket) is kept', () => {
    const c = new HostCatalog()
    expect(c.title('s', 'Early', 3, 7)).toBe(true)
    c.apply({ kind: 'session-added', sessionId: 's', blank: true, cwd: '/w' }, 8)
    expect(c.items('connected', none)[0]).toMatchObject({ sessionId: 's', title: 'Early', cwd: '/w' })
  })

  it('session-removed means idle, not deleted; the first running flips blank', () => {
    const c = new HostCatalog()
    c.apply({ kind: 'session-added', sessionId: 's', blank: true, cwd: '/w' }, 10)
    c.apply({ kind: 'session-status', sessionId: 's', running: true }, 11)
    expect(c.items('connected', none)[0]).toMatchObject({ running: true, blank: false, mtimeMs: 11 })
    c.apply({ kind: 'session-removed', sessionId: 's' }, 12)
    expect(c.items('connected', none)).toHaveLength(1)
    expect(c.running('s')).toBe(false)
  })

  it('a header for a host session: lineage, depth from the parent chain, createdAt from the first event', () => {
    const c = new HostCatalog()
    c.apply({ kind: 'session-added', sessionId: 'p', blank: true, cwd: '/w', agentPreset: 'standard' }, 1)
    c.apply({ kind: 'session-added', sessionId: 'c', blank: true, cwd: '/w', parentSessionId: 'p', origin: 'subagent' }, 2)
    expect(JSON.parse(c.headerLine('c', 1234))).toStrictEqual({
      type: 'session',
      version: 0,
      id: 'c',
      createdAt: 1234,
      cwd: '/w',
      parentSession: 'p',
      origin: 'subagent',
      delegationDepth: 1,
    })
    expect(JSON.parse(c.headerLine('p', undefined))).toMatchObject({ createdAt: 1, delegationDepth: 0, agentPreset: 'standard' })
  })
})

describe('mergeSessionLists', () => {
  const file = (sessionId: string, extra: Partial<SessionListItem> = {}): SessionListItem => ({
    sessionId,
    path: `/root/--p--/${sessionId}/session.jsonl.zstd`,
    encoding: 'zstd',
    children: [],
    sizeBytes: 10,
    mtimeMs: 1,
    turnOpen: false,
    lastSeq: 3,
    ...extra,
  })
  it('a session on disk and in the host is listed once, from the host, with its file; children join across sources', () => {
    const c = new HostCatalog()
    c.apply({ kind: 'session-added', sessionId: 'both', blank: false, cwd: '/w' }, 5)
    const merged = mergeSessionLists(
      [file('both', { createdAt: 4 }), file('disk-child', { parentSession: 'both' })],
      c.items('connected', none),
    )
    expect(merged.map((m) => [m.sessionId, m.source])).toStrictEqual([
      ['both', 'dsh-web'],
      ['disk-child', 'file'],
    ])
    expect(merged[0]).toMatchObject({ diskPath: '/root/--p--/both/session.jsonl.zstd', createdAt: 4, children: ['disk-child'] })
  })
})
