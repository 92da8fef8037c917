/**
 * Line 1 of a zstd log from the start of its first frame: for the harness's own framing (a header frame) and for a log
 * compressed in one piece by the `zstd` command, whole or cut anywhere after the line's block, and the refusals.
 */

import { describe, expect, it } from 'vitest'
import { zstdFrame, zstdFrames } from '../../test-support/zstd-frames.ts'
import { zstdFirstLine } from './zstd-first-line.ts'

const header = '{"type":"session","version":0,"id":"s","createdAt":1,"delegationDepth":0}'
const body = Array.from(
  { length: 3000 },
  (_, i) => `{"type":"step/start","seq":${i},"time":${i},"data":{"n":"${i.toString(36).repeat(40)}"}}\n`,
).join('')

describe('zstdFirstLine', () => {
  it("reads the harness's header frame, which holds nothing more", () => {
    expect(zstdFirstLine(zstdFrames([header + '\n', body]))).toStrictEqual({ ok: true, text: header, frameHoldsMore: false })
  })

  it('reads a one-frame log from its first bytes, and says the frame holds more', () => {
    const whole = zstdFrame(header + '\n' + body)
    expect(whole.length).toBeGreaterThan(4096)
    expect(zstdFirstLine(whole)).toStrictEqual({ ok: true, text: header, frameHoldsMore: true })
    // Cut inside its second block: the first (which holds line 1) is whole.
    expect(zstdFirstLine(whole.subarray(0, whole.length - 100))).toStrictEqual({ ok: true, text: header, frameHoldsMore: true })
    // Cut inside its first block: line 1 is not there yet.
    expect(zstdFirstLine(whole.subarray(0, 4096))).toStrictEqual({ ok: false, why: 'no complete header line yet' })
  })

  it('says why when there is no line to read', () => {
    const whole = zstdFrame(header + '\n' + body)
    expect(zstdFirstLine(whole.subarray(0, 5))).toMatchObject({ ok: false, why: 'the first zstd frame header is incomplete' })
    expect(zstdFirstLine(whole.subarray(0, 12))).toMatchObject({ ok: false, why: 'no complete header line yet' })
    expect(zstdFirstLine(zstdFrame('no newline at all'))).toMatchObject({
      ok: false,
      why: 'the first zstd frame holds no complete line',
    })
    expect(zstdFirstLine(zstdFrame('x'.repeat(2000)), 1000)).toMatchObject({
      ok: false,
      why: 'the first line is longer than 1000 bytes',
    })
  })
})
