/** Request reconstruction per step (issue 8 §1): what the harness sent at each step, and the diff with the step before. */

export { stepRequest, stepList, firstMessageDifference, CACHE_WARNING_RATIO, CACHE_WARNING_MIN_TOKENS } from './step-request.ts'
export type { StepRequestJson, StepListEntry, RequestDiff, RequestMessage, CacheWarning } from './step-request.ts'
export { locateStep, findStepPosition, stepPositionAt, stepSpans, type LocatedStep, type RequestBoundary } from './step-locate.ts'
export { canonicalHeader, headerChanges, toolNameDiff, PREFIX_FIELDS, type HeaderField } from './request-header.ts'
export {
  requestRejections,
  rejectionCodes,
  REJECTION_CODES,
  PROVIDER_ANSWERS,
  REJECTION_RULES,
  type Rejection,
  type RejectionCode,
} from './request-rejections.ts'
export { sweepRequests, type SweptRequest } from './rejection-sweep.ts'
export { wireShapeOf, type WireShape } from './wire-shape.ts'
export { stepsInRanges, stepMarks, type StepMark, type SpanSteps } from './steps-in-ranges.ts'
export { stepsLabel } from './steps-label.ts'
export {
  messageText,
  messageTextDiff,
  diffParts,
  CONTEXT_LINES,
  DIFF_SURE_EDIT_LENGTH,
  DIFF_TIMEOUT_MS,
  DIFF_MAX_EDIT_LENGTH,
  PART_TEXT_MAX,
  DIFF_TEXT_MAX,
  type MessageTextDiff,
  type TextDiffPart,
} from './message-text-diff.ts'
