/**
 * A copy of a log with one event removed and every later seq renumbered (seqs, `sourceEventSeqs`, `surfaceOp`
 * ranges), so the harness still reads it: the way to break a real fixture's tool pairing without tripping the
 * reader's seq checks. Works on plain JSONL text (header line first, one record per line; a packed row's `seq0`
 * moves like a seq). The removed event must not be a replacement's range end (nothing checks that here).
 */

type Json = Record<string, unknown>

const shift = (seq: unknown, removed: number): unknown => (typeof seq === 'number' && seq > removed ? seq - 1 : seq)

/** The JSONL `text` without the event whose seq is `removed`, later seqs and references moved down by one. */
export function dropEvent(text: string, removed: number): string {
  const lines = text.split('\n').filter((line) => line.length > 0)
  const out: string[] = [lines[0] as string]
  for (const line of lines.slice(1)) {
    const event = JSON.parse(line) as Json
    if (event['seq'] === removed) continue
    if ('seq' in event) event['seq'] = shift(event['seq'], removed)
    if ('seq0' in event) event['seq0'] = shift(event['seq0'], removed)
    const sources = event['sourceEventSeqs']
    if (Array.isArray(sources))
      event['sourceEventSeqs'] = sources.filter((s) => s !== removed).map((s: unknown) => shift(s, removed))
    const op = event['surfaceOp']
    if (typeof op === 'object' && op !== null) {
      const range = op as Json
      event['surfaceOp'] = { ...range, start: shift(range['start'], removed), end: shift(range['end'], removed) }
    }
    out.push(JSON.stringify(event))
  }
  return out.join('\n') + '\n'
}

/** The seq of the first `tool/result` event of a JSONL log that answers a call (a candidate for `dropEvent`). */
export function firstToolResultSeq(text: string): number | undefined {
  for (const line of text.split('\n').slice(1)) {
    if (!line.includes('"tool/result"')) continue
    const event = JSON.parse(line) as Json
    if (event['type'] === 'tool/result' && event['surfaceOp'] === 'append' && typeof event['seq'] === 'number')
      return event['seq']
  }
  return undefined
}
