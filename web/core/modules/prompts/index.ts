export {
  resolveSystemPrompt,
  validateSystemPrompt,
  SYSTEM_PROMPT_MAX_CHARS,
  SYSTEM_PROMPT_MIN_CHARS,
  type SystemPromptOptions,
} from './system-prompt';
export {
  AGENTS_MD_FILE,
  AGENTS_MD_MAX_BYTES,
  AGENTS_MD_MAX_CHARS,
  isProjectInstructions,
  loadProjectInstructions,
  projectInstructionsMessage,
  type ProjectInstructionsMeta,
} from './agents-md';
