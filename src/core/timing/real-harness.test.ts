/**
 * Timing on logs the real harness writes (../shared/real-dsh, made at test time with a private DSH_HOME): zstd
 * frames, packed rows and plain chunk lines, a model that streams slowly (SLOW40: 40 ms before every chunk), bash
 * calls, and with --compact a summary and a prune. Every field must equal the direct reading of the times in the
 * file as the harness's own tooling decodes it, and the figures must be what the mock's pace makes them.
 */

import { describe, expect, it } from 'vitest'
import { eventsOfJsonl } from '../../test-support/expanded-events.ts'
import { realDshAvailable, realHarnessLog } from '../../test-support/real-dsh.ts'
import { directTiming } from '../../test-support/timing-oracle.ts'
import { loadContentChecksum } from '../decode/xxh64.ts'
import { stepList } from '../request/step-request.ts'
import { LensLog } from '../log/lens-log.ts'
import { timingJson } from './step-timing.ts'

const checksum = await loadContentChecksum()

/** Harness runs take seconds each, more on a loaded machine. */
const RUN_TIMEOUT_MS = 240_000

describe.runIf(realDshAvailable())('timing on real-harness logs', () => {
  const cases = [
    { prompt: 'LOOP3 SLOW40 list things', compact: false, delay: 40 },
    { prompt: 'PARTS2 LOOP1 SLOW25 count', compact: false, delay: 25 },
    { prompt: 'BIG LOOP2 SLOW10 summarize', compact: true, delay: 10 },
  ]
  for (const c of cases) {
    it(
      `${c.compact ? '--compact ' : ''}"${c.prompt}"`,
      () => {
        const real = realHarnessLog(c.prompt, { compact: c.compact })
        const log = new LensLog({ checksum })
        log.push(real.zstd)
        log.finish()
        const steps = stepList(log)
        const timing = timingJson(log)
        expect(timing).toStrictEqual(
          directTiming(
            eventsOfJsonl(real.jsonl),
            steps.map((s) => s.usage),
          ),
        )
        expect(timing.steps.map((s) => s.atSeq)).toStrictEqual(steps.map((s) => s.atSeq))
        // A real clock: nothing goes back, nothing is 0; every step streamed, every call was answered.
        expect(timing.warnings).toStrictEqual([])
        expect(timing.steps.length).toBeGreaterThanOrEqual(2)
        for (const s of timing.steps) {
          expect(s.ttftMs).not.toBeNull()
          // At least two chunks each waited the mock's delay before the message came.
          expect(s.generationMs).toBeGreaterThanOrEqual(2 * c.delay)
          expect(s.tokensPerSecond).toBeGreaterThan(0)
          expect(s.cacheHit).not.toBeNull()
          for (const tool of s.tools) expect(tool.ms).not.toBeNull()
        }
        expect(timing.totals.toolMs).toBeGreaterThan(0)
        expect(timing.totals.modelMs).toBeGreaterThan(timing.steps.reduce((n, s) => n + (s.generationMs as number), 0))
      },
      RUN_TIMEOUT_MS,
    )
  }
})
