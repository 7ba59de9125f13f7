// Public face of the model config: parsing/validation of the seed 000 §4 file and the cross-setting checks.
export { parseModelConfig, MODEL_CONFIG_DEFAULTS } from './model-config';
export type { ModelConfig, BudgetConfig, ProviderBinding } from './model-config';
export { checkResponsesHook, checkBudgetConfig, resolveProvider, LEGACY_RESPONSES_MODULES } from './config-checks';
export type { ProviderResolution } from './config-checks';
