/**
 * The request header in force, as the harness folds it (`foldRequestHeader` / `canonicalHeader` of
 * `packages/core/session/src/request-header.ts`): the latest `request/header` event wins, and its header is
 * canonicalised (`messagePrefix` and other leftovers dropped, empty `system` / `tools` left out,
 * `adapterDefaults` kept only when one of its flags is set). Then what changed between two headers.
 */

import { isRecord } from '../model/log-event.ts'

/** The canonical header, or null when the event's data carries no header object. */
export function canonicalHeader(data: unknown): Record<string, unknown> | null {
  const header = isRecord(data) ? data['header'] : undefined
  if (!isRecord(header)) return null
  const adapterDefaults = header['adapterDefaults']
  const system = header['system']
  const tools = header['tools']
  const flagged =
    isRecord(adapterDefaults) && (adapterDefaults['reasoningEffort'] === true || adapterDefaults['maxTokens'] === true)
  return {
    config: header['config'],
    ...(flagged ? { adapterDefaults } : {}),
    // The harness tests `.length > 0` on whatever is there (a string system prompt, a tools array).
    ...(system !== undefined && (system as { length?: unknown }).length !== undefined && (system as { length: number }).length > 0
      ? { system }
      : {}),
    ...(tools !== undefined && (tools as { length?: unknown }).length !== undefined && (tools as { length: number }).length > 0
      ? { tools }
      : {}),
  }
}

/** A header field name as the diff reports it. */
export type HeaderField =
  | 'header'
  | 'provider'
  | 'model'
  | 'reasoningEffort'
  | 'config'
  | 'adapterDefaults'
  | 'system'
  | 'tools-added'
  | 'tools-removed'
  | 'tools-changed'

/** Header fields whose change invalidates a provider's prompt cache from the very first token. */
export const PREFIX_FIELDS: ReadonlySet<HeaderField> = new Set<HeaderField>([
  'header',
  'provider',
  'model',
  'system',
  'tools-added',
  'tools-removed',
  'tools-changed',
])

const json = (value: unknown): string => JSON.stringify(value) ?? 'undefined'

function toolName(tool: unknown, i: number): string {
  return isRecord(tool) && typeof tool['name'] === 'string' ? tool['name'] : `#${i}`
}

/**
 * Fields that differ between two canonical headers, in a fixed order: `header` when one side has none;
 * `provider`, `model`, `reasoningEffort` from `config`, then `config` for any other config key; `adapterDefaults`;
 * `system`; `tools-added` / `tools-removed` (by tool name), `tools-changed` (same names, different schemas or order).
 */
export function headerChanges(before: Record<string, unknown> | null, after: Record<string, unknown> | null): HeaderField[] {
  if (before === null && after === null) return []
  if (before === null || after === null) return ['header']
  const changes: HeaderField[] = []
  const a = isRecord(before['config']) ? before['config'] : {}
  const b = isRecord(after['config']) ? after['config'] : {}
  for (const key of ['provider', 'model', 'reasoningEffort'] as const) if (json(a[key]) !== json(b[key])) changes.push(key)
  const rest = (c: Record<string, unknown>) =>
    json(Object.entries(c).filter(([k]) => k !== 'provider' && k !== 'model' && k !== 'reasoningEffort'))
  if (rest(a) !== rest(b) || isRecord(before['config']) !== isRecord(after['config'])) changes.push('config')
  if (json(before['adapterDefaults']) !== json(after['adapterDefaults'])) changes.push('adapterDefaults')
  if (json(before['system']) !== json(after['system'])) changes.push('system')
  const ta = Array.isArray(before['tools']) ? (before['tools'] as unknown[]) : []
  const tb = Array.isArray(after['tools']) ? (after['tools'] as unknown[]) : []
  const na = new Set(ta.map(toolName))
  const nb = new Set(tb.map(toolName))
  const added = [...nb].some((n) => !na.has(n))
  const removed = [...na].some((n) => !nb.has(n))
  if (added) changes.push('tools-added')
  if (removed) changes.push('tools-removed')
  if (!added && !removed && json(ta) !== json(tb)) changes.push('tools-changed')
  return changes
}

/** Names of tools in `after` but not `before`, and the reverse (for the view). */
export function toolNameDiff(
  before: Record<string, unknown> | null,
  after: Record<string, unknown> | null,
): { added: string[]; removed: string[] } {
  const names = (h: Record<string, unknown> | null) =>
    h !== null && Array.isArray(h['tools']) ? (h['tools'] as unknown[]).map(toolName) : []
  const a = names(before)
  const b = names(after)
  return { added: b.filter((n) => !a.includes(n)), removed: a.filter((n) => !b.includes(n)) }
}
