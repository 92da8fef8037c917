/**
 * A valid log whose every string field is hostile: markup that would run script if it ever reached the DOM as HTML
 * (`<script>`, `<img onerror>`, SVG `onload`, `javascript:`/`data:` links, `<style>` and CSS that loads a URL, markdown
 * link and image tricks, `{{template}}` expressions), bidi overrides and zero-width characters. Every payload that
 * would execute sets `window.__pwned`, every one that would load something points at `evil.invalid`, so a test can
 * tell from outside whether anything got through. Each field's text starts with its own label (`user:`, `tool-name:`,
 * ...), so the test can find it literally in each pane.
 */

type Event = Record<string, unknown>

/** Bidi overrides/isolates and invisible characters, as code review tools flag them. */
export const INVISIBLES = '\u202e\u2066\u2067\u2068\u2069\u202a\u202b\u202c\u202d\u200b\u200c\u200d\u2060\ufeff\u00ad'

/** The markup part of every payload: what must show as literal text and never become an element or attribute. */
export function markup(label: string): string {
  return [
    `<script>window.__pwned='${label}-script'</script>`,
    `<img src=x onerror="window.__pwned='${label}-img'">`,
    `<svg onload="window.__pwned='${label}-svg'"><animate onbegin="window.__pwned='${label}-anim'" attributeName="x" dur="1s"/></svg>`,
    `<iframe src="javascript:window.__pwned='${label}-iframe'"></iframe>`,
    `<a href="javascript:window.__pwned='${label}-a'">js-link</a>`,
    `<a href="data:text/html,<script>window.__pwned='${label}-data'</script>">data-link</a>`,
    `<style>body{background:url(https://evil.invalid/${label}.css)}</style>`,
    `<b id="pwned" class="pwned" style="background:url(//evil.invalid/${label}-style)">bold</b>`,
    `[md-link](javascript:window.__pwned='${label}-md') ![md-img](https://evil.invalid/${label}.png)`,
    `{{constructor.constructor('window.__pwned="${label}-tpl"')()}} \${window.__pwned='${label}-tl'}`,
    `<object data="https://evil.invalid/${label}.swf"></object><base href="https://evil.invalid/">`,
  ].join(' ')
}

/** A field's text: its label, then `middle`, a bidi-reversed file name and invisible characters. */
export type TextFor = (label: string) => string

/** The hostile text of a field: its label, the markup, a bidi-reversed file name and invisible characters. */
export const hostile: TextFor = (label) => `${label}: ${markup(label)} \u202egnp.exe\u202c ${INVISIBLES} end-${label}`
/** The same shape without markup (the baseline run: which elements the app itself renders for such a log). */
export const benign: TextFor = (label) => `${label}: plain words \u202egnp.exe\u202c ${INVISIBLES} end-${label}`

/**
 * A shorter hostile text (under 512 characters): the live protocol caps a `sessionId` at 512, so a session id this
 * long is the most the stream can subscribe by (a longer one is refused as a bad request).
 */
export function shortText(text: TextFor, label: string): string {
  if (text !== hostile) return `${label}: plain words \u202e\u200b end`
  const m = markup(label).split('> <')
  return `${label}: ${m.slice(0, 3).join('> <')}> \u202egnp.exe\u202c\u200b\u2066 end`
}

/** What a test looks for literally in the page for one field: ASCII only (bidi/invisible markers may wrap the rest). */
export function literalProbe(text: TextFor, label: string): string {
  return text === hostile ? `<script>window.__pwned='${label}-script'</script>` : `${label}: plain words`
}

/** A file name with markup (no `/`, so it is a legal name on disk too). */
export function fileName(text: TextFor, label: string): string {
  const middle = text === hostile ? `"><img src=x onerror="window.__pwned='${label}'">` : 'plain name'
  return `${label} ${middle}\u202egnp.\u202c session.jsonl`
}

/**
 * Every event type the panes show something for, each string field from `text`: header (id, cwd, preset), user,
 * assistant text, reasoning, tool call name and arguments, tool result, title, a compaction (id, summary, model),
 * an unknown event type and a line that is not JSON. `parent` makes it a subagent child with a descriptor label.
 */
export function sessionLog(text: TextFor, options: { id?: string; parent?: string } = {}): string {
  const hostile = text
  const events: Event[] = []
  const add = (type: string, data: unknown, extra: Event = {}): number => {
    const seq = events.length
    events.push({ type, seq, time: 1_000 + seq, data, ...extra })
    return seq
  }
  const header = {
    type: 'session',
    version: 0,
    id: options.id ?? hostile('session-id'),
    createdAt: 0,
    cwd: `/tmp/${hostile('cwd').replaceAll('/', '∕')}`,
    ...(options.parent === undefined ? {} : { parentSession: options.parent, origin: 'subagent' }),
    delegationDepth: options.parent === undefined ? 0 : 1,
    agentPreset: hostile('preset'),
  }
  const model = { kind: 'model', provider: hostile('provider'), model: hostile('model') }
  const toolName = hostile('tool-name')
  const args = JSON.stringify({ command: hostile('tool-args'), [hostile('arg-key')]: hostile('arg-value') })

  if (options.parent !== undefined) {
    add('subagent/descriptor', { version: 2, mode: 'one-shot', label: hostile('child-label') })
  }
  add('turn/start', { turn: 1 })
  const u1 = add(
    'user/message',
    { id: hostile('user-id'), role: 'user', content: [{ type: 'text', text: hostile('user') }], source: { kind: 'user' } },
    { surfaceOp: 'append' },
  )
  add('step/start', { turn: 1, step: 1 })
  const a1 = add(
    'assistant/message',
    {
      turn: 1,
      step: 1,
      message: {
        id: hostile('assistant-id'),
        role: 'assistant',
        content: [
          { type: 'reasoning', text: hostile('reasoning') },
          { type: 'text', text: hostile('assistant') },
          { type: 'tool-call', id: 'call-1', name: toolName, arguments: args },
        ],
        source: model,
      },
    },
    { surfaceOp: 'append' },
  )
  add('tool/call', { turn: 1, step: 1, callId: 'call-1', name: toolName, arguments: args })
  const t1 = add(
    'tool/result',
    {
      turn: 1,
      step: 1,
      message: {
        id: hostile('tool-result-id'),
        role: 'user',
        content: [
          { type: 'tool-result', toolCallId: 'call-1', toolName, content: [{ type: 'text', text: hostile('tool-result') }] },
        ],
        source: { kind: 'tool', callId: 'call-1' },
      },
    },
    { surfaceOp: 'append', sourceEventSeqs: [a1] },
  )
  add('step/end', { turn: 1, step: 1 })
  add('session/title', { title: hostile('title'), messageSeqs: [u1], source: { kind: 'fallback' } })
  add('turn/end', { turn: 1, reason: { kind: 'completed' } })
  add('turn/start', { turn: 2 })
  // A compaction of the first turn: the replace graph gets a node whose summary and id are hostile.
  const compactionId = hostile('compaction-id')
  const start = add('compaction/start', { compactionId, turn: 2 })
  const summary = add('compaction/summary', {
    compactionId,
    summary: [{ type: 'text', text: hostile('summary') }],
    shadowedRange: { start: u1, end: t1 },
    shadowedSeqs: [u1, a1, t1],
    shadowedTokenCount: 300,
    provider: hostile('summary-provider'),
    model: hostile('summary-model'),
  })
  add(
    'user/message',
    {
      id: hostile('checkpoint-id'),
      role: 'user',
      content: [{ type: 'text', text: hostile('checkpoint') }],
      source: { kind: 'plugin', plugin: 'compact', compactionId },
    },
    { surfaceOp: { op: 'replace', start: u1, end: t1 }, sourceEventSeqs: [start, summary, u1, a1, t1] },
  )
  add('compaction/end', { compactionId, turn: 2 })
  add(
    'user/message',
    { id: 'u-after', role: 'user', content: [{ type: 'text', text: hostile('user-2') }], source: { kind: 'user' } },
    { surfaceOp: 'append' },
  )
  // An event type nobody knows, with hostile fields, and a turn left open: both are shown, neither crashes.
  add(hostile('event-type'), { [hostile('unknown-key')]: hostile('unknown-value') })
  const lines = [header, ...events].map((e) => JSON.stringify(e))
  // A line that is not JSON: the decoder lists it as a defect, with its text in the diagnostics.
  lines.splice(5, 0, `{"type":"user/message", ${hostile('bad-line')}`)
  return lines.join('\n') + '\n'
}
