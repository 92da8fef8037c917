/**
 * `--redact-paths`: home directories and the user names they name. A user name is read from the log itself: the
 * header's `cwd` and every `/home/<name>`, `/Users/<name>` or `C:\Users\<name>` in its text. Then, everywhere:
 * the home directory becomes `~` (`/home/alice/proj/a.ts` → `~/proj/a.ts`), and `<name>@` (a shell prompt, an ssh
 * target) becomes `user@`. The same text always becomes the same text, so every equality the fold checks holds.
 * A name elsewhere in prose is left: a user name can be a common word, and `~` already hides it in every path.
 */

import type { LensLog } from '../log/lens-log.ts'

export interface PathRule {
  /** Literal texts whose presence means the rule may apply (a record without them is not touched). */
  readonly needles: readonly string[]
  apply(text: string): string
  count(text: string): number
}

const NAME = '[A-Za-z0-9_][A-Za-z0-9_.-]{0,63}'
// `\\` repeated: the separator as written at any depth of JSON.
const FINDERS = [new RegExp(`/(?:home|Users)/(${NAME})`, 'g'), new RegExp(`[A-Za-z]:(?:\\\\)+Users(?:\\\\)+(${NAME})`, 'g')]
/** Names that are accounts of a machine, not of a person, and common words: never replaced. */
const NOT_A_PERSON = new Set(['root', 'user', 'users', 'admin', 'runner', 'node', 'shared', 'public', 'default', 'guest'])

function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')
}

/** The user names a log's text names in home paths. */
export function homeUserNames(log: LensLog): string[] {
  const names = new Set<string>()
  const look = (text: string): void => {
    for (const re of FINDERS) {
      re.lastIndex = 0
      for (const m of text.matchAll(re)) if (!NOT_A_PERSON.has((m[1] as string).toLowerCase())) names.add(m[1] as string)
    }
  }
  if (typeof log.header?.cwd === 'string') look(log.header.cwd)
  const texts = log.recordTexts
  for (let r = 0, block = -1; r < texts.length; r++) {
    if (texts.blockOf(r) === block) continue
    block = texts.blockOf(r)
    look(texts.blockText(block))
  }
  return [...names].sort((a, b) => b.length - a.length)
}

export function homePathRules(log: LensLog): PathRule[] {
  return homeUserNames(log).map((name): PathRule => {
    const n = escapeRegExp(name)
    const home = new RegExp(`(/(?:home|Users)/|[A-Za-z]:(?:\\\\)+Users(?:\\\\)+)${n}(?![A-Za-z0-9_.-])`, 'g')
    const at = new RegExp(`(?<![A-Za-z0-9_.-])${n}@`, 'g')
    return {
      needles: [`/${name}`, `\\${name}`, `${name}@`],
      apply: (text) => text.replace(home, '$1user').replace(at, 'user@'),
      count: (text) => (text.match(home)?.length ?? 0) + (text.match(at)?.length ?? 0),
    }
  })
}
