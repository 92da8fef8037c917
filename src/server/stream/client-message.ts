/** Validation of inbound `dsh-viewer.v1` messages: untrusted JSON in, a typed message or a precise complaint out. */

import type { ClientMessage, ResumeEntry, SourceRef } from '../../live/protocol.ts'
import { SESSION_ID_MAX, SOURCE_PATH_MAX } from '../../live/source-limits.ts'

export type Parsed = { readonly ok: true; readonly message: ClientMessage } | { readonly ok: false; readonly why: string }

const SUB_ID = /^[A-Za-z0-9._:-]{1,64}$/

function fail(why: string): Parsed {
  return { ok: false, why }
}

function isSeq(value: unknown): value is number {
  return typeof value === 'number' && Number.isSafeInteger(value) && value >= -1
}

function source(value: unknown): SourceRef | string {
  if (typeof value !== 'object' || value === null) return 'source must be an object'
  const v = value as Record<string, unknown>
  if (v['kind'] === 'dsh-web') {
    // A host session is named by id only: the page never names a host (the server has one upstream, from --dsh).
    return typeof v['sessionId'] === 'string' && v['sessionId'].length <= SESSION_ID_MAX
      ? { kind: 'dsh-web', sessionId: v['sessionId'] }
      : 'a dsh-web source must have a string sessionId'
  }
  if (v['kind'] !== 'file') return 'source.kind must be "file" or "dsh-web"'
  if (typeof v['sessionId'] === 'string' && v['sessionId'].length <= SESSION_ID_MAX)
    return { kind: 'file', sessionId: v['sessionId'] }
  if (typeof v['path'] === 'string' && v['path'].length <= SOURCE_PATH_MAX) return { kind: 'file', path: v['path'] }
  return 'source must have a string sessionId or path'
}

function resumeEntry(value: unknown): ResumeEntry | string {
  if (typeof value !== 'object' || value === null) return 'resume entries must be objects'
  const v = value as Record<string, unknown>
  const src = source(v['source'])
  if (typeof src === 'string') return src
  if (typeof v['sub'] !== 'string' || !SUB_ID.test(v['sub'])) return 'resume[].sub must match [A-Za-z0-9._:-]{1,64}'
  if (typeof v['epoch'] !== 'string' || !isSeq(v['lastSeq']))
    return 'resume[] must have epoch (string) and lastSeq (integer >= -1)'
  const window = v['window']
  if (window !== undefined && !(typeof window === 'number' && Number.isSafeInteger(window) && window > 0))
    return 'window must be a positive integer'
  return { sub: v['sub'], source: src, epoch: v['epoch'], lastSeq: v['lastSeq'], ...(window === undefined ? {} : { window }) }
}

export function parseClientMessage(text: string): Parsed {
  let value: unknown
  try {
    value = JSON.parse(text)
  } catch {
    return fail('message is not JSON')
  }
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return fail('message must be a JSON object')
  const v = value as Record<string, unknown>
  switch (v['type']) {
    case 'hello': {
      if (typeof v['protocol'] !== 'number') return fail('hello.protocol must be a number')
      const resume: ResumeEntry[] = []
      if (v['resume'] !== undefined) {
        if (!Array.isArray(v['resume']) || v['resume'].length > 32)
          return fail('hello.resume must be an array of at most 32 entries')
        for (const entry of v['resume']) {
          const parsed = resumeEntry(entry)
          if (typeof parsed === 'string') return fail(parsed)
          resume.push(parsed)
        }
      }
      return {
        ok: true,
        message: {
          type: 'hello',
          protocol: v['protocol'],
          resume,
          ...(typeof v['client'] === 'string' ? { client: v['client'] } : {}),
        },
      }
    }
    case 'content-search': {
      if (typeof v['req'] !== 'string' || v['req'].length > 64) return fail('content-search.req must be a string (<= 64 chars)')
      if (typeof v['query'] !== 'string' || v['query'].length > 1024)
        return fail('content-search.query must be a string (<= 1024 chars)')
      const limit = v['limit']
      if (limit !== undefined && !(typeof limit === 'number' && Number.isSafeInteger(limit) && limit > 0 && limit <= 100))
        return fail('content-search.limit must be an integer from 1 to 100')
      return {
        ok: true,
        message: { type: 'content-search', req: v['req'], query: v['query'], ...(limit === undefined ? {} : { limit }) },
      }
    }
    case 'list':
    case 'watch-sessions':
    case 'unwatch-sessions':
    case 'watch-index':
    case 'unwatch-index':
      return typeof v['req'] === 'string' && v['req'].length <= 64
        ? { ok: true, message: { type: v['type'], req: v['req'] } }
        : fail(`${v['type']}.req must be a string (<= 64 chars)`)
    case 'subscribe': {
      if (typeof v['sub'] !== 'string' || !SUB_ID.test(v['sub'])) return fail('subscribe.sub must match [A-Za-z0-9._:-]{1,64}')
      const src = source(v['source'])
      if (typeof src === 'string') return fail(src)
      const fromSeq = v['fromSeq']
      if (fromSeq !== undefined && !(isSeq(fromSeq) && fromSeq >= 0))
        return fail('subscribe.fromSeq must be a non-negative integer')
      if (v['epoch'] !== undefined && typeof v['epoch'] !== 'string') return fail('subscribe.epoch must be a string')
      const window = v['window']
      if (window !== undefined && !(typeof window === 'number' && Number.isSafeInteger(window) && window > 0))
        return fail('subscribe.window must be a positive integer')
      return {
        ok: true,
        message: {
          type: 'subscribe',
          sub: v['sub'],
          source: src,
          ...(fromSeq === undefined ? {} : { fromSeq }),
          ...(typeof v['epoch'] === 'string' ? { epoch: v['epoch'] } : {}),
          ...(window === undefined ? {} : { window }),
        },
      }
    }
    case 'ack':
      return typeof v['sub'] === 'string' && isSeq(v['seq'])
        ? { ok: true, message: { type: 'ack', sub: v['sub'], seq: v['seq'] } }
        : fail('ack must have a string sub and an integer seq')
    case 'unsubscribe':
      return typeof v['sub'] === 'string'
        ? { ok: true, message: { type: 'unsubscribe', sub: v['sub'] } }
        : fail('unsubscribe.sub must be a string')
    case 'ping':
    case 'pong':
      return typeof v['t'] === 'number'
        ? { ok: true, message: { type: v['type'], t: v['t'] } }
        : fail(`${v['type']}.t must be a number`)
    default:
      return fail(`unknown message type ${JSON.stringify(v['type'])}`)
  }
}
