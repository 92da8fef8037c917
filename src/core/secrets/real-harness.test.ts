/**
 * Sessions written by the real harness (../shared/real-dsh, keyless): no finding where nobody planted a secret
 * (a plain turn, a subagent, compaction with prunes and packed tool-call rows), and a secret typed into the prompt
 * is found in the user's message and in the model's streamed answer that quotes it, seen by the model; the redacted
 * log is the same session under the harness's own fold, zstd still, with no byte of it left.
 */

import { describe, expect, it } from 'vitest'
import { Rng } from '../../generate/index.ts'
import { realDshAvailable, realHarnessLog } from '../../test-support/real-dsh.ts'
import { decodeLog, redactionProblem } from '../../test-support/redaction-oracle.ts'
import { loadContentChecksum } from '../decode/xxh64.ts'
import { rawZstdFrame, redactLog } from '../redact/index.ts'
import { scanSecrets, secretHash } from './index.ts'

const available = realDshAvailable()
const checksum = await loadContentChecksum()

describe.runIf(available)('real harness logs', () => {
  it.each([['LOOP1 list the files'], ['SPAWN NOTOOL check'], ['BIG LOOP2 compact this']])(
    '"%s" holds no secret, and redacts to itself',
    { timeout: 180_000 },
    (prompt) => {
      const { zstd } = realHarnessLog(prompt, { compact: prompt.startsWith('BIG') })
      const log = decodeLog(zstd)
      const scan = scanSecrets(log)
      expect(scan.findings.map((f) => `${f.seq} ${f.field} ${f.kind}`)).toStrictEqual([])
      const out = redactLog(zstd, log, scan, { encodeFrame: (b) => rawZstdFrame(b, checksum), redactPaths: true })
      expect(out.encoding).toBe('zstd')
      expect(redactionProblem(zstd, out.bytes, [])).toBeNull()
    },
  )

  it('finds a key typed into the prompt in the message and the streamed answer, and redacts it', { timeout: 180_000 }, () => {
    const rng = new Rng(99)
    // The mock's answer quotes the prompt's first 30 characters: a `.env` line fits (lower case: upper-case words
    // are the mock's vocabulary).
    const key = Array.from({ length: 20 }, () => 'abcdefghijklmnopqrstuvwxyz0123456789'[rng.int(0, 35)]).join('')
    const { zstd } = realHarnessLog(`a_key=${key} deploy with it`)
    const log = decodeLog(zstd)
    const scan = scanSecrets(log)
    const hash = secretHash(key)
    const found = scan.findings.filter((f) => f.hash === hash)
    expect(new Set(found.map((f) => f.kind))).toStrictEqual(new Set(['env-assignment']))
    const fields = new Set(found.map((f) => f.field))
    // The user's message (and the inbox that queued it), and the model's final answer, which quotes the prompt:
    // whole in its message, split across its streamed deltas.
    expect(fields.has('data.content[0].text')).toBe(true)
    expect(fields.has('data.chunk.text')).toBe(true)
    expect([...fields].some((f) => f.startsWith('data.message.content'))).toBe(true)
    expect(found.some((f) => f.visible.length > 0)).toBe(true)
    const out = redactLog(zstd, log, scan, { encodeFrame: (b) => rawZstdFrame(b, checksum) })
    expect(redactionProblem(zstd, out.bytes, [key])).toBeNull()
  })
})
