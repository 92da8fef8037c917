/**
 * `dsh-lens PATH` and `dsh-lens SESSION-ID` are `dsh-lens open PATH` and `dsh-lens open SESSION-ID` (docs/cli.md). A
 * first word that is no command is taken as open's target when it names something that exists or has a session id's
 * shape; anything else stays an unknown command (a mistyped `flod` says so instead of looking for a session).
 */

import { existsSync } from 'node:fs'

/** Shortest session-id prefix `open` looks up. */
export const MIN_PREFIX = 8

/** Whether `word` can be a session id or a prefix of one (8+ characters, no path or shell characters). */
export function isSessionIdQuery(word: string): boolean {
  return word.length >= MIN_PREFIX && /^[A-Za-z0-9._~-]+$/.test(word)
}

/** Whether a first word that is no command is `open`'s target. */
export function isOpenShorthand(word: string): boolean {
  return !word.startsWith('-') && (existsSync(word) || isSessionIdQuery(word))
}
