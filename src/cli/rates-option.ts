/**
 * The rate card a command prices with: the built-in card, with the rates file of `--rates FILE` (else of
 * `DSH_LENS_RATES`) applied as the file's `mode` says (`extend`, the default, or `replace`). A file that cannot be read
 * or is malformed stops the command with one sentence naming the line and the field (exit 2).
 */

import { readFileSync } from 'node:fs'
import { applyRatesFile, builtInRateCard, parseRateCard, RateCardError, type RateCard } from '../core/index.ts'
import { UnreadableLogError } from './read-log-error.ts'

/** `--rates FILE` out of `args` (the rest kept), or a usage problem in words. */
export function takeRatesFlag(args: readonly string[]): { rest: string[]; rates: string | undefined } | string {
  const at = args.indexOf('--rates')
  if (at === -1) return { rest: [...args], rates: undefined }
  const file = args[at + 1]
  if (file === undefined || file.startsWith('--')) return '--rates takes a FILE'
  return { rest: args.filter((_, i) => i !== at && i !== at + 1), rates: file }
}

export function loadRateCard(ratesFile: string | undefined, env: NodeJS.ProcessEnv = process.env): RateCard {
  const fromEnv = env['DSH_LENS_RATES']
  const path = ratesFile ?? (fromEnv !== undefined && fromEnv.trim() !== '' ? fromEnv : undefined)
  const card = builtInRateCard()
  if (path === undefined) return card
  let text: string
  try {
    text = readFileSync(path, 'utf8')
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code
    const reason = code === 'ENOENT' ? 'no such file' : code === 'EISDIR' ? 'it is a directory' : String(error)
    throw new UnreadableLogError(
      `cannot read the rates file ${path}${ratesFile === undefined ? ' (DSH_LENS_RATES)' : ''}: ${reason}`,
    )
  }
  try {
    const { card: file, mode } = parseRateCard(text, path, card)
    return applyRatesFile(card, file, mode, path)
  } catch (error) {
    if (error instanceof RateCardError) throw new UnreadableLogError(error.message)
    throw error
  }
}

/** `--currency CNY|USD` out of `args` (default CNY), or a usage problem in words. */
export function takeCurrencyFlag(args: readonly string[]): { rest: string[]; currency: 'CNY' | 'USD' } | string {
  const at = args.indexOf('--currency')
  if (at === -1) return { rest: [...args], currency: 'CNY' }
  const value = args[at + 1]?.toUpperCase()
  if (value !== 'CNY' && value !== 'USD') return '--currency takes CNY or USD'
  return { rest: args.filter((_, i) => i !== at && i !== at + 1), currency: value }
}
