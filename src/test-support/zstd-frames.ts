/**
 * Test-only zstd writer: compresses each plaintext to its own frame with the
 * system `zstd` binary (checksummed by default) and concatenates them, which is
 * exactly the harness's container. Node 20 has no zstd in zlib; `.ci/run`
 * installs the binary when a machine lacks it.
 */

import { spawnSync } from 'node:child_process'
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { basename, join } from 'node:path'

export function zstdFrame(plaintext: Uint8Array | string): Uint8Array {
  const result = spawnSync('zstd', ['-q', '-c', '--no-progress'], { input: plaintext, maxBuffer: 1 << 30 })
  if (result.status !== 0) throw new Error(`zstd failed: ${result.stderr?.toString() ?? result.error}`)
  return new Uint8Array(result.stdout)
}

/**
 * Each plaintext compressed to its own frame, by one `zstd --filelist` process for the whole list (a file per
 * plaintext in, a `.zst` per file out), not one process per frame: spawning a process per frame made property tests
 * of a few hundred logs take over 200 s on a busy machine, past the test timeout.
 */
export function zstdEachFrame(plaintexts: readonly (Uint8Array | string)[]): Uint8Array[] {
  if (plaintexts.length === 0) return []
  const dir = mkdtempSync(join(tmpdir(), 'dsh-lens-test-frames-'))
  try {
    const out = join(dir, 'out')
    mkdirSync(out)
    const names = plaintexts.map((plaintext, i) => {
      const name = join(dir, String(i).padStart(6, '0'))
      writeFileSync(name, plaintext)
      return name
    })
    const list = join(dir, 'filelist.txt')
    writeFileSync(list, names.join('\n') + '\n')
    const result = spawnSync('zstd', ['-q', '--no-progress', '--filelist', list, '--output-dir-flat', out])
    if (result.status !== 0) throw new Error(`zstd failed: ${result.stderr?.toString() ?? result.error}`)
    return names.map((name) => new Uint8Array(readFileSync(join(out, `${basename(name)}.zst`))))
  } finally {
    rmSync(dir, { recursive: true, force: true })
  }
}

/** Each plaintext as its own frame, concatenated: the harness's container. */
export function zstdFrames(plaintexts: readonly (Uint8Array | string)[]): Uint8Array {
  const frames = zstdEachFrame(plaintexts)
  const out = new Uint8Array(frames.reduce((n, f) => n + f.length, 0))
  let at = 0
  for (const f of frames) {
    out.set(f, at)
    at += f.length
  }
  return out
}
