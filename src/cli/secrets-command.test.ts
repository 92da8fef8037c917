/**
 * `secrets --json`, `redact` and `check`'s secrets line through a real child process, on a log with planted secrets:
 * the exact JSON shape, masked values only (no secret on standard output or error), the same session after `redact`,
 * the allow list, and the refusal to write over the input.
 */

import { spawnSync } from 'node:child_process'
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { gunzipSync } from 'node:zlib'
import { describe, expect, it } from 'vitest'
import { BUNDLE_DATA_SLOT, readBundleData, secretHash } from '../core/index.ts'
import { plantedValues } from '../test-support/planted-secrets.ts'
import { redactionProblem } from '../test-support/redaction-oracle.ts'
import { corpusLog, plantedJsonl, plantedZstd } from '../test-support/secret-log.ts'
import type { SecretJson } from './secrets-json.ts'

const ROOT = new URL('../../', import.meta.url).pathname
const TSX = join(ROOT, 'node_modules/.bin/tsx')

function lens(args: string[]) {
  const result = spawnSync(TSX, ['src/cli/main.ts', ...args], { cwd: ROOT, encoding: 'utf8', maxBuffer: 64 << 20 })
  return { code: result.status, stdout: result.stdout, stderr: result.stderr }
}

const tmp = mkdtempSync(join(tmpdir(), 'lens-secrets-'))
const { events, plants } = corpusLog('tool-arguments', 21)
const jsonl = plantedJsonl(events, true)
const plain = join(tmp, 'planted.jsonl')
const zstd = join(tmp, 'planted.jsonl.zstd')
writeFileSync(plain, jsonl)
writeFileSync(zstd, plantedZstd(jsonl))
const secrets = plants.flatMap((p) => plantedValues(p.secret).map((v) => v.value))
const leaks = (text: string): number => secrets.filter((s) => text.includes(s)).length

describe('lens secrets --json', () => {
  it('lists every secret with its seq, field, kind, masked value, hash and when the model saw it', { timeout: 60_000 }, () => {
    const { code, stdout, stderr } = lens(['secrets', plain, '--json'])
    expect(code).toBe(0)
    expect(leaks(stdout + stderr)).toBe(0)
    const json = JSON.parse(stdout) as SecretJson[]
    const first = plants[0]!
    const hash = secretHash(first.secret.value)
    const entry = json.find((f) => f.hash === hash)!
    // A tool call's arguments: the assistant message is on the surface until the end of its turn's compaction.
    expect(Object.keys(entry)).toStrictEqual(['seq', 'field', 'kind', 'masked', 'hash', 'seenByModel'])
    expect(entry.seq).toBe(first.seq)
    expect(entry.field).toBe('data.message.content[0].arguments')
    expect(entry.kind).toBe(first.secret.kind)
    expect(entry.masked).toMatch(/^sk-[0-9a-f]{2}… \(35 chars\)$/)
    expect(entry.seenByModel.length).toBeGreaterThan(0)
    for (const span of entry.seenByModel) {
      expect(Object.keys(span)).toStrictEqual(['fromSeq', 'toSeq', 'steps'])
      expect(span.fromSeq).toBe(first.seq)
    }
    expect(new Set(json.map((f) => f.hash))).toStrictEqual(new Set(secrets.map(secretHash)))
  })

  it('check says how many in one line, and exits as before', { timeout: 60_000 }, () => {
    const { stdout } = lens(['check', plain])
    const lines = stdout.split('\n').filter((l) => l.startsWith('  secrets'))
    expect(lines).toHaveLength(1)
    expect(lines[0]).toMatch(
      /^ {2}secrets {6}37 secret\(s\) \(deepseek-api-key, .* and \d+ more kinds\) in \d+ place\(s\), 37 sent to the model/,
    )
    expect(leaks(stdout)).toBe(0)
  })
})

describe('lens redact', () => {
  it('writes the same session without its secrets, zstd as zstd', { timeout: 60_000 }, () => {
    for (const input of [plain, zstd]) {
      const out = `${input}.redacted`
      const { code, stderr } = lens(['redact', input, '-o', out])
      expect(code).toBe(0)
      expect(stderr).toMatch(/^dsh-lens: wrote .*: \d+ replacement\(s\) of 37 secret\(s\)/)
      expect(leaks(stderr)).toBe(0)
      expect(redactionProblem(readFileSync(input), readFileSync(out), secrets)).toBeNull()
      expect(lens(['check', out]).stdout).toContain('  secrets      none found')
    }
  })

  it('keeps the values --allow names', { timeout: 60_000 }, () => {
    const kept = plants[1]!.secret.value
    const out = join(tmp, 'allowed.jsonl')
    expect(lens(['redact', plain, '-o', out, '--allow', secretHash(kept)]).code).toBe(0)
    expect(readFileSync(out, 'utf8').includes(kept)).toBe(true)
    expect(lens(['redact', plain, '-o', out, '--allow', 'nothex']).code).toBe(2)
  })

  it('refuses to write over its input, and needs -o', { timeout: 60_000 }, () => {
    const before = readFileSync(plain)
    const same = lens(['redact', plain, '-o', plain])
    expect(same.code).toBe(2)
    expect(same.stderr).toContain('refusing to write the redacted log over its input')
    expect(readFileSync(plain).equals(before)).toBe(true)
    expect(lens(['redact', plain]).code).toBe(2)
  })
})

describe('lens bundle', () => {
  it('says what is wrong with its command line, and never writes over a log it reads', { timeout: 60_000 }, () => {
    const out = join(tmp, 'b.html')
    expect(lens(['bundle', plain]).stderr).toContain('bundle needs -o OUT.html')
    expect(lens(['bundle', plain, '-o', out, '--redact', '--no-redact']).stderr).toContain(
      'say --redact or --no-redact, not both',
    )
    expect(lens(['bundle', 'no-such-session-anywhere', '-o', out]).code).toBe(2)
    expect(lens(['bundle', plain, '-o', out, '--template', join(tmp, 'missing.html')]).stderr).toContain('not built')
    const template = join(tmp, 'template.html')
    writeFileSync(template, `<html><body>${BUNDLE_DATA_SLOT}</body></html>`)
    const over = lens(['bundle', plain, '-o', plain, '--template', template])
    expect(over.code).toBe(2)
    expect(over.stderr).toContain('refusing to write the bundle over a log it reads')
    expect(readFileSync(plain, 'utf8')).toBe(jsonl)
  })

  it('writes the redacted log into the template, said in its data', { timeout: 60_000 }, () => {
    const template = join(tmp, 'template.html')
    writeFileSync(template, `<html><body>${BUNDLE_DATA_SLOT}</body></html>`)
    const out = join(tmp, 'b.html')
    const { code, stderr } = lens(['bundle', zstd, '-o', out, '--template', template])
    expect(code).toBe(0)
    expect(leaks(stderr)).toBe(0)
    const html = readFileSync(out, 'utf8')
    const data = readBundleData(/id="dsh-lens-bundle">(.*)<\/script>/s.exec(html)?.[1])
    expect(data?.redaction).toMatchObject({ mode: 'redacted', paths: false, secrets: 37 })
    expect(data?.logs.map((l) => [l.path, l.encoding])).toStrictEqual([['planted.jsonl.zstd', 'zstd']])
    const bytes = gunzipSync(Buffer.from(data?.logs[0]?.gzipBase64 ?? '', 'base64'))
    expect(redactionProblem(readFileSync(zstd), bytes, secrets)).toBeNull()
  })
})
