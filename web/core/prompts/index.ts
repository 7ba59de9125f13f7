// Public face of web/core/prompts: the embedded default system prompt. Choosing, validating and substituting it
// lives in web/core/modules/prompts.
export { DEFAULT_SYSTEM_PROMPT } from './default-system-prompt';
