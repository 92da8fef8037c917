/**
 * Test-only zstd writer: compresses each plaintext to its own frame with the
 * system `zstd` binary (checksummed by default) and concatenates them, which is
 * exactly the harness's container. Node 20 has no zstd in zlib; `.ci/run`
 * installs the binary when a machine lacks it.
 */

import { spawnSync } from 'node:child_process'
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'

export function zstdFrame(plaintext: Uint8Array | string): Uint8Array {
  const result = spawnSync('zstd', ['-q', '-c', '--no-progress'], { input: plaintext, maxBuffer: 1 << 30 })
  if (result.status !== 0) throw new Error(`zstd failed: ${result.stderr?.toString() ?? result.error}`)
  return new Uint8Array(result.stdout)
}

/**
 * Each plaintext as its own frame, concatenated: one `zstd --filelist` process for the whole log (it compresses each
 * listed file into its own frame), not one per frame. Spawning a process per frame made a 60-log property test take
 * over 200 s on a busy machine, past the test timeout.
 */
export function zstdFrames(plaintexts: readonly (Uint8Array | string)[]): Uint8Array {
  if (plaintexts.length === 0) return new Uint8Array(0)
  const dir = mkdtempSync(join(tmpdir(), 'dsh-lens-test-frames-'))
  try {
    const names = plaintexts.map((plaintext, i) => {
      const name = join(dir, String(i).padStart(6, '0'))
      writeFileSync(name, plaintext)
      return name
    })
    const list = join(dir, 'filelist.txt')
    writeFileSync(list, names.join('\n') + '\n')
    const result = spawnSync('zstd', ['-q', '-c', '--no-progress', '--filelist', list], { maxBuffer: 1 << 30 })
    if (result.status !== 0) throw new Error(`zstd failed: ${result.stderr?.toString() ?? result.error}`)
    return new Uint8Array(result.stdout)
  } finally {
    rmSync(dir, { recursive: true, force: true })
  }
}
