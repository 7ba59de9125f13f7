// The local registry of uploads, per workspace: which file_id holds which content (SHA-256 of the image bytes) under
// which account scope, its size and when it was made and expires. Reuse needs the same scope and hash and an expiry
// not yet near; the storage is a port (IndexedDB in the app, a JSON file in the data dir headless). Versioned.
import { HarnessError } from '../contracts';

export interface UploadRecord {
  scope: string;
  /** SHA-256 (hex) of the image bytes. */
  hash: string;
  file_id: string;
  protocol: string;
  bytes: number;
  media_type: string;
  /** Epoch ms. */
  created_at: number;
  /** Epoch ms; null: the vendor keeps it until deleted and no local lifetime was set. */
  expires_at: number | null;
  /**
   * Custom workers' uploads (operation-plans.ts): the address the upload was POSTed to (origin, path and query;
   * no fragment). A worker's cleanup DELETE may name only `<location path>/<file_id>` at that origin and query.
   * Optional, so version-1 registries written before it still read; a record without it is never deleted by a
   * worker's cleanup (the person can delete it through the management channel). Built-in adapters build their own
   * delete address (`vendor.remove`) and leave it out.
   */
  location?: string;
}

export interface RegistryStore {
  load(): Promise<unknown>;
  save(value: { version: 1; records: UploadRecord[] }): Promise<void>;
}

export const REGISTRY_VERSION = 1;
/** Bounded: the oldest records go first (a forgotten record only costs one re-upload). */
export const MAX_REGISTRY_RECORDS = 10_000;
/** A file this close to its expiry is uploaded again: the model request must not reach the vendor after it. */
export const EXPIRY_MARGIN_MS = 5 * 60 * 1000;

const isRecord = (r: unknown): r is UploadRecord => {
  const v = r as UploadRecord;
  return (
    typeof v === 'object' &&
    v !== null &&
    typeof v.scope === 'string' &&
    typeof v.hash === 'string' &&
    typeof v.file_id === 'string' &&
    typeof v.protocol === 'string' &&
    typeof v.bytes === 'number' &&
    typeof v.media_type === 'string' &&
    typeof v.created_at === 'number' &&
    (v.expires_at === null || typeof v.expires_at === 'number') &&
    (v.location === undefined || typeof v.location === 'string')
  );
};

export class FileRegistry {
  private records: UploadRecord[] | null = null;
  constructor(private readonly store: RegistryStore) {}

  private async list(): Promise<UploadRecord[]> {
    if (this.records) return this.records;
    const raw = await this.store.load();
    if (raw === undefined || raw === null) return (this.records = []);
    const v = raw as { version?: unknown; records?: unknown };
    if (v.version !== REGISTRY_VERSION || !Array.isArray(v.records)) {
      throw new HarnessError(
        'E_PROVIDER_FILES_REGISTRY',
        `The local registry of provider uploads is not version ${REGISTRY_VERSION}. Delete it (it only costs re-uploads) and run again.`,
      );
    }
    return (this.records = v.records.filter(isRecord));
  }

  /** A usable upload of this content under this scope, or null (none, expired, or expiring within the margin). */
  async find(scope: string, hash: string, now: number): Promise<UploadRecord | null> {
    const r = (await this.list()).find((x) => x.scope === scope && x.hash === hash);
    if (!r) return null;
    return r.expires_at === null || r.expires_at - now > EXPIRY_MARGIN_MS ? r : null;
  }

  async put(record: UploadRecord): Promise<void> {
    const list = (await this.list()).filter((x) => !(x.scope === record.scope && x.hash === record.hash));
    list.push(record);
    this.records = list.slice(-MAX_REGISTRY_RECORDS);
    await this.store.save({ version: REGISTRY_VERSION, records: this.records });
  }

  /**
   * Drops records by file_id (deleted remotely, or the vendor said "not found"). Returns how many went. `only`: just
   * the records of that account scope and protocol (another account's file of the same id is another file).
   */
  async forget(fileIds: Iterable<string>, only?: { scope: string; protocol: string }): Promise<number> {
    const ids = new Set(fileIds);
    const list = await this.list();
    const kept = list.filter(
      (x) => !(ids.has(x.file_id) && (!only || (x.scope === only.scope && x.protocol === only.protocol))),
    );
    if (kept.length === list.length) return 0;
    this.records = kept;
    await this.store.save({ version: REGISTRY_VERSION, records: kept });
    return list.length - kept.length;
  }

  async all(): Promise<UploadRecord[]> {
    return [...(await this.list())];
  }
}

export function memoryRegistryStore(initial?: {
  version: 1;
  records: UploadRecord[];
}): RegistryStore & { value: { version: 1; records: UploadRecord[] } | undefined } {
  const s = {
    value: initial,
    load: async () => s.value,
    save: async (v: { version: 1; records: UploadRecord[] }) => {
      s.value = structuredClone(v);
    },
  };
  return s;
}
