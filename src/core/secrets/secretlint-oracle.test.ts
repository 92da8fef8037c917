/**
 * secretlint's recommended preset (@secretlint/core + preset-recommend, a devDependency) as the oracle of the
 * detectors: on every planted text, whatever the preset reports we report too (a hit of ours overlaps each of its
 * ranges); on the fixtures' strings it reports nothing either. It is not run by dsh-lens itself: on the 280k-event
 * log it took 2.5 s over the strings alone, 2.5x the whole `fold --json` (docs/decisions.md).
 */

import { readFileSync } from 'node:fs'
import { lintSource } from '@secretlint/core'
import { creator as preset } from '@secretlint/secretlint-rule-preset-recommend'
import { describe, expect, it } from 'vitest'
import { plantedSecrets } from '../../test-support/planted-secrets.ts'
import { fixturesAvailable, listFixtures } from '../../test-support/shared-fixtures.ts'
import { forEachString } from '../search/json-leaves.ts'
import { detectSecrets } from './detectors.ts'

const options = { config: { rules: [{ id: preset.meta.id, rule: preset, options: {} }] }, locale: 'en', maskSecrets: true }

async function secretlintRanges(content: string): Promise<{ rule: string; range: readonly [number, number] }[]> {
  const result = await lintSource({ source: { filePath: '/x.txt', content, contentType: 'text', ext: '.txt' }, options })
  return result.messages.map((m) => ({ rule: m.ruleId, range: m.range as [number, number] }))
}

describe('secretlint recommended preset as the oracle', () => {
  it('finds nothing on the planted texts that we miss', async () => {
    for (const seed of [1, 2, 3, 4]) {
      for (const planted of plantedSecrets(seed)) {
        const ours = detectSecrets(planted.text)
        for (const { rule, range } of await secretlintRanges(planted.text)) {
          const covered = ours.some((h) => h.start < range[1] && range[0] < h.end)
          expect(covered, `${rule} on the ${planted.kind} example (seed ${seed})`).toBe(true)
        }
      }
    }
  })

  it.runIf(fixturesAvailable())('finds nothing in the fixtures either', async () => {
    const strings: string[] = []
    for (const { path } of listFixtures())
      for (const line of readFileSync(path, 'utf8').split('\n')) {
        if (line === '') continue
        forEachString(JSON.parse(line) as unknown, '', (text) => {
          strings.push(text)
          return true
        })
      }
    const found = await secretlintRanges(strings.join('\n\n'))
    expect(found.map((f) => f.rule)).toStrictEqual([])
  })
})
