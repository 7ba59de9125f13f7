// Public face of web/core/approval: the gate every tool call passes, its settings and the edit snapshot contract.
export { decideApproval, defaultDecision, PERSON_REASON_MAX_CHARS, type GateInput } from './gate';
export { takeFileSnapshot, assertUnchanged, isFileSnapshot, type FileSnapshot } from './snapshot';
export { DEFAULT_APPROVAL } from './types';
export {
  allowsCommand,
  checkCommandPrefix,
  commandMatches,
  literalWords,
  shellAutoAsks,
  shellCommandOf,
  SHELL_TOOL,
  type CommandMatch,
} from './command-rules';
export {
  checkRules,
  describeRule,
  parseRules,
  RuleSet,
  ruleGlob,
  scopedRules,
  FILE_WRITE_TOOLS,
  MAX_RULES,
  PATH_RULE_TOOLS,
  PATHLESS_RULE_TOOLS,
  type ApprovalRule,
  type DecidingRule,
  type RuleScope,
  type RuleTarget,
  type ScopedRule,
} from './rules';
export type {
  ApprovalAnswer,
  ApprovalDecision,
  ApprovalOutcome,
  ApprovalRequest,
  ApprovalSettings,
  AskPerson,
} from './types';
