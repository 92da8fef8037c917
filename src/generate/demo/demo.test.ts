// The bundled demo: deterministic, accepted by the harness's own fold, and showing everything the viewer
// is for (both compaction kinds incl. a nested one, a prune, /compact, max tokens, a failing then passing
// test run) with a subagent child that links back to it.
import { describe, expect, it } from 'vitest'
import { LensLog, loadContentChecksum } from '../../core/index.ts'
import { harnessVerdict } from '../../test-support/harness-oracle.ts'
import { toJsonl } from '../jsonl.ts'
import type { GeneratedEvent, GeneratedSession } from '../types.ts'
import { CALLERS_CHILD } from './conversation.ts'
import { childPath, demoFiles, demoSessions } from './index.ts'
import { expandGeneratedSession as expand } from '../../test-support/expanded-events.ts'

type Data = Record<string, unknown> & { message?: { content: { type: string; text?: string; content?: { text: string }[] }[] } }
const dataOf = (e: GeneratedEvent): Data => e.data as Data
const textOf = (e: GeneratedEvent): string =>
  (dataOf(e).message?.content ?? []).map((c) => c.text ?? (c.content ?? []).map((x) => x.text).join('')).join('\n')

const { parent, children } = demoSessions()
const events = expand(parent)
const byType = (type: string): GeneratedEvent[] => events.filter((e) => e.type === type)

describe('the bundled demo session', () => {
  it('is the same bytes every time', () => {
    expect(demoFiles()).toStrictEqual(demoFiles())
    expect(toJsonl(demoSessions().parent)).toBe(toJsonl(parent))
  })

  it('the harness accepts the parent and every child, and LensLog folds them identically', async () => {
    for (const session of [parent, ...children]) {
      const all = expand(session)
      expect(all.map((e) => e.seq)).toStrictEqual(all.map((_, i) => i))
      const verdict = harnessVerdict(all)
      expect(verdict.error).toBeNull()
      const log = new LensLog({ checksum: await loadContentChecksum() })
      log.push(new TextEncoder().encode(toJsonl(session)))
      log.finish()
      expect(log.diagnostics).toStrictEqual([])
      expect(log.surfaceSeqsAfter(log.length - 1)).toStrictEqual(verdict.nodes)
    }
  })

  it('has two summaries (the later one swallows the earlier), a manual /compact and a prune', () => {
    const { replacements } = harnessVerdict(events)
    const summaries = byType('compaction/summary')
    expect(summaries.length).toBeGreaterThanOrEqual(2)
    const checkpointSeqs = new Set(summaries.map((s) => s.seq + 1))
    const nested = replacements.filter((r) => checkpointSeqs.has(r.seq) && r.shadowedSeqs.some((s) => checkpointSeqs.has(s)))
    expect(nested.length).toBeGreaterThanOrEqual(1)
    // /compact: command/run → summary with its sourceCommandId → command/done naming the summary.
    const run = byType('command/run').find((e) => dataOf(e)['name'] === 'compact')
    const done = byType('command/done')[0] as GeneratedEvent
    const summary = events[dataOf(done)['sourceEventSeq'] as number] as GeneratedEvent
    expect(summary.type).toBe('compaction/summary')
    expect(dataOf(summary)['sourceCommandId']).toBe(dataOf(run as GeneratedEvent)['commandId'])
    const prune = byType('compaction/prune')[0] as GeneratedEvent
    const rewrite = events[prune.seq + 1] as GeneratedEvent
    expect(rewrite.surfaceOp).toMatchObject({ op: 'replace' })
    expect(textOf(rewrite).length).toBeLessThan(textOf(events[rewrite.sourceEventSeqs?.[0] ?? -1] as GeneratedEvent).length / 10)
  })

  it('each summary mentions what it replaced: the files the shadowed tool calls touched', () => {
    for (const summary of byType('compaction/summary')) {
      const text = (dataOf(summary)['summary'] as { text: string }[])[0]?.text ?? ''
      const shadowed = new Set(dataOf(summary)['shadowedSeqs'] as number[])
      const paths = byType('tool/call')
        .filter((c) => events.some((r) => r.type === 'tool/result' && shadowed.has(r.seq) && r.sourceEventSeqs?.[0] === c.seq))
        .map((c) => (JSON.parse(dataOf(c)['arguments'] as string) as { file_path?: string }).file_path)
        .filter((p): p is string => p !== undefined && p.startsWith('src/'))
      expect(paths.length).toBeGreaterThan(0)
      for (const path of paths) expect(text).toContain(path)
    }
  })

  it('has several user turns, a failing test run before a passing one, and ends a turn on an empty max-tokens message', () => {
    const prompts = byType('user/message').filter((e) => (e.data as { source: { kind: string } }).source.kind === 'user')
    expect(prompts.length).toBeGreaterThanOrEqual(2)
    expect(prompts.length).toBeLessThanOrEqual(4)
    const runs = byType('tool/result').filter((e) => / Tests {2}/.test(textOf(e)))
    const firstFail = runs.findIndex((e) => /Tests {2}\d+ failed/.test(textOf(e)))
    expect(firstFail).toBeGreaterThanOrEqual(0)
    expect(runs.slice(firstFail + 1).some((e) => !/failed/.test(textOf(e)))).toBe(true)
    const empty = byType('assistant/message').filter((e) => dataOf(e).message?.content.length === 0)
    expect(empty).toHaveLength(1)
    const end = events.slice((empty[0] as GeneratedEvent).seq).find((e) => e.type === 'turn/end')
    expect(end?.data).toMatchObject({ reason: { kind: 'max-tokens' } })
  })

  it('logs usage on every assistant message, with input tokens that grow until a compaction', () => {
    const usage = byType('assistant/message').map((e) => dataOf(e)['usage'] as Record<string, number>)
    for (const u of usage) {
      expect(u['inputTokens']).toBeGreaterThan(0)
      expect(u['cacheReadTokens']).toBeLessThanOrEqual(u['inputTokens'] as number)
    }
    const header = byType('request/header')[0]
    expect(header?.data).toMatchObject({ header: { system: expect.stringContaining('/home/dev/tabula') } })
    expect((header?.data as { header: { tools: unknown[] } }).header.tools.length).toBeGreaterThanOrEqual(5)
  })

  it('the subagent child links to the parent, and the parent holds its call and its report', () => {
    expect(children).toHaveLength(1)
    const child = children[0] as GeneratedSession
    expect(child.header).toMatchObject({ parentSession: parent.header.id, origin: 'subagent', delegationDepth: 1 })
    expect(Object.keys(child.header)).toStrictEqual([
      'type',
      'version',
      'id',
      'createdAt',
      'cwd',
      'parentSession',
      'origin',
      'delegationDepth',
    ])
    const childEvents = expand(child)
    const descriptor = childEvents.find((e) => e.type === 'subagent/descriptor')
    expect(descriptor?.data).toMatchObject({ version: 2, mode: 'one-shot', label: CALLERS_CHILD.label })
    const call = byType('tool/call').find((e) => dataOf(e)['name'] === 'subagent') as GeneratedEvent
    expect(JSON.parse(dataOf(call)['arguments'] as string)).toMatchObject({ description: CALLERS_CHILD.label })
    expect(child.header.createdAt).toBeGreaterThanOrEqual(call.time)
    const result = byType('tool/result').find((e) => e.sourceEventSeqs?.[0] === call.seq) as GeneratedEvent
    const childAnswer = childEvents.filter((e) => e.type === 'assistant/message').at(-1) as GeneratedEvent
    expect(textOf(result).length).toBeGreaterThan(200)
    expect(textOf(childAnswer)).toContain(textOf(result))
    expect(result.time).toBeGreaterThan(childEvents.at(-1)?.time ?? Infinity)
    expect(demoFiles().map((f) => f.path)).toStrictEqual(['demo-session.jsonl', childPath(child.header.id)])
  })
})
