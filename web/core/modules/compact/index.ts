// Public face of the compaction module (seed 000 §7): compact.json, the default prompt, the cut planner and the
// hook handlers. Node helpers (reading compact.json and its prompt file) are in ./node.ts.
export {
  DEFAULT_COMPACT_CONFIG,
  MAX_COMPACT_PROMPT_CHARS,
  checkCompactPrompt,
  parseCompactConfig,
  type CompactConfig,
} from './compact-config';
export { DEFAULT_COMPACT_PROMPT, MAX_COMPACT_FOCUS_CHARS, focusInstruction } from './default-prompt';
export { headLength, planCut } from './plan-cut';
export { createCompactModule, summaryMessage, type CompactModuleOptions, type CompactState } from './compact-module';
