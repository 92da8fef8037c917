/**
 * Summaries on the wire carry each replacement once. A load's replacements only ever grow (OpenLog appends them
 * and starts over on a new load), yet every summary held all of them: with thousands of replacements that is megabytes
 * of structured clone per summary, and the graph-5k bench lane traced long deserializing plus the garbage of the
 * copies on the main thread for each interim summary while the log opened. So the worker's side sends only the
 * replacements after those of the previous summary of the same load (`replacementsFrom`), and the client's side
 * appends them to the ones it kept. What reaches the store is a whole `LogSummary` as before, and the replacements
 * it already had keep their identity (memoized views of them stay valid).
 */

import type { LensResponse } from './messages.ts'
import type { LogSummary, ReplacementInfo } from './log-summary.ts'

type SummaryMessage = Extract<LensResponse, { type: 'summary' }>

/** Worker side: a summary message -> the same message with only the replacements the client has not had yet. */
export function createSummaryEncoder(): (message: LensResponse) => LensResponse {
  let loadId = -1
  let sent: readonly ReplacementInfo[] = []
  return (message) => {
    if (message.type === 'load-failed') {
      loadId = -1
      sent = []
    }
    if (message.type !== 'summary') return message
    const all = message.summary.replacements
    // Only a strict continuation is trimmed: same load, and every replacement sent before is still in place.
    let continues = message.loadId === loadId && sent.length > 0 && sent.length <= all.length
    for (let k = 0; continues && k < sent.length; k++) continues = sent[k] === all[k]
    const from = continues ? sent.length : 0
    loadId = message.loadId
    sent = all
    if (from === 0) return message
    const out: SummaryMessage = {
      ...message,
      replacementsFrom: from,
      summary: { ...message.summary, replacements: all.slice(from) },
    }
    return out
  }
}

/** Client side: the inverse, so listeners always see every replacement (a message without `replacementsFrom` is whole). */
export function createSummaryDecoder(): (message: LensResponse) => LensResponse {
  let loadId = -1
  let kept: readonly ReplacementInfo[] = []
  return (message) => {
    if (message.type !== 'summary') return message
    const from = message.replacementsFrom
    let replacements = message.summary.replacements
    if (from !== undefined) {
      // Messages from one worker arrive in order, so the kept prefix is exactly the one the worker trimmed.
      if (message.loadId !== loadId || kept.length !== from)
        throw new Error(`summary of load ${message.loadId} continues from replacement ${from}, but ${kept.length} are kept`)
      replacements = kept.concat(replacements)
    }
    loadId = message.loadId
    kept = replacements
    if (from === undefined) return message
    const summary: LogSummary = { ...message.summary, replacements }
    return { v: message.v, type: 'summary', loadId: message.loadId, summary }
  }
}
