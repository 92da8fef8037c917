/** Our copy of the harness's event vocabulary must equal the published package's, so it cannot drift silently. */

import { readFileSync } from 'node:fs'
import { createRequire } from 'node:module'
import { dirname, join } from 'node:path'
import { expect, it } from 'vitest'
import { KNOWN_SESSION_EVENT_TYPES } from './known-event-types.ts'

it('equals KNOWN_SESSION_EVENT_TYPES of @deepseek-ai/dsh-session', () => {
  // Read as text, not imported: only the ./surface subpath is a supported import.
  const surface = createRequire(import.meta.url).resolve('@deepseek-ai/dsh-session/surface')
  const source = readFileSync(join(dirname(surface), 'known-event-types.js'), 'utf8')
  const published = [...(source.match(/new Set\(\[([\s\S]*?)\]\)/)?.[1] ?? '').matchAll(/'([^']+)'/g)].map((m) => m[1])
  expect(published.length).toBeGreaterThan(40)
  expect([...KNOWN_SESSION_EVENT_TYPES].sort()).toStrictEqual(published.sort())
})
