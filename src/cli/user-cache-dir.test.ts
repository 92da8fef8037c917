/** Where derived data goes: $XDG_CACHE_HOME/dsh-lens when absolute (a relative one is invalid, per the spec), else ~/.cache/dsh-lens. */

import { describe, expect, it } from 'vitest'
import { userCacheDir } from './user-cache-dir.ts'

describe('userCacheDir', () => {
  it('follows XDG_CACHE_HOME when it is an absolute path, else ~/.cache', () => {
    expect(userCacheDir({ XDG_CACHE_HOME: '/var/cache/me', HOME: '/home/u' })).toBe('/var/cache/me/dsh-lens')
    expect(userCacheDir({ XDG_CACHE_HOME: 'relative/cache', HOME: '/home/u' })).toBe('/home/u/.cache/dsh-lens')
    expect(userCacheDir({ XDG_CACHE_HOME: '  ', HOME: '/home/u' })).toBe('/home/u/.cache/dsh-lens')
    expect(userCacheDir({ HOME: '/home/u' })).toBe('/home/u/.cache/dsh-lens')
  })
})
