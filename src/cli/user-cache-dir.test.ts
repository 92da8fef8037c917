import { describe, expect, it } from 'vitest'
import { userCacheDir } from './user-cache-dir.ts'

describe('userCacheDir', () => {
  it('is $XDG_CACHE_HOME/dsh-lens when it is set and absolute, else ~/.cache/dsh-lens', () => {
    expect(userCacheDir({ XDG_CACHE_HOME: '/var/cache/u', HOME: '/home/u' })).toBe('/var/cache/u/dsh-lens')
    expect(userCacheDir({ HOME: '/home/u' })).toBe('/home/u/.cache/dsh-lens')
    // The XDG rule: a blank or relative value is ignored.
    expect(userCacheDir({ XDG_CACHE_HOME: '  ', HOME: '/home/u' })).toBe('/home/u/.cache/dsh-lens')
    expect(userCacheDir({ XDG_CACHE_HOME: 'cache', HOME: '/home/u' })).toBe('/home/u/.cache/dsh-lens')
  })
})
