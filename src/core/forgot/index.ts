/** What a compaction forgot (issue 31 §3): the facts live at a summary that it does not carry. */

export {
  compactionsForgot,
  type CompactionForgot,
  type Forgot,
  type ForgottenFile,
  type ForgottenTodo,
  type ForgottenGoal,
  type ForgottenRequest,
  type ForgottenCall,
} from './compaction-forgot.ts'
export { FactText, normalizeFact, fileNameOf } from './fact-text.ts'
