// Public face of web/core/hooks: the seed 000 §6 lifecycle events, their data shapes and the pipeline.
export { HookPipeline, abortError } from './pipeline';
export { transportHooksOf } from './transport-hooks';
export { hookDataCheck, messageSchema } from './data-schemas';
export { HOOK_EVENTS } from './types';
export type { HookContext, HookDataMap, HookEvent, HookHandler, BudgetEstimate, BudgetSettings } from './types';
export { manifestHookHandler, type RemoteHookCall } from './manifest-handler';
