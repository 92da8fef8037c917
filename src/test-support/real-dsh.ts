/**
 * Session logs written by the real harness (../shared/real-dsh: the shipped dsh with a scripted mock model), made at
 * test time and never committed. Each run gets a private DSH_HOME and working directory under the system temp
 * folder, so parallel tests never share a sessions root (the scripts' "one headless run per DSH_HOME" rule).
 * The scripts install the harness on first use (setup.sh, a no-op once installed). In a user's clone without
 * ../shared the lane says so and is skipped; under CI=true its absence is a failure, as for the fixtures.
 */

import { execFileSync } from 'node:child_process'
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'

export const REAL_DSH_SCRIPTS = fileURLToPath(new URL('../../../shared/real-dsh/', import.meta.url))

export function realDshAvailable(): boolean {
  const present = existsSync(join(REAL_DSH_SCRIPTS, 'headless.sh'))
  if (!present && process.env['CI'] === 'true')
    throw new Error(`CI=true but the real harness scripts are missing at ${REAL_DSH_SCRIPTS}`)
  if (!present) console.log(`real-dsh scripts not found at ${REAL_DSH_SCRIPTS}: skipping the real-harness lane`)
  return present
}

export interface RealLog {
  /** The bytes of the harness's own file, `session.jsonl.zstd`. */
  readonly zstd: Buffer
  /** Its plain JSONL, decoded by the scripts' own decoder (Node's zstd, not ours). */
  readonly jsonl: string
}

/**
 * One headless session of the real harness. `prompt` speaks the mock's vocabulary (real-dsh/README.md): e.g.
 * `LOOP3 SLOW40 …` (three extra bash steps, 40 ms before every stream chunk), `PARTS2` (runs too short to pack).
 */
export function runHeadless(prompt: string, options: { compact?: boolean } = {}): RealLog {
  const home = mkdtempSync(join(tmpdir(), 'lens-real-dsh-'))
  const env = { ...process.env, DSH_HOME: join(home, 'home'), DSH_WORKDIR: mkdtempSync(join(home, 'work-')) }
  const args = [join(REAL_DSH_SCRIPTS, 'headless.sh'), ...(options.compact === true ? ['--compact'] : []), prompt]
  try {
    const zstdPath = execFileSync('bash', args, { env, encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'] }).trim()
    const jsonl = execFileSync('bash', [join(REAL_DSH_SCRIPTS, 'decode.sh'), zstdPath], {
      env,
      encoding: 'utf8',
      maxBuffer: 1 << 28,
    })
    return { zstd: readFileSync(zstdPath), jsonl }
  } finally {
    rmSync(home, { recursive: true, force: true })
  }
}
