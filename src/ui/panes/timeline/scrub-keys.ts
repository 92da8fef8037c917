/** Pure: which cursor move a key press on the timeline means. */

import type { MarkKind } from '../../../store/slices/cursor-slice.ts'

export type ScrubAction =
  | { readonly kind: 'step'; readonly delta: number }
  | { readonly kind: 'jump'; readonly mark: MarkKind; readonly direction: -1 | 1 }
  | { readonly kind: 'home' }
  | { readonly kind: 'end' }
  /** Play or pause the replay. */
  | { readonly kind: 'play' }

/**
 * ←/→ one event, shift+←/→ previous/next surface change, [ / ] previous/next replace, PageUp/PageDown by turn,
 * Home/End, Space plays or pauses the replay.
 */
export function scrubActionFor(key: string, shift: boolean): ScrubAction | null {
  switch (key) {
    case 'ArrowLeft':
      return shift ? { kind: 'jump', mark: 'surface', direction: -1 } : { kind: 'step', delta: -1 }
    case 'ArrowRight':
      return shift ? { kind: 'jump', mark: 'surface', direction: 1 } : { kind: 'step', delta: 1 }
    case '[':
      return { kind: 'jump', mark: 'replace', direction: -1 }
    case ']':
      return { kind: 'jump', mark: 'replace', direction: 1 }
    case 'PageUp':
      return { kind: 'jump', mark: 'turn', direction: -1 }
    case 'PageDown':
      return { kind: 'jump', mark: 'turn', direction: 1 }
    case 'Home':
      return { kind: 'home' }
    case 'End':
      return { kind: 'end' }
    case ' ':
      return shift ? null : { kind: 'play' }
    default:
      return null
  }
}
