import { describe, expect, it } from 'vitest'
import { deepLink, prefixFileName, withoutToken } from './deep-link.ts'

describe('deepLink', () => {
  it('sets seq and sel, keeps the query and other hash parameters (step)', () => {
    expect(deepLink('http://h/?log=/a.jsonl#step=2.1', 40, 12)).toBe('http://h/?log=/a.jsonl#seq=40&sel=12&step=2.1')
    expect(deepLink('http://h/?log=x#seq=1&sel=2', 7, null)).toBe('http://h/?log=x#seq=7')
    expect(deepLink('http://h/', null, null)).toBe('http://h/')
  })
  it('drops a live token, names a prefix file after its source', () => {
    expect(withoutToken('http://h/?ws=ws://h/s&token=abc&session=s1')).toBe('http://h/?ws=ws%3A%2F%2Fh%2Fs&session=s1')
    expect(withoutToken('http://h/?log=/a/b.jsonl#seq=1')).toBe('http://h/?log=/a/b.jsonl#seq=1')
    expect(prefixFileName('dir/session.jsonl.zstd', 41)).toBe('session.to-seq-41.session.jsonl')
    expect(prefixFileName('my log.jsonl', 0)).toBe('my_log.to-seq-0.session.jsonl')
  })
})
