/** Pure: which cursor move a key press on the timeline means (the `timeline` rows of the shortcuts table). */

import type { MarkKind } from '../../../store/slices/cursor-slice.ts'
import { shortcutFor, type KeyPress, type ShortcutAction } from '../../shared/shortcuts.ts'

export type ScrubAction =
  | { readonly kind: 'step'; readonly delta: number }
  | { readonly kind: 'jump'; readonly mark: MarkKind; readonly direction: -1 | 1 }
  | { readonly kind: 'home' }
  | { readonly kind: 'end' }
  /** Play or pause the replay. */
  | { readonly kind: 'play' }

const MOVES: Record<ShortcutAction<'timeline'>, ScrubAction> = {
  'previous-event': { kind: 'step', delta: -1 },
  'next-event': { kind: 'step', delta: 1 },
  'previous-surface': { kind: 'jump', mark: 'surface', direction: -1 },
  'next-surface': { kind: 'jump', mark: 'surface', direction: 1 },
  'previous-replace': { kind: 'jump', mark: 'replace', direction: -1 },
  'next-replace': { kind: 'jump', mark: 'replace', direction: 1 },
  'previous-turn': { kind: 'jump', mark: 'turn', direction: -1 },
  'next-turn': { kind: 'jump', mark: 'turn', direction: 1 },
  first: { kind: 'home' },
  last: { kind: 'end' },
  play: { kind: 'play' },
}

export function scrubActionFor(press: KeyPress): ScrubAction | null {
  const action = shortcutFor('timeline', press)
  return action === null ? null : MOVES[action]
}
