/**
 * Every message text the harness produces that dsh-lens reproduces, kept once and
 * verbatim (format reference sections 1.2-1.7, 3.1, 3.2) so the fold, the decoder,
 * the UI and the tests quote the same string. Changing a text here is a
 * compatibility change with the harness, never a wording fix.
 */

export const HEADER = {
  missing: 'empty or header-less session log',
  invalidJson: 'corrupt session log: header line is not valid JSON',
  notSession: 'corrupt session log: first line is not a session header',
  retired: 'session header uses retired policy baseline fields',
  notPlain: 'session header is not a plain JSON record',
  createdAt: 'session header createdAt must be a non-negative safe integer',
  cwdType: 'session header cwd must be a string',
  cwdAbsolute: (cwd: string) => `session header cwd must be an absolute path, got "${cwd}"`,
  parentSession: 'session header parentSession must be a string',
  seedLength: 'session header seedLength must be a non-negative safe integer',
  origin: 'session header origin must be "subagent"',
  delegationDepth: 'session header delegationDepth must be a non-negative safe integer',
  agentPreset: 'session header agentPreset must be a string',
  versionRefusal: (id: string, version: number) =>
    version > 0
      ? `session "${id}" uses log format v${version}, but this harness reads only v0: the log was written by a newer harness — upgrade the harness to open it`
      : `session "${id}" uses log format v${version}, older than the supported v0, and this build ships no upgrade path for it`,
} as const

export const SCANNER = {
  unparsable: (bodyLine: number) => `corrupt session log: unparsable committed event at line ${bodyLine}`,
  seqGap: (bodyLine: number, expected: number, got: unknown) =>
    `corrupt session log: seq gap in committed region at line ${bodyLine} (expected ${expected}, got ${String(got)})`,
} as const

export const ZSTD = {
  invalidMagic: (offset: number) => `corrupt Zstandard session log: invalid frame magic at byte ${offset}`,
  reservedBit: (offset: number) => `corrupt Zstandard session log: reserved frame-header bit at byte ${offset}`,
  reservedBlock: (offset: number) => `corrupt Zstandard session log: reserved block type at byte ${offset}`,
  empty: 'empty or header-less Zstandard session log',
  headerFrame: 'corrupt Zstandard session log: first frame is not exactly one header line',
  tornRecord: 'corrupt Zstandard session log: complete frame contains a torn JSONL record',
  // The harness wraps Node's zlib error here; its text is not stable (reference 9.2),
  // so the detail after the colon is ours.
  frameCorrupt: (offset: number, detail: string) =>
    `corrupt Zstandard session log: frame at byte ${offset} failed validation: ${detail}`,
} as const

export const PACKED_ROW = {
  malformed: (tag: string, why: string) => `malformed ${tag} storage row: ${why}`,
  envelope: 'envelope must be exactly {type, seq0, time0, data}',
  seq0: 'seq0 must be a non-negative safe integer',
  time0: 'time0 must be a safe integer',
  dataObject: 'data must be an object',
  toolData: 'data must be exactly {turn, step, index, id, name?, dt, args}',
  toolIds: 'id (and name when present) must be strings',
  textData: 'data must be exactly {turn, step, index, dt, texts}',
  numbers: 'turn/step/index must be numbers',
  payload: (key: string) => `${key} must be a non-empty string array`,
  dt: 'dt must be an array of safe integers',
  dtLength: (dt: number, members: number) => `dt length ${dt} does not match ${members} members`,
  memberSeqs: 'member seqs must stay safe integers',
  memberTimes: 'member times must stay safe integers',
} as const

export const LEGACY = {
  headerDelta: (id: string, seq: unknown) =>
    `session "${id}" contains unsupported legacy request/header-delta event at seq ${String(seq)}`,
  modeSet: (id: string, seq: unknown) => `session "${id}" contains unsupported legacy mode/set event at seq ${String(seq)}`,
  fallback: (id: string, seq: unknown) =>
    `session "${id}" contains unsupported legacy request/header reason "fallback" at seq ${String(seq)}`,
  turnStart: (id: string, seq: unknown) => `session "${id}" contains malformed pre-react-loop turn/start at seq ${String(seq)}`,
  turnEnd: (id: string, seq: unknown) => `session "${id}" contains malformed pre-react-loop turn/end at seq ${String(seq)}`,
  steering: (id: string, seq: unknown) =>
    `session "${id}" contains malformed pre-react-loop steering/message at seq ${String(seq)}`,
} as const

/** Load-time rules of the harness's `Session` constructor (reference 3.2). */
export const LOAD = {
  envelope: (index: number) => `seed event at index ${index} has an invalid event envelope`,
  headerDelta: (index: number) => `seed event at index ${index} uses unsupported legacy request/header-delta format`,
  fallback: (index: number) => `seed event at index ${index} uses unsupported legacy request/header reason "fallback"`,
  seq: (index: number, seq: unknown) =>
    `seed event at index ${index} has seq ${String(seq)} (expected ${index}); seed must be contiguous from 0`,
  surface: (index: number, message: string) => `invalid seed event at index ${index}: ${message}`,
  lacksProviderModel: (index: number) => `seed request/header at index ${index} lacks provider/model`,
  reasoningEffort: (index: number) => `seed request/header at index ${index} has an invalid reasoningEffort`,
  adapterDefaults: (index: number) => `seed request/header at index ${index} has invalid adapterDefaults`,
  lacksMessage: (subject: string) => `${subject} lacks an identified message`,
  role: (subject: string, role: string) => `${subject} message must have role "${role}"`,
  source: (subject: string) => `${subject} message has invalid source`,
  content: (subject: string) => `${subject} message has invalid content`,
  modelSource: (subject: string) => `${subject} message must have model source`,
  toolSource: (subject: string) => `${subject} message must have tool source`,
  oneToolResult: (subject: string) => `${subject} message must contain one tool-result block`,
  callIds: (subject: string) => `${subject} message has mismatched tool call ids`,
  // Our wording: the harness refuses the log with SessionFormatUnsupportedError, whose
  // exact text for an unknown type is not in the reference.
  // (Ours, so it never says "seq undefined": an event with no seq is said to have none.)
  unknownType: (type: string, seq: unknown) =>
    `event type "${type}" ${typeof seq === 'number' ? `at seq ${seq}` : seq === undefined ? 'with no seq' : `with seq ${JSON.stringify(seq) ?? typeof seq}`} is unknown to harness 0.1.1-rc.2 and not marked ignorable: the harness refuses to interpret this log`,
} as const

/** The 18 surface-fold checks of `foldSurface` (reference 3.1), in the harness's order. */
export const FOLD = {
  notContiguous: (seq: unknown, expected: number) => `session event seq ${String(seq)} is not contiguous; expected ${expected}`,
  notEligibleOp: (type: unknown) => `session event "${String(type)}" is not surface-eligible and cannot carry surfaceOp`,
  notEligibleSources: (type: unknown) =>
    `session event "${String(type)}" is not surface-eligible and cannot carry sourceEventSeqs`,
  requiresOp: (type: unknown) => `session event "${String(type)}" is surface-eligible and requires a surfaceOp marker`,
  invalidOp: (type: unknown) => `session event "${String(type)}" carries an invalid surfaceOp`,
  invalidReplace: (type: unknown) => `session event "${String(type)}" carries an invalid replace surfaceOp`,
  startNotFound: (start: number) => `surface replace: start seq ${start} not found in surface`,
  endNotFound: (end: number) => `surface replace: end seq ${end} not found in surface`,
  startAfterEnd: (start: number, startIdx: number, end: number, endIdx: number) =>
    `surface replace: start seq ${start} (index ${startIdx}) is after end seq ${end} (index ${endIdx})`,
  sourcesNotArray: (seq: unknown) => `sourceEventSeqs on event at seq ${String(seq)} must be an array when present`,
  sourcesEmpty: 'sourceEventSeqs must not be empty except on assistant/message',
  sourcesDense: (type: unknown) =>
    `session event "${String(type)}" sourceEventSeqs must densely contain non-negative safe integers`,
  sourcesDuplicates: 'sourceEventSeqs must not contain duplicates',
  sourcesNotEarlier: (value: number, seq: unknown) =>
    `sourceEventSeqs must reference earlier events: ${value} >= current seq ${String(seq)}`,
  sourcesMissing: (missing: readonly number[]) =>
    `surface replace: sourceEventSeqs must include every shadowed surface node; missing ${missing.join(', ')}`,
  rewriteOneNode: 'tool/result surface replacement must rewrite exactly one current node',
  rewriteTarget: 'tool/result surface replacement must target a current tool/result',
  rewriteContentOnly: 'tool/result surface replacement may change only content',
} as const
