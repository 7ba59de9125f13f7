// Persistent storage keeps the browser from evicting workspaces, sessions and plugins under storage pressure.

export interface StorageUsage {
  usageBytes: number;
  quotaBytes: number;
  persisted: boolean;
}

/** Asks the browser to keep this origin's data. Returns whether storage is persistent afterwards. */
export async function requestPersistentStorage(
  storage: StorageManager | undefined = globalThis.navigator?.storage,
): Promise<boolean> {
  if (!storage?.persist) return false;
  if (storage.persisted && (await storage.persisted())) return true;
  try {
    return await storage.persist();
  } catch {
    return false;
  }
}

export async function readStorageUsage(
  storage: StorageManager | undefined = globalThis.navigator?.storage,
): Promise<StorageUsage | null> {
  if (!storage?.estimate) return null;
  const [estimate, persisted] = await Promise.all([
    storage.estimate(),
    storage.persisted ? storage.persisted() : Promise.resolve(false),
  ]);
  return { usageBytes: estimate.usage ?? 0, quotaBytes: estimate.quota ?? 0, persisted };
}
