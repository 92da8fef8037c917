/**
 * The header line (line 1): parsed and judged in the harness's order (reference
 * 1.2): a foreign version is refused before any shape check, then `isHeaderLine`,
 * the retired policy keys, then `validateRestoredSessionHeader`.
 */

import { HEADER } from '../model/harness-messages.ts'
import type { Diagnostic } from '../model/diagnostic.ts'
import type { SessionHeader } from '../model/log-event.ts'

export interface HeaderVerdict {
  /** The header as parsed when it is a JSON object with `type:"session"`, else null. */
  readonly header: SessionHeader | null
  /** The first rule it breaks, or undefined when the harness accepts it. */
  readonly defect?: Pick<Diagnostic, 'code' | 'message'>
}

function isNonNegativeSafeInt(value: unknown): boolean {
  return typeof value === 'number' && Number.isSafeInteger(value) && value >= 0 && !Object.is(value, -0)
}

function isHeaderLine(value: Record<string, unknown>): boolean {
  return (
    value['type'] === 'session' &&
    typeof value['version'] === 'number' &&
    typeof value['id'] === 'string' &&
    isNonNegativeSafeInt(value['createdAt']) &&
    isNonNegativeSafeInt(value['delegationDepth']) &&
    (value['origin'] === undefined || value['origin'] === 'subagent') &&
    (value['agentPreset'] === undefined || typeof value['agentPreset'] === 'string')
  )
}

/** `validateRestoredSessionHeader`, minus the requested-id comparison (a viewer has no requested id). */
function validateHeader(record: Record<string, unknown>): string | undefined {
  const prototype = Reflect.getPrototypeOf(record)
  if (prototype !== Object.prototype && prototype !== null) return HEADER.notPlain
  if (record['version'] !== 0) return `session header version must be 0, got ${String(record['version'])}`
  const createdAt = record['createdAt']
  if (typeof createdAt !== 'number' || !Number.isSafeInteger(createdAt) || createdAt < 0) return HEADER.createdAt
  const cwd = record['cwd']
  if (cwd !== undefined) {
    if (typeof cwd !== 'string') return HEADER.cwdType
    // The harness runs node:path isAbsolute; on the POSIX hosts it ships for, that is a leading '/'.
    if (!cwd.startsWith('/')) return HEADER.cwdAbsolute(cwd)
  }
  if (record['parentSession'] !== undefined && typeof record['parentSession'] !== 'string') return HEADER.parentSession
  const seedLength = record['seedLength']
  if (seedLength !== undefined && !(typeof seedLength === 'number' && Number.isSafeInteger(seedLength) && seedLength >= 0)) {
    return HEADER.seedLength
  }
  if (record['origin'] !== undefined && record['origin'] !== 'subagent') return HEADER.origin
  const depth = record['delegationDepth']
  if (depth !== undefined && !(typeof depth === 'number' && Number.isSafeInteger(depth) && depth >= 0)) {
    return HEADER.delegationDepth
  }
  if (record['agentPreset'] !== undefined && typeof record['agentPreset'] !== 'string') return HEADER.agentPreset
  return undefined
}

/** Judge the text of line 1. */
export function judgeHeaderLine(text: string): HeaderVerdict {
  let parsed: unknown
  try {
    parsed = JSON.parse(text)
  } catch {
    return { header: null, defect: { code: 'header-invalid-json', message: HEADER.invalidJson } }
  }
  const record =
    typeof parsed === 'object' && parsed !== null && !Array.isArray(parsed) ? (parsed as Record<string, unknown>) : null
  const header = record !== null && record['type'] === 'session' ? (record as SessionHeader) : null
  if (record !== null) {
    const { version, id } = record
    if (typeof version === 'number' && version !== 0) {
      return {
        header,
        defect: { code: 'header-version', message: HEADER.versionRefusal(typeof id === 'string' ? id : String(id), version) },
      }
    }
  }
  if (record === null || !isHeaderLine(record)) {
    return { header, defect: { code: 'header-not-session', message: HEADER.notSession } }
  }
  if (Object.hasOwn(record, 'sandboxMode') || Object.hasOwn(record, 'approvalPolicy')) {
    return { header, defect: { code: 'header-retired-fields', message: HEADER.retired } }
  }
  const invalid = validateHeader(record)
  return invalid === undefined ? { header } : { header, defect: { code: 'header-invalid', message: invalid } }
}
