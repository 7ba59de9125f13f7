// Public face of provider Files and operations (seed 003): provider.json, the operation executor and its limits,
// the local upload registry, the Files wrapper around built-in adapters, and the management channel.
export {
  parseProviderJson,
  filesPolicy,
  accountScope,
  filesUnsupportedReason,
  vendorFilesFor,
  DEFAULT_PROVIDER_JSON,
  MIN_EXPIRES_AFTER_SECONDS,
  MAX_EXPIRES_AFTER_SECONDS,
} from './provider-json';
export type { ProviderJson, FilesPolicy } from './provider-json';
export {
  runOperation,
  checkOperation,
  newBudget,
  answerMessage,
  MAX_OPERATIONS_PER_STEP,
  OPERATIONS_WINDOW_MS,
  MAX_OPERATION_BYTES,
} from './operations';
export type { OperationPorts, OperationBudget } from './operations';
export {
  FileRegistry,
  memoryRegistryStore,
  MAX_REGISTRY_RECORDS,
  EXPIRY_MARGIN_MS,
  REGISTRY_VERSION,
} from './registry';
export type { UploadRecord, RegistryStore } from './registry';
export { withProviderFiles, newFilesContext } from './files-adapter';
export type { ProviderFilesContext } from './files-adapter';
export { providerFilesStream } from './files-stream';
export { parseManageAction, runManageAction, MAX_LIST_PAGES } from './manage';
export type { ManageAction, ManageResult, ManageDeps, ListedFile } from './manage';
export { withOperationPlans } from './operation-plans';
export type { PlanContext } from './operation-plans';
