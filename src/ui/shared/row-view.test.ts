import { describe, expect, it } from 'vitest'
import type { EventSummary } from '../../protocol/event-views.ts'
import { replaceRangeText, rowView, shadowedAt } from './row-view.ts'

const base: EventSummary = {
  index: 5,
  seq: 5,
  line: 7,
  type: 'user/message',
  kind: 'message',
  role: 'user',
  text: 'hi',
  reasoning: '',
  toolCalls: [],
  truncated: false,
  upgraded: false,
  packed: false,
  span: 1,
  replace: null,
  surface: { enteredIndex: 5, shadowedBySeq: 17, shadowedAtIndex: 17 },
  derives: true,
  deriveError: null,
}

describe('row views', () => {
  it('marks an entry shadowed only from the cursor where it was shadowed on', () => {
    expect(shadowedAt(base, 16)).toBeNull()
    expect(shadowedAt(base, 17)).toBe(17)
    expect(rowView(base, 40, 1).shadowedBy).toBe(17)
  })

  it('labels replacements with their kind and range', () => {
    const r: EventSummary = {
      ...base,
      kind: 'replacement',
      replace: { start: 5, end: 9, kind: 'prune', shadowedCount: 1 },
      role: 'tool',
    }
    expect(rowView(r, 40, 1).label).toBe('pruned tool result (tool)')
    expect(replaceRangeText(r)).toBe('replaces #5–#9 (1 node)')
  })
})
