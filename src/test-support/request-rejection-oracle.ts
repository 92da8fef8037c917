/**
 * A second, plain reading of the provider rules, for tests: turn the harness's messages into the DeepSeek wire
 * messages (`{role:'assistant', tool_calls}`, `{role:'tool', tool_call_id}`, `{role:'user'}` as the adapter's
 * `serializeMessages` builds them), then check each rule on that list the way an API validator reads it: look back
 * from a `tool` message over the other `tool` messages to the message that must hold its call, look forward from
 * an `assistant` message over the `tool` messages that must answer it. It shares no code with the core's checker
 * (which folds the rules into one forward pass over shapes), and judges text with `String#isWellFormed`.
 */

export interface OracleRejection {
  readonly code: string
  readonly index: number
  readonly seq: number
}

type Wire =
  | { role: 'assistant'; ids: unknown[]; from: number }
  | { role: 'tool'; id: unknown; from: number }
  | { role: 'user' | 'system'; from: number }

const isRecord = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null

function blocks(message: unknown): Record<string, unknown>[] {
  const content = isRecord(message) ? message['content'] : undefined
  return Array.isArray(content) ? content.filter(isRecord) : []
}

function toWire(messages: readonly { message: unknown }[]): Wire[] {
  const wire: Wire[] = []
  messages.forEach(({ message }, from) => {
    const role = isRecord(message) ? message['role'] : undefined
    if (role === 'system') wire.push({ role: 'system', from })
    else if (role === 'assistant')
      wire.push({
        role: 'assistant',
        ids: blocks(message)
          .filter((b) => b['type'] === 'tool-call')
          .map((b) => b['id']),
        from,
      })
    else {
      const results = blocks(message).filter((b) => b['type'] === 'tool-result')
      const text = blocks(message)
        .filter((b) => b['type'] === 'text')
        .map((b) => (typeof b['text'] === 'string' ? b['text'] : ''))
        .join('')
      if (text.length > 0 || results.length === 0) wire.push({ role: 'user', from })
      for (const r of results) wire.push({ role: 'tool', id: r['toolCallId'], from })
    }
  })
  return wire
}

const goodId = (id: unknown): id is string => typeof id === 'string' && id !== ''

function illFormed(value: unknown): boolean {
  // ES2024's String#isWellFormed (Node 20 has it; the project's lib is ES2023).
  if (typeof value === 'string') return !(value as string & { isWellFormed(): boolean }).isWellFormed()
  if (Array.isArray(value)) return value.some(illFormed)
  if (isRecord(value)) return Object.values(value).some(illFormed)
  return false
}

/** Every rule the request `messages` breaks, one entry per broken instance, sorted by message index then code. */
export function oracleRejections(messages: readonly { seq: number; message: unknown }[]): OracleRejection[] {
  const out: OracleRejection[] = []
  const at = (code: string, from: number) => out.push({ code, index: from, seq: (messages[from] as { seq: number }).seq })
  const wire = toWire(messages)
  const seen = new Set<string>()
  wire.forEach((w, k) => {
    if (w.role === 'tool') {
      let j = k - 1
      while (j >= 0 && wire[j]?.role === 'tool') j--
      const head = wire[j]
      const ok = head?.role === 'assistant' && goodId(w.id) && head.ids.includes(w.id)
      if (!ok) at('orphan-tool-result', w.from)
    } else if (w.role === 'assistant') {
      const answered = new Set<unknown>()
      for (let j = k + 1; j < wire.length && wire[j]?.role === 'tool'; j++) answered.add((wire[j] as { id: unknown }).id)
      const missing = new Set(w.ids.filter((id) => goodId(id) && !answered.has(id)))
      for (let n = 0; n < missing.size; n++) at('unanswered-tool-call', w.from)
      for (const id of w.ids) {
        if (!goodId(id)) at('tool-call-id-empty', w.from)
        else if (seen.has(id)) at('tool-call-id-duplicate', w.from)
        else seen.add(id)
      }
    }
  })
  messages.forEach(({ message }, index) => {
    if (illFormed(message)) at('lone-surrogate', index)
  })
  const order = ['orphan-tool-result', 'unanswered-tool-call', 'tool-call-id-empty', 'tool-call-id-duplicate', 'lone-surrogate']
  return out.sort((a, b) => a.index - b.index || order.indexOf(a.code) - order.indexOf(b.code))
}
