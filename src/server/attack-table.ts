/**
 * What the companion server answers to each hostile or broken request: the single source of the attack table in
 * SECURITY.md. `attack-table.test.ts` performs every attempt against a real server and asserts exactly this
 * answer, and checks that SECURITY.md quotes `renderAttackTable()` verbatim, so the document cannot drift.
 */

/** How the server answers: an HTTP refusal, a WebSocket close (after a fatal `error` frame), or a non-fatal `error`. */
export type Answer =
  | { readonly kind: 'http'; readonly status: number; readonly says: string }
  | { readonly kind: 'close'; readonly code: number; readonly reason: string; readonly error?: string; readonly says: string }
  | { readonly kind: 'error'; readonly error: string; readonly says: string }
  | { readonly kind: 'terminate'; readonly says: string }

export interface Attack {
  readonly id: string
  readonly attempt: string
  readonly answer: Answer
}

export const ATTACKS: readonly Attack[] = [
  // Who may connect.
  {
    id: 'token-missing',
    attempt: 'WebSocket upgrade without a token',
    answer: { kind: 'http', status: 401, says: 'missing token' },
  },
  {
    id: 'token-wrong',
    attempt: 'wrong token (query or `dsh-viewer.token.*` subprotocol; compared in constant time)',
    answer: { kind: 'http', status: 401, says: 'wrong token' },
  },
  {
    id: 'cookie-expired',
    attempt: 'WebSocket upgrade with a sign-in cookie past its expiry (7 days)',
    answer: { kind: 'http', status: 401, says: 'sign-in expired' },
  },
  {
    id: 'cookie-forged',
    attempt: "a sign-in cookie whose HMAC is not this token's (another server run, a changed expiry, made up)",
    answer: { kind: 'http', status: 401, says: 'sign-in from another server run' },
  },
  {
    id: 'page-token-wrong',
    attempt: 'the page URL with a wrong `?token=` (no cookie is set)',
    answer: { kind: 'http', status: 401, says: 'wrong token' },
  },
  {
    id: 'origin-foreign',
    attempt: 'a foreign `Origin` (another site, another port, `null`)',
    answer: { kind: 'http', status: 403, says: 'refused' },
  },
  {
    id: 'host-foreign',
    attempt: 'a non-loopback `Host` (DNS rebinding), stream or static files',
    answer: { kind: 'http', status: 403, says: 'is not a loopback name' },
  },
  {
    id: 'host-malformed',
    attempt: '`Host` with userinfo, a path or junk (`127.0.0.1@evil.com`)',
    answer: { kind: 'http', status: 400, says: 'malformed Host header' },
  },
  {
    id: 'wrong-endpoint',
    attempt: 'WebSocket upgrade on any path but `/v1/stream`',
    answer: { kind: 'http', status: 404, says: 'no WebSocket endpoint here' },
  },
  {
    id: 'peer-connections',
    attempt: 'more than `maxConnectionsPerPeer` (16) open stream connections from one address',
    answer: { kind: 'http', status: 429, says: 'too many connections from' },
  },
  // What may be read.
  {
    id: 'path-outside',
    attempt: 'subscribe to a path outside the roots (`/etc/passwd`, a relative path)',
    answer: { kind: 'error', error: 'not-found', says: 'is not a session log below the served paths' },
  },
  {
    id: 'path-dotdot',
    attempt: 'a path with `..` segments, even one that lands back inside a root',
    answer: { kind: 'error', error: 'not-found', says: 'is not a session log below the served paths' },
  },
  {
    id: 'path-encoded',
    attempt: 'percent-encoded `%2e%2e` and double-encoded `%252e%252e` in a path (taken literally, never decoded)',
    answer: { kind: 'error', error: 'not-found', says: 'is not a session log below the served paths' },
  },
  {
    id: 'path-symlink-out',
    attempt: 'a log inside a root that is a symlink to a file outside (realpath first)',
    answer: { kind: 'error', error: 'not-found', says: 'is not a session log below the served paths' },
  },
  {
    id: 'path-device',
    attempt: '`/dev/zero`, a symlink to it inside a root, or a FIFO named `session.jsonl` (never opened, never listed)',
    answer: { kind: 'error', error: 'not-found', says: 'is not a session log below the served paths' },
  },
  {
    id: 'path-tmp',
    attempt: "the harness's `*.tmp` materialization files",
    answer: { kind: 'error', error: 'not-found', says: 'is not a session log below the served paths' },
  },
  {
    id: 'session-outside',
    attempt: 'subscribe by the id of a session that lives outside the roots',
    answer: { kind: 'error', error: 'not-found', says: 'is not a session log below the served paths' },
  },
  {
    id: 'dsh-web-unattached',
    attempt: 'subscribe to a `dsh-web` session on a server started without `--dsh` (a page never names a host itself)',
    answer: { kind: 'error', error: 'not-found', says: 'is not attached to a dsh web host' },
  },
  {
    id: 'static-traversal',
    attempt: 'static files: `/%2e%2e/`, `/%252e%252e/`, `/..%2f..%2f`, a symlink out of `dist/`',
    answer: { kind: 'http', status: 404, says: 'not found' },
  },
  {
    id: 'static-method',
    attempt: 'static files: any method but GET and HEAD',
    answer: { kind: 'http', status: 405, says: 'method not allowed' },
  },
  // What may be sent.
  {
    id: 'frame-oversized',
    attempt: 'a message over 64 KiB (up to the 1 MiB transport cap)',
    answer: {
      kind: 'close',
      code: 1009,
      reason: 'message-too-large',
      error: 'message-too-large',
      says: 'exceeds the 65536-byte limit',
    },
  },
  {
    id: 'frame-huge',
    attempt: 'a message over the 1 MiB transport cap (dropped unread by `ws`)',
    answer: { kind: 'close', code: 1009, reason: '', says: 'Max payload size exceeded' },
  },
  {
    id: 'frame-binary',
    attempt: 'a binary frame',
    answer: { kind: 'close', code: 1008, reason: 'bad-request', error: 'bad-request', says: 'binary frames are not part of' },
  },
  {
    id: 'frame-not-json',
    attempt: 'a text frame that is not JSON',
    answer: { kind: 'close', code: 1008, reason: 'bad-request', error: 'bad-request', says: 'message is not JSON' },
  },
  {
    id: 'frame-not-object',
    attempt: 'JSON that is not an object (`[]`, `"x"`, `null`, `42`)',
    answer: { kind: 'close', code: 1008, reason: 'bad-request', error: 'bad-request', says: 'message must be a JSON object' },
  },
  {
    id: 'frame-wrong-types',
    attempt: 'fields of the wrong type (`window:"x"`, a `sub` id with spaces, `protocol:"1"`)',
    answer: { kind: 'close', code: 1008, reason: 'bad-request', error: 'bad-request', says: 'must' },
  },
  {
    id: 'message-unknown',
    attempt: 'an unknown message type',
    answer: { kind: 'close', code: 1008, reason: 'bad-request', error: 'bad-request', says: 'unknown message type' },
  },
  {
    id: 'before-hello',
    attempt: 'any message before `hello`',
    answer: { kind: 'close', code: 1008, reason: 'bad-request', error: 'bad-request', says: 'the first message must be hello' },
  },
  {
    id: 'protocol-version',
    attempt: '`hello` with another protocol version',
    answer: {
      kind: 'close',
      code: 1008,
      reason: 'unsupported-protocol',
      error: 'unsupported-protocol',
      says: 'this server speaks',
    },
  },
  {
    id: 'subscriptions',
    attempt: 'more than `maxSubscriptions` (32) subscriptions on one connection',
    answer: { kind: 'error', error: 'too-many-subscriptions', says: 'at most' },
  },
  // What may be held.
  {
    id: 'slow-consumer',
    attempt: 'a client that stops reading: unread bytes above the 8 MiB high-water mark for `stallMs` (15 s)',
    answer: { kind: 'close', code: 1008, reason: 'slow-consumer', error: 'slow-consumer', says: 'unread for' },
  },
  {
    id: 'silent-peer',
    attempt: 'a peer that answers neither pings nor app pings for `deadMs` (30 s)',
    answer: { kind: 'terminate', says: 'terminated: silent for' },
  },
]

function describe(answer: Answer): string {
  switch (answer.kind) {
    case 'http':
      return `HTTP ${answer.status}`
    case 'close':
      return `${answer.error === undefined ? '' : `\`error {code:"${answer.error}", fatal:true}\`, then `}close ${answer.code}${answer.reason === '' ? ' (no reason)' : ` \`${answer.reason}\``}`
    case 'error':
      return `\`error {code:"${answer.error}", fatal:false}\`; the connection stays open`
    case 'terminate':
      return 'socket terminated (the peer is gone; no close frame)'
  }
}

/** The markdown table SECURITY.md quotes between its `attack-table` markers. */
export function renderAttackTable(): string {
  const rows = ATTACKS.map((a) => `| \`${a.id}\` | ${a.attempt} | ${describe(a.answer)} | ${a.answer.says} |`)
  return ['| id | attempt | answer | message contains |', '| --- | --- | --- | --- |', ...rows].join('\n')
}

export const TABLE_START =
  '<!-- attack-table:start (generated from src/server/attack-table.ts; checked by attack-table.test.ts) -->'
export const TABLE_END = '<!-- attack-table:end -->'
