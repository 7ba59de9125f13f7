// Node-only face of web/core/sessions.
export { createFileSessionStore, checkSessionName, SESSION_NAME_PATTERN, type FileSessionStoreOptions } from './node-file-store';
