import { describe, expect, it } from 'vitest'
import { liveParamsOf, pageSource } from './page-source.ts'

const location = { search: '', protocol: 'http:', host: '127.0.0.1:4000' } as Pick<Location, 'search' | 'protocol' | 'host'>

describe('pageSource: the Compare view of a served page', () => {
  it('?compare=A&with=B names two sessions; the live params carry them', () => {
    const source = pageSource('?compare=session-aa&with=bb', 'signed-in')
    expect(source).toStrictEqual({ kind: 'served', session: null, compare: { a: 'session-aa', b: 'bb' }, signedIn: true })
    expect(liveParamsOf(source, location)).toStrictEqual({
      ws: 'ws://127.0.0.1:4000/v1/stream',
      token: null,
      session: null,
      served: true,
      compare: { a: 'session-aa', b: 'bb' },
    })
  })

  it('one side missing or empty is no comparison (the home, or the session named)', () => {
    expect(pageSource('?compare=aa', 'signed-in')).toMatchObject({ kind: 'served', compare: null })
    expect(pageSource('?compare=aa&with=', 'signed-in')).toMatchObject({ kind: 'served', compare: null })
    expect(pageSource('?session=s1&with=bb', 'signed-out')).toStrictEqual({
      kind: 'served',
      session: 's1',
      compare: null,
      signedIn: false,
    })
    expect(liveParamsOf(pageSource('?session=s1', 'signed-in'), location)).not.toHaveProperty('compare')
  })

  it('an unserved page does not compare by address', () => {
    expect(pageSource('?compare=aa&with=bb', null)).toStrictEqual({ kind: 'demo' })
  })
})
