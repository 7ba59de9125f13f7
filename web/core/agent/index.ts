// Public face of web/core/agent: the turn loop over an injected model stream, its events and results.
// profile-hooks.ts is imported by path (headless, app-agent), not re-exported: it reaches into web/core/modules,
// whose tool names import tools/builtin, which imports this index (an import cycle).
export { runTurn, DEFAULT_MAX_STEPS } from './loop';
export { validateBatch, parseArguments, type ValidCall, type BatchProblem, type BatchVerdict } from './batch';
export { checkImage, checkToolImages, sniffImage, MAX_IMAGE_BYTES, MAX_IMAGES_PER_BATCH } from '../contracts';
export {
  budgetOf,
  estimateBudget,
  estimateBytes,
  triggerOf,
  truncateToBytes,
  DEFAULT_BUDGET,
  UNBUDGETED,
} from './budget';
export type * from './types';
export { transportStream, type TransportStreamOptions } from '../transport';
export { openSessionForTurn, type OpenedSession } from './open-session';
export {
  boundedOutput,
  resultSourceId,
  sessionResultViews,
  turnResultViews,
  RESULT_SCOPE_TTL_MS,
  RESULT_STORE_LIMITS,
  SESSION_RESULT_STORE_LIMITS,
  SESSION_RESULT_TTL_MS,
  SESSION_TASK_ID,
  type ResultViews,
  type TurnResultViews,
} from './result-views';
export { createContextMeter, type ContextMeter } from './context-meter';
export { CONTEXT_PART_KINDS, contextBreakdown, type BreakdownInput, type ToolSource } from './context-breakdown';
export { profileHooks, type ProfileHooks } from './profile-hooks';
