/**
 * better-sqlite3, loaded when an index is first opened (never by the commands that need none): a native module, so
 * it can be missing or built for another Node. Then the content index says what to do in one sentence instead of
 * a stack. The CLI bundle keeps it external (src/build/build-cli.ts): Node loads it from node_modules at run time.
 */

import { createRequire } from 'node:module'
import type BetterSqlite3 from 'better-sqlite3'

type DatabaseConstructor = typeof BetterSqlite3

let loaded: DatabaseConstructor | undefined

export class SqliteUnavailableError extends Error {}

export function loadSqlite(): DatabaseConstructor {
  if (loaded !== undefined) return loaded
  try {
    loaded = createRequire(import.meta.url)('better-sqlite3') as DatabaseConstructor
    return loaded
  } catch (error) {
    throw new SqliteUnavailableError(
      `the content index needs the better-sqlite3 module, which did not load (${(error as Error).message.split('\n')[0]}): ` +
        'reinstall dsh-lens, or run `npm rebuild better-sqlite3` where it is installed (it compiles with python3, make and a C++ compiler)',
    )
  }
}
