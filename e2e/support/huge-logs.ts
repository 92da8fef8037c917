/**
 * Generated logs for the inspector's worst cases: megabyte values (a tool result, an assistant message, a line
 * that is not JSON) and text with bidirectional and invisible characters.
 */

const HEADER = { type: 'session', version: 0, id: 'e2e-huge', createdAt: 0, cwd: '/tmp/e2e', delegationDepth: 0 }
const MODEL = { kind: 'model', provider: 'p', model: 'm' }

/** `chars` characters of varied text (numbered lines, so a wrong piece order shows), some outside the BMP. */
export function bigText(chars: number, label: string): string {
  const parts: string[] = []
  let length = 0
  for (let i = 0; length < chars; i++) {
    const line = `${label} line ${i} ${i % 97 === 0 ? '😀 ' : ''}lorem ipsum dolor sit amet\n`
    parts.push(line)
    length += line.length
  }
  return parts.join('').slice(0, chars)
}

function lines(events: unknown[]): string {
  return events.map((e) => (typeof e === 'string' ? e : JSON.stringify(e))).join('\n') + '\n'
}

/**
 * A short turn whose tool result and answer are each `size` characters, then a line of `size` characters that
 * is not JSON, then one more user message. Seqs: 5 the tool result, 8 the answer, 12 the last.
 */
export function hugeContentLog(size: number): { jsonl: string; toolResultSeq: number; answerSeq: number; badLine: number } {
  const call = { type: 'tool-call', id: 'c1', name: 'bash', arguments: '{"command":"cat big.log"}' }
  const toolMessage = {
    id: 't-c1',
    role: 'user',
    content: [{ type: 'tool-result', toolCallId: 'c1', content: [{ type: 'text', text: bigText(size, 'tool') }] }],
    source: { kind: 'tool', callId: 'c1' },
  }
  const answer = { id: 'a5', role: 'assistant', content: [{ type: 'text', text: bigText(size, 'answer') }], source: MODEL }
  const events: unknown[] = [
    HEADER,
    { type: 'turn/start', seq: 0, time: 1, data: { turn: 1 } },
    {
      type: 'user/message',
      seq: 1,
      time: 2,
      data: { id: 'u1', role: 'user', content: [{ type: 'text', text: 'Show me the log.' }], source: { kind: 'user' } },
      surfaceOp: 'append',
    },
    { type: 'step/start', seq: 2, time: 3, data: { turn: 1, step: 1 } },
    {
      type: 'assistant/message',
      seq: 3,
      time: 4,
      data: { turn: 1, step: 1, message: { id: 'a3', role: 'assistant', content: [call], source: MODEL } },
      surfaceOp: 'append',
    },
    { type: 'tool/call', seq: 4, time: 5, data: { turn: 1, step: 1, callId: 'c1', name: 'bash', arguments: call.arguments } },
    {
      type: 'tool/result',
      seq: 5,
      time: 6,
      data: { turn: 1, step: 1, message: toolMessage },
      surfaceOp: 'append',
      sourceEventSeqs: [3],
    },
    { type: 'step/end', seq: 6, time: 7, data: { turn: 1, step: 1 } },
    { type: 'step/start', seq: 7, time: 8, data: { turn: 1, step: 2 } },
    { type: 'assistant/message', seq: 8, time: 9, data: { turn: 1, step: 2, message: answer }, surfaceOp: 'append' },
    { type: 'step/end', seq: 9, time: 10, data: { turn: 1, step: 2 } },
    { type: 'turn/end', seq: 10, time: 11, data: { turn: 1, reason: { kind: 'completed' } } },
    'not json at all '.repeat(Math.ceil(size / 16)).slice(0, size),
    { type: 'turn/start', seq: 11, time: 12, data: { turn: 2 } },
    {
      type: 'user/message',
      seq: 12,
      time: 13,
      data: { id: 'u12', role: 'user', content: [{ type: 'text', text: 'Thanks.' }], source: { kind: 'user' } },
      surfaceOp: 'append',
    },
  ]
  // Line numbers count the header as line 1: the bad line is the 13th.
  return { jsonl: lines(events), toolResultSeq: 5, answerSeq: 8, badLine: 13 }
}

/** The "Trojan Source" tricks in a user message (seq 1), an assistant's text and tool call (seq 3), an event type (6). */
export const RTL_TRICK = 'abc\u202Eevil\u202C'
export function hiddenCharsLog(): string {
  return lines([
    HEADER,
    { type: 'turn/start', seq: 0, time: 1, data: { turn: 1 } },
    {
      type: 'user/message',
      seq: 1,
      time: 2,
      data: {
        id: 'u1',
        role: 'user',
        content: [{ type: 'text', text: `${RTL_TRICK} admin\u200B = true; if (isAdmin\u2067) {\u2069 return }\u00AD\uFEFF` }],
        source: { kind: 'user' },
      },
      surfaceOp: 'append',
    },
    { type: 'step/start', seq: 2, time: 3, data: { turn: 1, step: 1 } },
    {
      type: 'assistant/message',
      seq: 3,
      time: 4,
      data: {
        turn: 1,
        step: 1,
        message: {
          id: 'a2',
          role: 'assistant',
          content: [
            { type: 'text', text: 'Access level: user\u202E\u2066 // check later\u2069\u2066' },
            { type: 'tool-call', id: 'c1', name: 'ba\u200Dsh', arguments: '{"command":"ls \u202Etxt.exe"}' },
          ],
          source: MODEL,
        },
      },
      surfaceOp: 'append',
    },
    { type: 'step/end', seq: 4, time: 5, data: { turn: 1, step: 1 } },
    { type: 'turn/end', seq: 5, time: 6, data: { turn: 1, reason: { kind: 'completed' } } },
    // An event type with an override: the harness names it in a diagnostic, which must show the marker too.
    { type: 'note/\u202Eetirw', seq: 6, time: 7, data: {} },
  ])
}
