/** Word lists and token streams for generated model output and tool output (plausible text, not lorem ipsum). */

import type { Rng } from './prng.ts'

const WORDS = (
  'the a to of and in is that it for on with this be we as file function test should not are by if from can I ' +
  'need let me check run build error type value return import export session log event fold surface node replace ' +
  'compaction summary turn step tool call result message user assistant config option current state index seq ' +
  'first last next then now also but so because which when where read write update change fix add remove ' +
  'module package script command output input line lines path directory workspace project source code looks ' +
  'like seems correct wrong missing expected actual case handle parse decode stream chunk batch frame header'
).split(' ')

const PUNCT = ['.', ',', ':', '?', ' —', '`', '**', '\n\n', '\n', '"', "'s", '()']

const CODE_LINES = [
  "import { readFile } from 'node:fs/promises'",
  'export function foldSurface(events: readonly SessionEvent[]): SurfaceFoldResult {',
  '  const nodes: number[] = []',
  '  for (const event of events) {',
  "    if (event.type === 'tool/result') continue",
  '    nodes.splice(startIdx, endIdx - startIdx + 1, event.seq)',
  '  }',
  '  return { nodes, replacements }',
  '}',
  '// The harness writes one frame per durable append batch.',
  '  throw new Error(`session event seq ${seq} is not contiguous; expected ${expected}`)',
  '  "name": "@deepseek-ai/dsh-session",',
  '  "version": "0.1.1-rc.2",',
  '\tat Object.<anonymous> (/home/dev/project/src/index.ts:42:13)',
  ' PASS  src/core/fold/surface-fold.test.ts (12 tests) 38ms',
  ' FAIL  src/core/decode/line-splitter.test.ts > splits CRLF',
  'drwxr-xr-x  6 dev dev   192 Aug  7 11:36 packages',
  '-rw-r--r--  1 dev dev  4096 Aug  7 11:36 README.md',
  'src/core/session/lens-log.ts:118:    return this.eventCount',
  'diff --git a/src/app.ts b/src/app.ts',
  '@@ -10,7 +10,9 @@ export class App {',
  '+  private readonly cache = new Map<string, number>()',
  '-  private cache: Record<string, number> = {}',
  '    "dependencies": { "fzstd": "0.1.1", "react": "19.3.1" },',
  '<div class="row" data-seq="1042">assistant/message</div>',
  '  1 | SELECT id, created_at FROM sessions WHERE cwd = $1 ORDER BY created_at DESC;',
]

/** One model token: a leading-space word, a word fragment or punctuation, the way BPE streams look. */
export function nextToken(rng: Rng): string {
  const r = rng.next()
  if (r < 0.12) return rng.pick(PUNCT)
  const word = rng.pick(WORDS)
  // Long-ish words sometimes arrive split in two tokens ("verb", "atim").
  if (r < 0.2 && word.length > 5) return word.slice(0, 3)
  return ' ' + word
}

/** `count` tokens; their concatenation is the block's text. */
export function tokens(rng: Rng, count: number): string[] {
  const out: string[] = []
  for (let i = 0; i < count; i++) out.push(i === 0 ? nextToken(rng).trimStart() || 'The' : nextToken(rng))
  return out
}

/** Roughly `bytes` of tool output built from whole lines (fast even for multi-megabyte results). */
export function toolOutput(rng: Rng, bytes: number): string {
  const lines: string[] = []
  let size = 0
  while (size < bytes) {
    const line = rng.chance(0.1) ? `${rng.int(1, 9999)}: ${rng.pick(CODE_LINES)}` : rng.pick(CODE_LINES)
    lines.push(line)
    size += line.length + 1
  }
  return lines.join('\n') + '\n'
}

/** A short prose sentence (user prompts, titles, summaries). */
export function sentence(rng: Rng, words: number): string {
  const parts: string[] = []
  for (let i = 0; i < words; i++) parts.push(rng.pick(WORDS))
  const text = parts.join(' ')
  return text.charAt(0).toUpperCase() + text.slice(1) + '.'
}

export const TOOL_NAMES = ['bash', 'read_file', 'write_file', 'edit_file', 'grep', 'glob'] as const

/** JSON arguments for a tool call, as the model streams them. */
export function toolArguments(rng: Rng, name: string): string {
  const path = `src/${rng.pick(['core', 'ui', 'cli', 'worker'])}/${rng.pick(WORDS)}-${rng.pick(WORDS)}.ts`
  switch (name) {
    case 'bash':
      return JSON.stringify({
        command: rng.pick(['npm test', 'git status', 'ls -la', `cat ${path}`, 'npx tsc --noEmit']),
        description: sentence(rng, 5),
      })
    case 'grep':
      return JSON.stringify({ pattern: rng.pick(WORDS), path: 'src' })
    case 'glob':
      return JSON.stringify({ pattern: '**/*.ts' })
    case 'write_file':
      return JSON.stringify({ path, content: toolOutput(rng, rng.int(40, 240)) })
    case 'edit_file':
      return JSON.stringify({ path, old: rng.pick(CODE_LINES), new: rng.pick(CODE_LINES) })
    default:
      return JSON.stringify({ path, offset: rng.int(0, 400), limit: 200 })
  }
}

/** Split a string into stream deltas of 2-8 characters (the first one empty, as DeepSeek streams a call). */
export function splitDeltas(rng: Rng, text: string): string[] {
  const out = ['']
  for (let i = 0; i < text.length;) {
    const n = rng.int(2, 8)
    out.push(text.slice(i, i + n))
    i += n
  }
  return out
}
