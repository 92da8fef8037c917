/**
 * What of a request header decides whether a provider's prefix cache can be reused: provider, model, system prompt and
 * tools, kept small (hashes and tool names) so a digest can hold it between reads of a growing log. `prefixChanges`
 * of two fingerprints is exactly `headerChanges` of the two headers restricted to the prefix fields (a unit test holds
 * them together), so the viewer's Request view and the cost answer name a break the same way.
 */

import { isRecord } from '../model/log-event.ts'
import type { HeaderField } from '../request/request-header.ts'

export interface HeaderFingerprint {
  /** `config.provider` / `config.model` when they are strings (what pricing reads), else null. */
  readonly provider: string | null
  readonly model: string | null
  /** JSON of `config.provider` / `config.model` as logged (any type), as `headerChanges` compares them. */
  readonly providerJson: string
  readonly modelJson: string
  readonly systemHash: string
  readonly toolNames: readonly string[]
  readonly toolsHash: string
}

const json = (value: unknown): string => JSON.stringify(value) ?? 'undefined'

/** cyrb53: a 53-bit string hash, enough to tell two system prompts or tool lists apart. */
function hash(text: string): string {
  let h1 = 0xdeadbeef
  let h2 = 0x41c6ce57
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i)
    h1 = Math.imul(h1 ^ c, 2654435761)
    h2 = Math.imul(h2 ^ c, 1597334677)
  }
  h1 = Math.imul(h1 ^ (h1 >>> 16), 2246822507) ^ Math.imul(h2 ^ (h2 >>> 13), 3266489909)
  h2 = Math.imul(h2 ^ (h2 >>> 16), 2246822507) ^ Math.imul(h1 ^ (h1 >>> 13), 3266489909)
  return (4294967296 * (2097151 & h2) + (h1 >>> 0)).toString(36) + `:${text.length}`
}

function toolName(tool: unknown, i: number): string {
  return isRecord(tool) && typeof tool['name'] === 'string' ? tool['name'] : `#${i}`
}

/** The fingerprint of a canonical header (`canonicalHeader`'s result), or null for none. */
export function headerFingerprint(header: Record<string, unknown> | null): HeaderFingerprint | null {
  if (header === null) return null
  const config = isRecord(header['config']) ? header['config'] : {}
  const tools = Array.isArray(header['tools']) ? (header['tools'] as unknown[]) : []
  return {
    provider: typeof config['provider'] === 'string' ? config['provider'] : null,
    model: typeof config['model'] === 'string' ? config['model'] : null,
    providerJson: json(config['provider']),
    modelJson: json(config['model']),
    systemHash: hash(json(header['system'])),
    toolNames: tools.map(toolName),
    toolsHash: hash(json(tools)),
  }
}

/** The prefix fields that differ between two headers, in `headerChanges`' order. */
export function prefixChanges(before: HeaderFingerprint | null, after: HeaderFingerprint | null): HeaderField[] {
  if (before === null && after === null) return []
  if (before === null || after === null) return ['header']
  const changes: HeaderField[] = []
  if (before.providerJson !== after.providerJson) changes.push('provider')
  if (before.modelJson !== after.modelJson) changes.push('model')
  if (before.systemHash !== after.systemHash) changes.push('system')
  const a = new Set(before.toolNames)
  const b = new Set(after.toolNames)
  const added = [...b].some((n) => !a.has(n))
  const removed = [...a].some((n) => !b.has(n))
  if (added) changes.push('tools-added')
  if (removed) changes.push('tools-removed')
  if (!added && !removed && before.toolsHash !== after.toolsHash) changes.push('tools-changed')
  return changes
}
