/** The protocol's one inbound check: every known type passes, anything else (or another version) is refused. */

import { describe, expect, it } from 'vitest'
import { PROTOCOL_VERSION, parseRequest, parseResponse } from './messages.ts'

describe('parseRequest / parseResponse', () => {
  it('accepts a load without an id and a query with one', () => {
    const load = { v: PROTOCOL_VERSION, type: 'load-end', loadId: 3 }
    expect(parseRequest(load)).toBe(load)
    const query = { v: PROTOCOL_VERSION, type: 'state-at', id: 1, index: 0 }
    expect(parseRequest(query)).toBe(query)
    const reply = { v: PROTOCOL_VERSION, type: 'reply', id: 1, ok: true, result: null }
    expect(parseResponse(reply)).toBe(reply)
  })

  it('refuses a query without an id, another version, and types that are not in the unions', () => {
    expect(() => parseRequest({ v: PROTOCOL_VERSION, type: 'state-at', index: 0 })).toThrow('state-at without an id')
    expect(() => parseRequest({ v: PROTOCOL_VERSION - 1, type: 'load-end', loadId: 1 })).toThrow('protocol version')
    // Names every object has are not message types.
    for (const type of ['toString', '__proto__', 'constructor', 'hasOwnProperty', 'reply', 'bogus']) {
      expect(() => parseRequest({ v: PROTOCOL_VERSION, type, id: 1 })).toThrow('unknown message type')
    }
    for (const type of ['toString', 'state-at']) {
      expect(() => parseResponse({ v: PROTOCOL_VERSION, type, id: 1 })).toThrow('unknown message type')
    }
    expect(() => parseRequest(null)).toThrow('not an object')
  })
})
