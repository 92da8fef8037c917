/**
 * What may be shown of a secret: its format's public marker (`ghp_`, `sk-ant-api03-`, `-----BEGIN RSA PRIVATE
 * KEY-----` up to `BEGIN`), two more characters when the secret is long enough that two say nothing, and its
 * length. Never the rest: no output of dsh-lens (CLI, page, error) carries a secret whole.
 */

import { SECRET_RULES, type SecretKind } from './detectors.ts'

const PUBLIC_PREFIX = new Map(SECRET_RULES.map((rule) => [rule.kind, rule.publicPrefix]))
/** Characters past the public marker shown, and the length below which none are. */
const SHOWN = 2
const SHOWN_FROM_LENGTH = 20

export function maskSecret(value: string, kind: SecretKind): string {
  const prefix = Math.min(PUBLIC_PREFIX.get(kind) ?? 0, Math.floor(value.length / 2))
  const shown = value.length - prefix >= SHOWN_FROM_LENGTH ? prefix + SHOWN : prefix
  return `${value.slice(0, shown).replace(/[\r\n\t]/g, ' ')}… (${value.length} chars)`
}

/** Characters of context kept on each side of a secret. */
export const CONTEXT_CHARS = 40

/**
 * One line of text around `target` with every secret in the window masked: what a review step shows of where a
 * secret stands (`export GITHUB_TOKEN=ghp_Ab… (40 chars) && git push`). `spans` are all secrets of `text`.
 */
export function maskedContext(
  text: string,
  spans: readonly { readonly start: number; readonly end: number; readonly masked: string }[],
  target: { readonly start: number; readonly end: number },
): string {
  const from = Math.max(0, target.start - CONTEXT_CHARS)
  const to = Math.min(text.length, target.end + CONTEXT_CHARS)
  let out = from > 0 ? '…' : ''
  let at = from
  for (const span of spans) {
    if (span.end <= from || span.start >= to) continue
    // A secret cut by the window's edge is masked whole: the window ends where it starts.
    out += text.slice(at, Math.max(at, span.start))
    out += span.masked
    at = Math.max(at, span.end)
  }
  if (at < to) out += text.slice(at, to)
  if (to < text.length) out += '…'
  return out.replace(/[\r\n\t]/g, ' ')
}
