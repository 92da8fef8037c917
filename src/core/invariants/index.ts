export { InvariantChecker } from './invariant-checker.ts'
export { INVARIANT_CODES, type InvariantCode, type InvariantFinding } from './finding.ts'
