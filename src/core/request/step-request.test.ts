/**
 * The cache warning's direction, on a two-step log built by hand: the second step's request keeps the first one's
 * system prompt, tools and long user message unchanged (so that much should have been read from the cache), and
 * its logged `cacheReadTokens` is made far below or far above that estimate. Each direction says what it means.
 */

import { describe, expect, it } from 'vitest'
import { toJsonlBytes } from '../../test-support/log-builder.ts'
import { buildRequestLog } from '../../test-support/request-log-arbitrary.ts'
import type { RequestStepScript } from '../../test-support/request-log-builder.ts'
import { loadContentChecksum } from '../decode/xxh64.ts'
import { LensLog } from '../log/lens-log.ts'
import { stepRequest } from './step-request.ts'

const checksum = await loadContentChecksum()

function step(overrides: Partial<RequestStepScript>): RequestStepScript {
  return {
    kind: 'request-step',
    users: [],
    compactBefore: null,
    header: null,
    context: true,
    retry: false,
    output: 'stream',
    text: 'done',
    deltas: 1,
    reasoning: false,
    calls: 0,
    resultSize: 0,
    cacheRead: null,
    midCompact: null,
    prune: null,
    lateUser: null,
    close: true,
    ...overrides,
  }
}

/** The second step's diff when it logged `cacheRead` tokens read from the cache. */
function secondStepDiff(cacheRead: number) {
  const first = step({
    users: ['a long question '.repeat(400)],
    header: { provider: 0, model: 0, effort: 0, adapter: false, system: 2, tools: 2, leftover: false },
  })
  const second = step({ users: ['and one more thing'], cacheRead })
  const log = new LensLog({ checksum })
  log.push(toJsonlBytes(buildRequestLog([first, second]).events))
  log.finish()
  const diff = stepRequest(log, 1)?.diff
  if (diff === undefined) throw new Error('no second step')
  return diff
}

describe('the cache warning says which way the logged cache reads miss the unchanged prefix', () => {
  it('far below the unchanged prefix: the cache missed', () => {
    const diff = secondStepDiff(0)
    const est = diff.tokensBeforeFirstDifference
    expect(est).toBeGreaterThan(1000)
    expect(diff.cacheWarning).toStrictEqual({
      cacheReadTokens: 0,
      estimatedPrefixTokens: est,
      message: `the provider read 0 cached tokens, but about ${est} tokens of this request are unchanged since the previous step: the cache missed (expired, evicted, or keyed differently)`,
    })
  })

  it('far above the unchanged prefix: the request differs from this reconstruction', () => {
    const diff = secondStepDiff(1_000_000)
    const est = diff.tokensBeforeFirstDifference
    expect(diff.cacheWarning).toStrictEqual({
      cacheReadTokens: 1_000_000,
      estimatedPrefixTokens: est,
      message: `the provider read 1000000 cached tokens, more than the about ${est} tokens unchanged since the previous step: the request differs from this reconstruction, or the cache matched an older request`,
    })
  })

  it('close to the unchanged prefix: no warning', () => {
    const est = secondStepDiff(0).tokensBeforeFirstDifference
    expect(secondStepDiff(est).cacheWarning).toBeNull()
    expect(secondStepDiff(Math.ceil(est / 2) + 1).cacheWarning).toBeNull()
  })
})
