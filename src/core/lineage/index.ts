/** Sessions that belong together: facts read from each log, the parent/child tree, fork seed checks. */

export { LineageFactCollector, collectLineageFacts, type LineageFacts, type ToolCallFact } from './lineage-facts.ts'
export {
  buildSessionTree,
  type LineageInput,
  type SessionKind,
  type SessionNode,
  type SessionTree,
  type StartLink,
  type StartVia,
} from './session-tree.ts'
export { checkSeedPrefix, type SeedCheck } from './seed-prefix.ts'
export { LineageScanner } from './lineage-scan.ts'
export { SessionDigestCollector, digestLines, type SessionDigest } from './session-digest.ts'
export { sessionKindOf } from './session-kind.ts'
