import { describe, expect, it } from 'vitest'
import type { SessionListItem } from '../../live/protocol.ts'
import { findSession, type SessionsView } from './live-view.ts'

const item = (sessionId: string, source: 'file' | 'dsh-web' = 'file'): SessionListItem =>
  ({ path: `/home/${sessionId}/${source}`, sessionId, source }) as unknown as SessionListItem

const list = (...items: SessionListItem[]): SessionsView => ({
  items: new Map(items.map((i) => [(i as unknown as { path: string }).path, i])),
  scan: null,
  roots: [],
})

describe('findSession: the row a compare link names', () => {
  const sessions = list(
    item('session-3f2a9c1e-1'),
    item('session-3f2a9c1e-2'),
    item('session-7b40d2aa'),
    item('session-7b40d2aa', 'dsh-web'),
  )

  it('an id, or a prefix naming one session (with or without session-), the host row first', () => {
    expect(findSession(sessions, 'session-3f2a9c1e-2')).toMatchObject({ sessionId: 'session-3f2a9c1e-2' })
    expect(findSession(sessions, '7b40')).toMatchObject({ sessionId: 'session-7b40d2aa', source: 'dsh-web' })
    expect(findSession(sessions, 'session-7b')).toMatchObject({ sessionId: 'session-7b40d2aa', source: 'dsh-web' })
  })

  it('says why not: no such session, or a prefix naming several', () => {
    expect(findSession(sessions, 'ffff')).toBe('no session ffff on this server')
    expect(findSession(sessions, '3f2a')).toBe('3f2a names 2 sessions: session-3f2a9c1e-1, session-3f2a9c1e-2')
    expect(findSession(sessions, '')).toBe('a session id is missing')
  })
})
