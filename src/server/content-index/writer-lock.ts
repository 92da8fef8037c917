/**
 * One writer per index, across processes: the writer holds an open write transaction on a small lock database beside
 * the index for as long as it writes. SQLite's own file locks make that exclusive, and the operating system releases
 * them when the process ends, however it ends: a crashed writer never leaves a stale lock behind. Another process
 * either waits for the lock (`dsh-lens index`) or reads the index as it is and says it may be behind (`find`).
 */

import { chmodSync, closeSync, openSync } from 'node:fs'
import type { Db } from './content-db.ts'
import { loadSqlite } from './sqlite-module.ts'

export class WriterLock {
  private constructor(private readonly db: Db) {}

  /** Takes the lock at `path`, waiting up to `waitMs` (0: only if free now); null when another process holds it. */
  static acquire(path: string, waitMs: number): WriterLock | null {
    try {
      closeSync(openSync(path, 'wx', 0o600))
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error
    }
    chmodSync(path, 0o600)
    const db = loadSqlite()(path)
    db.pragma(`busy_timeout = ${Math.max(0, Math.floor(waitMs))}`)
    try {
      db.exec('BEGIN IMMEDIATE')
      // A write makes the transaction's RESERVED lock real on every SQLite build.
      db.exec('CREATE TABLE IF NOT EXISTS held (pid INTEGER)')
      return new WriterLock(db)
    } catch (error) {
      db.close()
      if ((error as { code?: string }).code === 'SQLITE_BUSY') return null
      throw error
    }
  }

  release(): void {
    if (!this.db.open) return
    try {
      this.db.exec('ROLLBACK')
    } finally {
      this.db.close()
    }
  }
}
