// Node-only face of web/core/sessions.
export {
  createFileSessionStore,
  checkSessionName,
  SESSION_NAME_PATTERN,
  type FileSessionStoreOptions,
} from './node-file-store';
export { createFileContentStore, type FileContentStoreOptions } from './node-content-store';
