/**
 * The bundle scan on a web-export zip built here with fflate (the harness's layout: `session.jsonl` plus
 * `subagents/<id>/session.jsonl`, format reference 1.8) from a real parent fixture and a fork child whose seed is
 * the parent's real prefix; on several plain files; and with files that are not logs or not sessions.
 */

import { readFileSync } from 'node:fs'
import { zipSync } from 'fflate'
import { describe, expect, it } from 'vitest'
import { LensLog, logPrefix } from '../core/index.ts'
import { FIXTURE_DIR, fixturesAvailable } from '../test-support/shared-fixtures.ts'
import { scanBundle } from './session-bundle.ts'

const enc = new TextEncoder()
const PARENT_ID = '96cf59c9-b347-48b9-b234-a5200913ad05'
const CHILD_ID = 'ada8966c-9fa3-441b-8721-37ff1e795e6a'

function forkChild(parentText: string, seedLength: number): string {
  const parent = new LensLog()
  parent.push(enc.encode(parentText))
  parent.finish()
  const header = {
    type: 'session',
    version: 0,
    id: CHILD_ID,
    createdAt: 1783352137161,
    cwd: '{{cwd}}',
    parentSession: PARENT_ID,
    seedLength,
    origin: 'subagent',
    delegationDepth: 1,
  }
  const seed = logPrefix(parent, seedLength - 1)
    .parts.slice(1)
    .join('')
  const own = [
    { type: 'session/end-seed', seq: seedLength, time: 1, data: {} },
    {
      type: 'subagent/descriptor',
      seq: seedLength + 1,
      time: 2,
      data: { version: 2, mode: 'one-shot', provider: 'fork', label: 'Recall project codeword' },
    },
  ]
  return `${JSON.stringify(header)}\n${seed}${own.map((e) => JSON.stringify(e)).join('\n')}\n`
}

describe.runIf(fixturesAvailable())('scanBundle', () => {
  const parentText = readFileSync(`${FIXTURE_DIR}acp--subagent-fork-in-process--session.jsonl`, 'utf8')

  it('a web-export zip: root and flattened subagent linked, seed verified, media and tmp files ignored', async () => {
    const zip = zipSync({
      'session.jsonl': enc.encode(parentText),
      [`subagents/${CHILD_ID}/session.jsonl`]: enc.encode(forkChild(parentText, 42)),
      'subagents/x/session.jsonl.abcdef012345.tmp': enc.encode('garbage'),
      'media/a.png': new Uint8Array([1, 2, 3]),
    })
    const result = await scanBundle([{ path: 'dsh-session-96cf.zip', blob: new Blob([zip]) }])
    expect(result.sessions.map((s) => s.key)).toStrictEqual([
      'dsh-session-96cf.zip/session.jsonl',
      `dsh-session-96cf.zip/subagents/${CHILD_ID}/session.jsonl`,
    ])
    expect(result.sessions[0]?.eventCount).toBe(200)
    const child = result.tree.nodes.get(`dsh-session-96cf.zip/subagents/${CHILD_ID}/session.jsonl`)
    expect(child).toMatchObject({ kind: 'subagent', depth: 1, parentKey: 'dsh-session-96cf.zip/session.jsonl' })
    expect(child?.start).toMatchObject({ parentSeq: 157, heuristic: true })
    expect(Object.values(result.seeds)).toStrictEqual([{ seedLength: 42, matching: 42, divergesAt: null, reason: null }])
    // The entries come back as Files holding the inflated bytes: what the viewer opens.
    expect(await result.sessions[1]?.file.text()).toBe(forkChild(parentText, 42))
  })

  it('plain files: non-log names and non-session JSONL are skipped with a reason; a broken seed is reported', async () => {
    const broken = forkChild(parentText, 42).replace('"removedCount":1', '"removedCount":2')
    const result = await scanBundle([
      { path: 'dir/child.jsonl', blob: new Blob([broken]) },
      { path: 'dir/parent.jsonl', blob: new Blob([parentText]) },
      { path: 'dir/expected.json', blob: new Blob(['{}']) },
      { path: 'dir/stdout.expected.jsonl', blob: new Blob(['{"jsonrpc":"2.0"}\n']) },
    ])
    expect(result.tree.order).toStrictEqual(['dir/parent.jsonl', 'dir/child.jsonl'])
    expect(result.seeds['dir/child.jsonl']).toMatchObject({ divergesAt: 2, matching: 2 })
    expect(result.skipped.map((s) => s.path).sort()).toStrictEqual(['dir/expected.json', 'dir/stdout.expected.jsonl'])
    expect(result.skipped.find((s) => s.path === 'dir/stdout.expected.jsonl')?.why).toMatch(/session/)
  })
})
