/**
 * The bundled CLI (`npm run build:cli`, what the `dsh-lens` bin runs) answers exactly as the TypeScript
 * sources do: built into a temporary folder, run as plain `node`, on every fixture (it is fast enough to
 * afford all of them) and on the exit-code cases.
 */

import { spawnSync } from 'node:child_process'
import { cpSync, existsSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { beforeAll, describe, expect, it } from 'vitest'
import { fixturesAvailable, listFixtures, listZstdFixtures } from '../test-support/shared-fixtures.ts'

const ROOT = new URL('../../', import.meta.url).pathname
const TSX = join(ROOT, 'node_modules/.bin/tsx')
const out = mkdtempSync(join(tmpdir(), 'lens-built-cli-'))
const BUILT = join(out, 'dsh-lens.cjs')

const run = (command: string, args: string[], env: NodeJS.ProcessEnv = process.env) => {
  const result = spawnSync(command, args, { cwd: ROOT, env, encoding: 'utf8', maxBuffer: 256 << 20 })
  return { code: result.status, stdout: result.stdout, stderr: result.stderr }
}
const built = (args: string[]) => run(process.execPath, [BUILT, ...args])

/** A header and one user message: a log the harness accepts and that has no defect. */
const CLEAN_LOG =
  '{"type":"session","version":0,"id":"s1","createdAt":1,"cwd":"/w","delegationDepth":0}\n' +
  '{"type":"user/message","seq":0,"time":5,"data":{"id":"u0","role":"user","content":[],"source":{"kind":"user"}},"surfaceOp":"append"}\n'

beforeAll(() => {
  const result = run(TSX, ['src/build/build-cli.ts', '--outdir', out])
  expect(result.stderr).toBe('')
  expect(result.code).toBe(0)
}, 120_000)

describe('the built CLI', () => {
  it.runIf(fixturesAvailable())(
    'folds every fixture exactly as the TypeScript CLI',
    () => {
      const fixtures = [...listFixtures(), ...listZstdFixtures()]
      // The sources are slow to start (tsx): compare against them on a sample, against the answers on all.
      for (const [i, fixture] of fixtures.entries()) {
        const ours = built(['fold', fixture.path, '--json'])
        expect(ours.code).toBe(0)
        const json = JSON.parse(ours.stdout) as { eventCount: number; nodes: number[] }
        expect(json.eventCount).toBe(fixture.expected.eventCount)
        expect(json.nodes).toStrictEqual(fixture.expected.nodes)
        if (i % 16 === 0) expect(ours.stdout).toBe(run(TSX, ['src/cli/main.ts', 'fold', fixture.path, '--json']).stdout)
      }
      // ~70 whole processes: 23-27 s on a quiet CI machine, 70 s beside another test run; generous, as machines are shared.
    },
    240_000,
  )

  it('starts through the code cache its build trained, and answers the same without it', () => {
    const dir = mkdtempSync(join(tmpdir(), 'lens-built-cli-cache-'))
    const log = join(dir, 'tiny.jsonl')
    writeFileSync(log, CLEAN_LOG)
    const env = { ...process.env, DSH_LENS_TRACE_CODE_CACHE: '1' }
    const trace = (cli: string) => run(process.execPath, [cli, 'fold', log, '--json'], env)
    const cached = trace(BUILT)
    expect(cached.stderr).toBe('dsh-lens: code cache accepted\n')
    expect(cached.code).toBe(0)
    // A copy without the cache compiles as usual; one given a foreign cache has V8 reject it.
    const bare = join(dir, 'bare')
    cpSync(out, bare, { recursive: true })
    rmSync(join(bare, 'dsh-lens-main.cjs.v8-cache'))
    const absent = trace(join(bare, 'dsh-lens.cjs'))
    expect(absent.stderr).toBe('dsh-lens: code cache absent\n')
    expect(absent.stdout).toBe(cached.stdout)
    writeFileSync(join(bare, 'dsh-lens-main.cjs.v8-cache'), 'not a V8 code cache')
    const foreign = trace(join(bare, 'dsh-lens.cjs'))
    expect(foreign.stderr).toBe('dsh-lens: code cache rejected\n')
    expect(foreign.stdout).toBe(cached.stdout)
  })

  it('runs a command from its on-demand bundle (generate-demo), whose output the built CLI folds cleanly', () => {
    const dir = mkdtempSync(join(tmpdir(), 'lens-built-cli-demo-'))
    const demo = join(dir, 'demo.jsonl')
    expect(built(['generate-demo', demo]).code).toBe(0)
    expect(built(['check', demo]).code).toBe(0)
    expect(existsSync(join(dir, 'subagents'))).toBe(true)
  })

  it('answers from every on-demand bundle exactly as the sources do (check, cost, usage, secrets, redact, bundle)', () => {
    const dir = mkdtempSync(join(tmpdir(), 'lens-built-cli-chunks-'))
    const demo = join(dir, 'sessions', 'demo.jsonl')
    expect(built(['generate-demo', demo]).code).toBe(0)
    const sources = (args: string[], env = process.env) => run(TSX, ['src/cli/main.ts', ...args], env)
    // Each command's bundle is its own file: a missing or broken one fails here, not in a user's hands.
    for (const chunk of ['check', 'cost', 'usage', 'secrets', 'bundle'])
      expect(existsSync(join(out, `dsh-lens-${chunk}.cjs`)), chunk).toBe(true)
    const cacheEnv = { ...process.env, XDG_CACHE_HOME: join(dir, 'cache') }
    for (const args of [
      ['check', demo],
      ['cost', demo, '--json'],
      ['secrets', demo, '--json'],
      ['usage', join(dir, 'sessions'), '--json'],
    ]) {
      const ours = run(process.execPath, [BUILT, ...args], cacheEnv)
      expect(ours.code, args.join(' ')).toBe(0)
      expect(ours.stdout).toBe(sources(args, cacheEnv).stdout)
    }
    const redacted = join(dir, 'redacted.jsonl')
    expect(built(['redact', demo, '-o', redacted]).code).toBe(0)
    expect(built(['fold', redacted, '--json']).stdout).toBe(sources(['fold', demo, '--json']).stdout)
    // bundle's own usage line comes from its bundle: it loaded.
    const bundle = built(['bundle'])
    expect(bundle.code).toBe(2)
    expect(bundle.stderr).toContain('bundle')
  })

  it('keeps the exit codes: 0 clean, 1 defects, 2 unreadable or wrong usage', () => {
    const dir = mkdtempSync(join(tmpdir(), 'lens-built-cli-case-'))
    const clean = join(dir, 'clean.jsonl')
    writeFileSync(clean, CLEAN_LOG)
    const broken = join(dir, 'broken.jsonl')
    writeFileSync(broken, 'not a header\n')
    expect(built(['check', clean]).code).toBe(0)
    expect(built(['check', broken]).code).toBe(1)
    const missing = built(['check', join(dir, 'nope.jsonl')])
    expect(missing.code).toBe(2)
    expect(missing.stderr).toContain('no such file')
    expect(built(['frobnicate']).code).toBe(2)
  })
})
