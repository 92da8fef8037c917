/**
 * The content index's file: owner-only in the cache directory, with our application id and schema version, never
 * under the dsh home, and rebuilt with one line when it is damaged, another program's or an older schema's.
 */

import { chmodSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import Database from 'better-sqlite3'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { ContentHome, findAll } from '../../test-support/content-home.ts'
import { ContentIndex } from './content-index.ts'

let home: ContentHome

beforeEach(() => {
  home = new ContentHome()
})

afterEach(() => home.remove())

describe('the index file', () => {
  it('is owner-only, in the cache directory, with our application id and schema version', async () => {
    home.twoSessions()
    const index = await home.openIndex()
    await index.refresh()
    expect(index.path.startsWith(join(home.cacheDir, 'content-index'))).toBe(true)
    expect(statSync(join(home.cacheDir, 'content-index')).mode & 0o777).toBe(0o700)
    expect(statSync(index.path).mode & 0o777).toBe(0o600)
    expect(statSync(`${index.path}-wal`).mode & 0o777).toBe(0o600)
    index.close()
    const db = new Database(index.path, { readonly: true })
    expect([db.pragma('application_id', { simple: true }), db.pragma('user_version', { simple: true })]).toStrictEqual([
      0x44534c49, 2,
    ])
    db.close()
  })

  it('is never written under the dsh home', async () => {
    await expect(ContentIndex.open({ root: home.root, cacheDir: join(home.dir, 'home', 'cache') })).rejects.toThrow(
      /under the dsh home/,
    )
  })

  for (const [what, damage] of [
    ['damaged', (path: string) => writeFileSync(path, Buffer.alloc(8192, 0x5a))],
    ['another program’s', (path: string) => writeOther(path, 0x12345678, 1)],
    ['an older schema’s', (path: string) => writeOther(path, 0x44534c49, 0)],
  ] as const) {
    it(`is rebuilt with one line when it is ${what}`, async () => {
      home.twoSessions()
      let index = await home.openIndex()
      await index.refresh()
      const path = index.path
      index.close()
      for (const suffix of ['-wal', '-shm']) rmSync(path + suffix, { force: true })
      damage(path)
      index = await home.openIndex()
      expect(home.notices).toHaveLength(1)
      expect(home.notices[0]).toMatch(new RegExp(`^the content index at ${path} was rebuilt: it `))
      await index.refresh()
      expect(findAll(index, { query: 'PLANTUSER' })).toHaveLength(2)
      index.close()
    })
  }

  it('is rebuilt when a damaged page shows only while it is read', async () => {
    home.twoSessions()
    let index = await home.openIndex()
    await index.refresh()
    const path = index.path
    index.close()
    const db = new Database(path)
    db.pragma('wal_checkpoint(TRUNCATE)')
    db.close()
    // Keep the header page (application id and version intact), ruin the rest.
    const bytes = readFileSync(path)
    bytes.fill(0xa5, 4096)
    writeFileSync(path, bytes)
    chmodSync(path, 0o600)
    index = await home.openIndex()
    expect(home.notices).toStrictEqual([])
    const report = await index.refresh()
    expect(report.upToDate).toBe(true)
    expect(home.notices).toHaveLength(1)
    expect(home.notices[0]).toMatch(/was rebuilt: it is damaged/)
    expect(findAll(index, { query: 'PLANTUSER' })).toHaveLength(2)
    index.close()
  })
})

function writeOther(path: string, applicationId: number, version: number): void {
  rmSync(path, { force: true })
  const db = new Database(path)
  db.exec('CREATE TABLE notes (body TEXT)')
  db.pragma(`application_id = ${applicationId}`)
  db.pragma(`user_version = ${version}`)
  db.close()
}
