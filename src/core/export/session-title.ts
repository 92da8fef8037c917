/** A session's title for a bundle's banner: its latest `session/title`, read from the records that name the type. */

import type { LensLog } from '../log/lens-log.ts'

export function sessionTitle(log: LensLog): string | null {
  const texts = log.recordTexts
  let title: string | null = null
  for (let r = 0; r < texts.length; r++) {
    if (texts.isRow(r)) continue
    const text = texts.text(r)
    if (!text.includes('"session/title"')) continue
    let event: { type?: unknown; data?: { title?: unknown } }
    try {
      event = JSON.parse(text) as typeof event
    } catch {
      continue
    }
    if (event.type === 'session/title' && typeof event.data?.title === 'string' && event.data.title.trim() !== '')
      title = event.data.title
  }
  return title
}
