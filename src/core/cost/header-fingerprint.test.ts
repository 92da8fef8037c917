/**
 * A break's header cause is the Request view's: `prefixChanges` of two fingerprints equals `headerChanges` of the two
 * canonical headers restricted to the fields that end a cached prefix (fast-check over headers drawn from small pools,
 * so most pairs share fields; replay with FC_SEED).
 */

import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { canonicalHeader, headerChanges, PREFIX_FIELDS } from '../request/request-header.ts'
import { headerFingerprint, prefixChanges } from './header-fingerprint.ts'

const tool = fc.record({ name: fc.constantFrom('bash', 'read', 'write'), description: fc.constantFrom('a', 'b') })
const data = fc.record(
  {
    header: fc.record(
      {
        config: fc.record(
          {
            provider: fc.constantFrom('deepseek-official', 'local', 7),
            model: fc.constantFrom('deepseek-flash', 'm'),
            reasoningEffort: fc.constantFrom('high', 'max'),
          },
          { requiredKeys: [] },
        ),
        system: fc.constantFrom('You are an agent.', 'Be brief.', ''),
        tools: fc.array(tool, { maxLength: 3 }),
      },
      { requiredKeys: [] },
    ),
  },
  { requiredKeys: [] },
)

describe('header fingerprints', () => {
  it('name the prefix fields headerChanges names', () => {
    fc.assert(
      fc.property(data, data, (a, b) => {
        const before = canonicalHeader(a)
        const after = canonicalHeader(b)
        expect(prefixChanges(headerFingerprint(before), headerFingerprint(after))).toStrictEqual(
          headerChanges(before, after).filter((f) => PREFIX_FIELDS.has(f)),
        )
      }),
      { numRuns: 2000 },
    )
  })
})
