// Public face of web/core/settings: global and per-workspace settings, JSON import/export (never secrets), and
// the separate secrets store referenced by name.
export * from './schema';
export {
  readGlobalSettings,
  readWorkspaceSettings,
  updateGlobalSettings,
  updateWorkspaceSettings,
  GLOBAL_SCOPE,
  workspaceScope,
} from './store';
export {
  exportSettings,
  serializeSettings,
  parseSettingsFile,
  importSettings,
  previewSettingsImport,
  type ImportOptions,
  type SectionContext,
  SETTINGS_FILE_FORMAT,
  SETTINGS_FILE_VERSION,
  MAX_SETTINGS_FILE_BYTES,
  type SettingsFile,
  type ImportReport,
  type SettingsFileSection,
  type SettingsTxStore,
} from './transfer';
export {
  setSecret,
  getSecret,
  listSecretNames,
  deleteSecret,
  validateSecretName,
  isPublicSecretName,
  RESERVED_SECRET_NAMES,
  MAX_SECRET_BYTES,
} from './secrets';
export {
  createTrustGate,
  needsConfirmNotice,
  originOf,
  type TrustChange,
  type TrustChangeKind,
  type TrustGate,
  type ImportNotice,
} from './import-trust';
