/**
 * A small dsh home with phrases planted at known seqs, for the content index's tests: a user's text, a tool call's
 * arguments (in the assistant message, on the surface, and in the `tool/call` event, log-only), a failed tool
 * result, reasoning (which the harness does not make searchable), a message a compaction then shadows, the summary
 * that shadows it, a todo and a failed turn's error (log-only). Written as the harness writes logs: plain JSONL
 * or zstd frames, a header line first, under `<root>/--<project>--/<session>/`.
 */

import { mkdirSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { writeZstdFrames } from '../bench/zstd-writer.ts'

export type PlantedEvent = Record<string, unknown>

export const PLANTED_AT = {
  user: 2,
  assistantCall: 3,
  toolCall: 4,
  failedResult: 5,
  shadowedAnswer: 8,
  summary: 14,
  todo: 16,
  turnError: 17,
} as const

const T0 = 1_786_000_000_000

function msg(role: string, content: unknown[], source: unknown, id: string): Record<string, unknown> {
  return { role, content, source, id }
}

/** The planted session's events (18), all valid for the fold: `PLANT<WHAT>` words at the seqs of PLANTED_AT. */
export function plantedEvents(tag: string, start = T0): PlantedEvent[] {
  const at = (seq: number): number => start + seq * 1000
  const call = { id: `c-${tag}`, name: 'bash', arguments: `{"command":"grep PLANTARG src/${tag}"}` }
  const events: PlantedEvent[] = [
    { type: 'turn/start', seq: 0, time: at(0), data: { turn: 1 } },
    { type: 'step/start', seq: 1, time: at(1), data: { turn: 1, step: 1 } },
    {
      type: 'user/message',
      seq: 2,
      time: at(2),
      data: msg('user', [{ type: 'text', text: `please fix the PLANTUSER csv parser (${tag})` }], { kind: 'user' }, `u-${tag}`),
      surfaceOp: 'append',
    },
    {
      type: 'assistant/message',
      seq: 3,
      time: at(3),
      data: {
        turn: 1,
        step: 1,
        message: msg(
          'assistant',
          [
            { type: 'reasoning', text: 'thinking about PLANTREASON' },
            { type: 'text', text: 'running grep' },
            { type: 'tool-call', ...call },
          ],
          { kind: 'model', provider: 'deepseek', model: 'deepseek-chat' },
          `a1-${tag}`,
        ),
      },
      surfaceOp: 'append',
    },
    {
      type: 'tool/call',
      seq: 4,
      time: at(4),
      data: { turn: 1, step: 1, callId: call.id, name: call.name, arguments: call.arguments },
    },
    {
      type: 'tool/result',
      seq: 5,
      time: at(5),
      data: {
        turn: 1,
        step: 1,
        message: msg(
          'user',
          [
            {
              type: 'tool-result',
              toolCallId: call.id,
              content: [{ type: 'text', text: 'grep: PLANTFAIL no such file' }],
              isError: true,
            },
          ],
          { kind: 'tool', callId: call.id },
          `t-${tag}`,
        ),
      },
      surfaceOp: 'append',
    },
    { type: 'step/end', seq: 6, time: at(6), data: { turn: 1, step: 1 } },
    { type: 'step/start', seq: 7, time: at(7), data: { turn: 1, step: 2 } },
    {
      type: 'assistant/message',
      seq: 8,
      time: at(8),
      data: {
        turn: 1,
        step: 2,
        message: msg(
          'assistant',
          [{ type: 'text', text: 'PLANTSHADOW the parser is fixed' }],
          { kind: 'model', provider: 'deepseek', model: 'deepseek-chat' },
          `a2-${tag}`,
        ),
      },
      surfaceOp: 'append',
    },
    { type: 'step/end', seq: 9, time: at(9), data: { turn: 1, step: 2 } },
    { type: 'turn/end', seq: 10, time: at(10), data: { turn: 1, reason: { kind: 'completed' } } },
    { type: 'turn/start', seq: 11, time: at(11), data: { turn: 2 } },
    { type: 'compaction/start', seq: 12, time: at(12), data: { compactionId: `k-${tag}`, turn: 2 } },
    {
      type: 'compaction/summary',
      seq: 13,
      time: at(13),
      data: {
        compactionId: `k-${tag}`,
        summary: [{ type: 'text', text: 'the user asked for a parser fix' }],
        shadowedRange: { start: 2, end: 8 },
        shadowedSeqs: [2, 3, 5, 8],
        shadowedTokenCount: 120,
      },
    },
    {
      type: 'user/message',
      seq: 14,
      time: at(14),
      data: msg(
        'user',
        [{ type: 'text', text: 'checkpoint: PLANTSUMMARY of the parser fix' }],
        { kind: 'plugin', plugin: 'compact', compactionId: `k-${tag}` },
        `s-${tag}`,
      ),
      sourceEventSeqs: [12, 13, 2, 3, 5, 8],
      surfaceOp: { op: 'replace', start: 2, end: 8 },
    },
    { type: 'compaction/end', seq: 15, time: at(15), data: { compactionId: `k-${tag}`, turn: 2 } },
    { type: 'todo/write', seq: 16, time: at(16), data: { todos: [{ content: 'write the PLANTTODO test', status: 'pending' }] } },
    {
      type: 'turn/end',
      seq: 17,
      time: at(17),
      data: { turn: 2, reason: { kind: 'error', error: { message: 'PLANTERROR provider refused' } } },
    },
  ]
  return events
}

export interface PlantedSession {
  readonly id: string
  readonly project: string
  readonly path: string
}

/** Writes one session log under `root`; `zstd` writes the harness's default container (one frame per batch). */
export function writeSession(
  root: string,
  options: { id: string; project: string; events: readonly PlantedEvent[]; zstd?: boolean; createdAt?: number },
): PlantedSession {
  const dir = join(root, `--${options.project.replaceAll('/', '-').replace(/^-/, '')}--`, options.id)
  mkdirSync(dir, { recursive: true })
  const header = {
    type: 'session',
    version: 0,
    id: options.id,
    createdAt: options.createdAt ?? T0,
    cwd: options.project,
    delegationDepth: 0,
  }
  const lines = [JSON.stringify(header) + '\n', ...options.events.map((e) => JSON.stringify(e) + '\n')]
  const path = join(dir, options.zstd === true ? 'session.jsonl.zstd' : 'session.jsonl')
  if (options.zstd === true) writeZstdFrames([lines[0] as string, lines.slice(1).join('')], path)
  else writeFileSync(path, lines.join(''))
  return { id: options.id, project: options.project, path }
}

/**
 * `count` todo lists (log-only events) from seq `from`, each saying `text(k)`: a word in more events than a search
 * ranks (search-plan.ts's RANKED), without touching the planted events' classes.
 */
function todoFillers(from: number, count: number, text: (k: number) => string, start = T0): PlantedEvent[] {
  return Array.from({ length: count }, (_, k) => ({
    type: 'todo/write',
    seq: from + k,
    time: start + (from + k) * 1000,
    data: { todos: [{ content: text(k), status: 'pending' }] },
  }))
}

/**
 * A session (`session-many`, project `/work/many`) with every phrase planted and then `grep` said in more log-only
 * todo lists than a search ranks: unfiltered, a search for `grep` orders its page by recency; `--failed` and
 * `--surface` leave few candidates.
 */
export function writeCommonWordSession(root: string, ranked: number, start = T0): PlantedSession {
  const planted = plantedEvents('many', start)
  const fillers = todoFillers(planted.length, ranked + 100, (k) => `grep the logs ${k}`, start)
  return writeSession(root, { id: 'session-many', project: '/work/many', events: [...planted, ...fillers], createdAt: start })
}

/** Lines to append to a planted session: a third turn with `text` from the user, still open (a running session). */
export function grownEvents(from: number, text: string, start = T0): PlantedEvent[] {
  const at = (seq: number): number => start + seq * 1000
  return [
    { type: 'turn/start', seq: from, time: at(from), data: { turn: 3 } },
    { type: 'step/start', seq: from + 1, time: at(from + 1), data: { turn: 3, step: 1 } },
    {
      type: 'user/message',
      seq: from + 2,
      time: at(from + 2),
      data: msg('user', [{ type: 'text', text }], { kind: 'user' }, `g-${from}`),
      surfaceOp: 'append',
    },
  ]
}
