/**
 * Each detector on its own example (made at run time from a seed: src/test-support/planted-secrets.ts) in every way
 * a log writes text: as is, JSON-escaped once (a record's text), inside JSON arguments (escaped twice), with its
 * neighbours, and never on the look-alikes people write instead of a secret.
 */

import { describe, expect, it } from 'vitest'
import { plantedSecrets, plantedValues } from '../../test-support/planted-secrets.ts'
import { SECRET_ANCHORS, SECRET_KINDS, SECRET_PREFILTER, SECRET_RULES, detectSecrets, entropyBits } from './detectors.ts'
import { jsonEscape } from './escapes.ts'
import { maskSecret } from './mask.ts'
import { secretsInString } from './string-secrets.ts'

const summary = (text: string): string[] =>
  secretsInString(text)
    .map((s) => `${s.kind}:${s.value.length}`)
    .sort()

describe('detectors', () => {
  it('have one rule per kind, each with a name', () => {
    expect(SECRET_RULES.map((r) => r.kind).sort()).toStrictEqual([...SECRET_KINDS].sort())
    for (const rule of SECRET_RULES) expect(rule.name.length).toBeGreaterThan(5)
  })

  for (const seed of [1, 2, 3]) {
    for (const planted of plantedSecrets(seed)) {
      it(`find ${planted.kind} (seed ${seed}) as is, escaped and inside JSON arguments`, () => {
        const want = plantedValues(planted)
        for (const text of [planted.text, jsonEscape(planted.text), JSON.stringify({ command: planted.text })]) {
          const found = secretsInString(text)
          expect(found.map((f) => f.kind).sort()).toStrictEqual(want.map((w) => w.kind).sort())
          // Compared by equality, never printed: a failing assertion shows kinds, not values.
          for (const w of want) expect(found.some((f) => f.kind === w.kind && f.value === w.value)).toBe(true)
          SECRET_PREFILTER.lastIndex = 0
          expect(SECRET_PREFILTER.test(text)).toBe(true)
        }
      })
    }
  }

  it('find every secret of a text that holds them all, each once', () => {
    const all = plantedSecrets(7)
    const text = all.map((p) => p.text).join('\n;\n')
    expect(summary(text)).toStrictEqual(all.flatMap((p) => plantedValues(p).map((v) => `${v.kind}:${v.value.length}`)).sort())
  })

  it('leave look-alikes alone: placeholders, templates, prose, identifiers', () => {
    const quiet = [
      'export GITHUB_TOKEN=${GITHUB_TOKEN}',
      'OPENAI_API_KEY=your_api_key_here',
      'PASSWORD=changeme',
      'DB_PASSWORD=<password>',
      'The Authorization header carries a Bearer token issued by the server.',
      'Authorization: Bearer $TOKEN',
      'postgres://user:password@localhost/db',
      'https://user:${PASS}@example.com',
      'const primary_key = rowIdentifier',
      'task-runner sk-learn disk-usage',
      'AWS_SECRET_ACCESS_KEY=AKIAEXAMPLE',
      'SECRET_KEY=[REDACTED:env-assignment:3f9a2c1b]',
      'Authorization: Bearer [REDACTED:jwt:00ff00ff]',
      'eyJhbGciOi is the start of many base64 strings',
      'npm_config_cache=/tmp/npm',
    ]
    for (const text of quiet) expect(summary(text), text).toStrictEqual([])
  })

  it('read a PEM key with real line breaks, with escaped ones, and cut short', () => {
    const key = plantedSecrets(4).find((p) => p.kind === 'private-key')!.value
    expect(summary(key)).toStrictEqual([`private-key:${key.length}`])
    const cut = key.slice(0, key.indexOf('-----END'))
    expect(detectSecrets(`output:\n${cut}`).map((h) => h.kind)).toStrictEqual(['private-key'])
  })

  it('measure entropy in bits per character', () => {
    expect(entropyBits('aaaa')).toBe(0)
    expect(entropyBits('abcd')).toBe(2)
  })

  it('keep anchors lower case and the prefilter case-insensitive', () => {
    for (const anchor of SECRET_ANCHORS) expect(anchor).toBe(anchor.toLowerCase())
    expect(SECRET_PREFILTER.flags).toContain('i')
  })
})

describe('maskSecret', () => {
  it('shows the public marker, two characters and the length, never the rest', () => {
    for (const planted of plantedSecrets(5)) {
      for (const { kind, value } of plantedValues(planted)) {
        const masked = maskSecret(value, kind)
        const shown = masked.slice(0, masked.indexOf('…'))
        expect(masked.endsWith(`(${value.length} chars)`)).toBe(true)
        expect(shown.length).toBeLessThanOrEqual(Math.min(13, Math.floor(value.length / 2)) + 2)
        expect(value.replace(/[\r\n\t]/g, ' ').startsWith(shown)).toBe(true)
      }
    }
  })
})
