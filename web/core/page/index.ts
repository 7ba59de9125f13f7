// web/core/page: the page-side door of the core. The UI imports web/core only through three places: the agent
// Worker face (web/core/agent-worker), this module, and web/core/contracts (types, errors, the WorkspaceFs port).
// What is here runs on the page, not in the Worker: the settings and secrets stores the Settings screens read and
// write, workspaces and their folder permissions (prompts need the person's gesture), plugin import, the
// in-browser model store, undo/changes views, usage figures, and pure helpers the screens format with. Each name
// is listed on purpose: a screen that needs something new adds it here, from the feature's own face.
export { type AgentEvent, type TurnResult } from '../agent';
export {
  DEFAULT_AGENT_MODULES,
  addApprovalRule,
  checkAgentModules,
  checkModelConfig,
  exportAllSettings,
  importAllSettings,
  manageFromPage,
  pairedBridge,
  previewAllSettingsImport,
  readApprovalRules,
  readProviderJson,
  readStoredApprovalRules,
  readStoredModel,
  readStoredModules,
  readToolView,
  saveAgentModules,
  saveApprovalMode,
  saveApprovalRules,
  saveModel,
  saveProviderJson,
  saveToolView,
  skillCatalogWith,
  summariseToolView,
  thinkingOf,
  type AgentModules,
  type AgentSettings,
  type ApprovalMode,
  type FileChange,
  type FileVersions,
  type JournalCall,
  type PluginWriteRequest,
  type RevertOp,
  type RewindMode,
  type RewindResult,
  type SessionChanges,
  type StoredModules,
  type TurnJournal,
} from '../app-agent';
export {
  FILE_WRITE_TOOLS,
  RuleSet,
  checkRules,
  describeRule,
  scopedRules,
  type ApprovalAnswer,
  type ApprovalDecision,
  type ApprovalRequest,
  type ApprovalRule,
} from '../approval';
export { importZipAsWorkspace, prepareZipDownload, writeWorkspaceZip, type ZipProgress } from '../archive';
export {
  appProviderAdapter,
  chooseBridgeRoot,
  connectedBridge,
  forgetBridge,
  pairBridge,
  type BridgeManifest,
  type BridgeStatus,
} from '../bridge-client';
export {
  SUGGESTED_MODELS,
  SUGGESTED_MODELS_DATE,
  deleteStoredModel,
  downloadModel,
  estimateMemory,
  formatBytes,
  importModelFile,
  listStoredModels,
  memoryAvailable,
  openStoredModel,
  partialDownloads,
  readGgufHeader,
  watchStatus,
  type BrowserModelStatus,
  type PartialDownload,
  type StoredModel,
} from '../browser-model';
export { type RevertResult, type RevertRow } from '../checkpoints';
export { type ModelConfig } from '../config';
export {
  OFFERED_MODULES,
  PROFILE_MODULES,
  PROFILE_NAMES,
  discoverSkills,
  workspaceSkillRoots,
  type CacheMode,
  type CacheRecord,
  type CacheReport,
  type ModuleName,
  type PredictionClass,
  type ProfileName,
  type SkillCatalog,
} from '../modules';
export {
  sharedPluginService,
  writeApprovalDiff,
  type PluginService,
  type PreparedImport,
  type InstalledPlugin,
  type InvokeResult,
  type WriteApproval,
  type WriteApprovalRequest,
} from '../plugins';
export { DEFAULT_SYSTEM_PROMPT } from '../prompts';
export { MAX_LIST_PAGES, filesUnsupportedReason, type ListedFile, type ProviderJson } from '../provider-files';
export {
  BUILTIN_PROTOCOLS,
  PROVIDER_PRESETS,
  findPreset,
  isBuiltinProtocol,
  presetContextWindow,
  type ProviderPreset,
  type Route,
} from '../providers';
export {
  exportSession,
  forkSession,
  importSession,
  recoverSession,
  sessionToMarkdown,
  type RecoveredSession,
  type SessionStore,
} from '../sessions';
export {
  DEFAULT_GLOBAL_SETTINGS,
  deleteSecret,
  effectiveSettings,
  getSecret,
  listSecretNames,
  readGlobalSettings,
  readWorkspaceSettings,
  serializeSettings,
  setSecret,
  updateGlobalSettings,
  updateWorkspaceSettings,
  type GlobalSettings,
  type ImportReport,
  type Language,
  type TrustChange,
} from '../settings';
export { appSmokeStats, testConnection, type ConnectionReport } from '../smoke';
export {
  listSessionsOfWorkspace,
  openHarnessDb,
  readStorageUsage,
  requestPersistentStorage,
  type HarnessDb,
  type SessionRecord,
  type WorkspaceKind,
  type WorkspaceRecord,
} from '../storage';
export { TOOL_VIEW_LIMITS, type ToolViewConfig } from '../tool-views';
export { unifiedDiff, walk } from '../tools';
export { findServerContextWindow, listProviderModels, type FoundContextWindow, type ServerKind } from '../transport';
export {
  EMPTY_TOTALS,
  PRICE_PRESETS,
  cacheHitRatio,
  costOf,
  mergePrices,
  parsePriceTable,
  priceFor,
  withPrice,
  type PricePreset,
} from '../usage';
export {
  MAX_WORKSPACES,
  canPickFolders,
  createFolderWorkspace,
  createOpfsWorkspace,
  deleteWorkspace,
  listWorkspaces,
  openWorkspaceFs,
  pickFolder,
  queryWorkspaceAccess,
  renameWorkspace,
  requestWorkspaceAccess,
  updateWorkspaceGrant,
  workspaceNameFromFolder,
} from '../workspaces';
