// The content store port and its reference shape (seed 002 "将大结果变成可读取的引用"). A reference names the store,
// the source (the confirmed tool result's id), the session/task scope, the full byte count and an absolute expiry;
// never a file path. The host supplies the scope and the clock from trusted state: a scope submitted by the model
// is never read authority. Stored content is immutable: the same source with the same text is idempotent, a
// different text or scope is refused, nothing is overwritten.
import { HarnessError } from '../contracts';

/** Who may read: one session's one task, until `expiresAtMs` (host clock). */
export interface ContentScope {
  sessionId: string;
  taskId: string;
  expiresAtMs: number;
}

export interface ContentRef {
  storeId: string;
  /** The confirmed tool result this content came from (e.g. its tool call id / event id). */
  sourceId: string;
  sessionId: string;
  taskId: string;
  /** UTF-8 bytes of the whole content. */
  totalBytes: number;
  /** Absolute expiry (ms, host clock): min(scope expiry, put time + max TTL). */
  expiresAtMs: number;
}

export interface ContentPage {
  text: string;
  offset: number;
  /** Byte offset of the next page; null at the end. */
  nextOffset: number | null;
  totalBytes: number;
}

export interface ContentStoreConfig {
  /** A name that does not collide with another store instance (references carry it). */
  storeId: string;
  maxEntries: number;
  /** Total content bytes held. */
  maxBytes: number;
  /** Largest single content. */
  maxContentBytes: number;
  /** Largest page a read may ask for. */
  maxPageBytes: number;
  /** Longest lifetime of an entry, whatever the scope says. */
  maxTtlMs: number;
}

/** The port. Async so persistent implementations (IndexedDB `content`) fit the same contract. */
export interface ContentStore {
  readonly storeId: string;
  /** Contract: stores `content` for `sourceId` in `scope`; idempotent for identical content+scope; refuses conflicts, oversize, a full store or an expired scope. Purges expired entries first. */
  put(sourceId: string, content: string, scope: ContentScope, nowMs: number): Promise<ContentRef>;
  /** Contract: checks the reference against the stored metadata, the caller's scope, expiry and page limits; returns whole characters only. */
  read(ref: ContentRef, scope: ContentScope, nowMs: number, offset: number, maxBytes: number): Promise<ContentPage>;
  /** Removes expired entries; returns how many. */
  purgeExpired(nowMs: number): Promise<number>;
}

export const contentError = (code: string, message: string, data?: Record<string, unknown>): HarnessError =>
  new HarnessError(code, message, data);

const REF_KEYS: ReadonlyArray<keyof ContentRef> = [
  'storeId',
  'sourceId',
  'sessionId',
  'taskId',
  'totalBytes',
  'expiresAtMs',
];

export function sameRef(a: ContentRef, b: ContentRef): boolean {
  return REF_KEYS.every((k) => a[k] === b[k]);
}

/** Strict shape check of a reference that came from outside (e.g. decoded from the model's `ref` string). */
export function checkRef(value: unknown): ContentRef {
  const bad = () =>
    contentError(
      'E_CONTENT_REF_INVALID',
      'The content reference is malformed. Copy the ref exactly as the truncated result showed it.',
    );
  if (typeof value !== 'object' || value === null || Array.isArray(value)) throw bad();
  const v = value as Record<string, unknown>;
  if (Object.keys(v).length !== REF_KEYS.length) throw bad();
  for (const k of ['storeId', 'sourceId', 'sessionId', 'taskId'] as const)
    if (typeof v[k] !== 'string' || v[k] === '') throw bad();
  for (const k of ['totalBytes', 'expiresAtMs'] as const)
    if (!Number.isSafeInteger(v[k]) || (v[k] as number) < 0) throw bad();
  return v as unknown as ContentRef;
}

/** Validates a store configuration: every limit a positive safe integer, page <= content <= total. */
export function checkStoreConfig(c: ContentStoreConfig): ContentStoreConfig {
  if (typeof c.storeId !== 'string' || !/^[A-Za-z0-9._:-]{1,128}$/.test(c.storeId)) {
    throw contentError(
      'E_CONTENT_CONFIG',
      'The content store needs a storeId of 1–128 letters, digits, ".", "_", ":" or "-".',
    );
  }
  for (const k of ['maxEntries', 'maxBytes', 'maxContentBytes', 'maxPageBytes', 'maxTtlMs'] as const) {
    if (!Number.isSafeInteger(c[k]) || c[k] <= 0)
      throw contentError('E_CONTENT_CONFIG', `The content store limit ${k} must be a positive integer.`, { key: k });
  }
  if (c.maxContentBytes > c.maxBytes) throw contentError('E_CONTENT_CONFIG', 'maxContentBytes cannot exceed maxBytes.');
  if (c.maxPageBytes < 4)
    throw contentError('E_CONTENT_CONFIG', 'maxPageBytes must hold at least one character (4 bytes).');
  return { ...c };
}
