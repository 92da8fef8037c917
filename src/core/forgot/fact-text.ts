/**
 * How "forgot" decides whether a fact is carried by a text: case-insensitive, whitespace-normalised substring
 * search. A heuristic, said as one ("not mentioned in the summary"): a summary can paraphrase a fact (then it is
 * listed though the model may still know it) or name it in passing (then it is not).
 */

import type { NeedleIndex } from './needle-index.ts'

/** Lower case, every run of whitespace one space, trimmed. */
export function normalizeFact(text: string): string {
  return text.toLowerCase().replace(/\s+/gu, ' ').trim()
}

/** The last segment of a path (after `/` or `\`), without a trailing separator; '' for a bare root. */
export function fileNameOf(path: string): string {
  const trimmed = path.replace(/[/\\]+$/u, '')
  const cut = Math.max(trimmed.lastIndexOf('/'), trimmed.lastIndexOf('\\'))
  return trimmed.slice(cut + 1)
}

/** Every string value in a JSON value, depth first, joined by newlines (a message's texts, call arguments, ids). */
export function stringsOf(value: unknown): string {
  const out: string[] = []
  const stack: unknown[] = [value]
  while (stack.length > 0) {
    const v = stack.pop()
    if (typeof v === 'string') out.push(v)
    else if (Array.isArray(v)) for (let i = v.length - 1; i >= 0; i--) stack.push(v[i])
    else if (typeof v === 'object' && v !== null) {
      const values = Object.values(v)
      for (let i = values.length - 1; i >= 0; i--) stack.push(values[i])
    }
  }
  return out.join('\n')
}

/** A normalised text that facts are looked up in. */
export class FactText {
  private readonly text: string

  constructor(...parts: string[]) {
    this.text = normalizeFact(parts.join('\n'))
  }

  /** Whether `fact` (normalised the same way) occurs in the text; an empty fact never does. */
  mentions(fact: string): boolean {
    const needle = normalizeFact(fact)
    return needle !== '' && this.text.includes(needle)
  }

  /** Which of `needles` (normalised as `normalizeFact` does) occur in the text: `mentions` for many at once. */
  occurring(needles: NeedleIndex): Uint8Array {
    const seen = new Uint8Array(needles.size)
    needles.markOccurring(this.text, seen)
    return seen
  }

  /** A path counts as mentioned by its full text or by its file name. */
  mentionsPath(path: string): boolean {
    return this.mentions(path) || this.mentions(fileNameOf(path))
  }
}
