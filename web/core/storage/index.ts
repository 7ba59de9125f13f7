// Public face of web/core/storage: the one IndexedDB database, its schema, migrations and storage persistence.
export { openHarnessDb, type HarnessDb } from './open-db';
export { MIGRATIONS, runMigrations, type Migration } from './migrations';
export { requestPersistentStorage, readStorageUsage, type StorageUsage } from './persistence';
export * from './schema';
export { listSessionsOfWorkspace } from './sessions-query';
