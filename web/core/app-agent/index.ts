// Public face of web/core/app-agent: the browser composition of loop, transport, tools, sessions and approval,
// the agent's settings (model config, approval mode) and the interrupted-turn journal.
export { createAppAgent, registerToolSource, modelSettingsOf, approvalSettingsOf } from './create-app-agent';
export { budgetOf } from '../agent';
export type { AppAgent, AppAgentOptions, RunningTurn, StartTurn, ToolSource } from './create-app-agent';
export {
  readAgentSettings,
  readStoredModel,
  saveModel,
  saveApprovalMode,
  saveApprovalRules,
  addApprovalRule,
  readApprovalRules,
  readStoredApprovalRules,
  checkModelConfig,
  APPROVAL_MODES,
  AGENT_GLOBAL_SCOPE,
  agentWorkspaceScope,
  checkAgentModules,
  saveAgentModules,
  readStoredModules,
  DEFAULT_AGENT_MODULES,
} from './agent-settings';
export type {
  AgentSettings,
  ApprovalMode,
  EffectiveModel,
  StoredModel,
  AgentModules,
  StoredModules,
} from './agent-settings';
export {
  exportAllSettings,
  importAllSettings,
  previewAllSettingsImport,
  exportAgentSettings,
  AGENT_SETTINGS_SECTION,
} from './settings-transfer';
export type { AgentSettingsExport, AgentScopeExport } from './settings-transfer';
export { readJournal, clearJournal, ranCalls } from './batch-journal';
export type { TurnJournal, JournalCall, CallState } from './batch-journal';
export { thinkingOf } from './thinking';
export {
  skillCatalogWith,
  idbSkillWorkspaceOpener,
  MAX_SKILL_WORKSPACES,
  type SkillWorkspaceOpener,
} from './skill-workspaces';
export { pairedBridge } from './bridge-endpoint';
export type { AskWrite, ConnectedBridge, PluginWriteRequest } from './turn-extensions';
export {
  type FileChange,
  type FileVersions,
  type RevertOp,
  type RewindMode,
  type RewindResult,
  type SessionChanges,
} from './undo';
export { manageFromPage, readProviderJson, saveProviderJson } from './provider-files-app';
export { readToolView, saveToolView, summariseToolView } from './tool-view-settings';
