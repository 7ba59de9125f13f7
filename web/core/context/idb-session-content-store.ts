// One session's results in the app database's `content` store, with the memory store's contract (seed 002):
// limits per session, immutable entries, idempotent same-source puts, conflicts refused, expired entries purged and
// never read. The app's references live for the session (sessionResultViews), so they must survive reloads, and
// the session's records must go when the session goes.
//
// Keys (no new index, no migration): every record of a session starts with `s:<sha256(sessionId)>:`, so deleting a
// session deletes one key range (sessionContentRange, used by sessions/idb-store.ts), and deleting a workspace finds
// them through `by_workspace` as before. `…:index` holds the metadata of the session's entries, so a put counts the
// limits from one small record instead of loading every stored text; `…:<sha256(storeId, sourceId)>` holds one
// entry's metadata and text. A put reads and writes both in one readwrite transaction, so two tabs cannot both
// squeeze past a limit. A record that is not what this store writes is refused (E_CONTENT_CORRUPT), never repaired.
import { sha256 } from '@noble/hashes/sha2.js';
import { bytesToHex, utf8ToBytes } from '@noble/hashes/utils.js';
import type { IDBPTransaction } from 'idb';
import type { HarnessDb, HarnessDbSchema } from '../storage';
import {
  checkRef,
  checkStoreConfig,
  contentError,
  sameRef,
  type ContentRef,
  type ContentScope,
  type ContentStore,
  type ContentStoreConfig,
} from './content-store';
import { page } from './memory-content-store';
import { utf8Encoder } from './utf8';

interface IndexRecord {
  ref: string;
  workspaceId: string;
  kind: 'session-index';
  entries: ContentRef[];
}

interface EntryRecord {
  ref: string;
  workspaceId: string;
  kind: 'session-entry';
  meta: ContentRef;
  text: string;
}

const hex = (s: string) => bytesToHex(sha256(utf8ToBytes(s)));
const prefixOf = (sessionId: string) => `s:${hex(sessionId)}:`;

/** Every `content` key of one session (its index and entries): delete this range when the session is deleted. */
export function sessionContentRange(sessionId: string): IDBKeyRange {
  const p = prefixOf(sessionId);
  return IDBKeyRange.bound(p, `${p}\uffff`);
}

const expired = () =>
  contentError(
    'E_CONTENT_EXPIRED',
    'The stored result has expired. Run the tool again if you still need its full output.',
  );
const corrupt = (what: string) =>
  contentError(
    'E_CONTENT_CORRUPT',
    `A stored result of this session ${what}; it was not read or changed. Run the tool again for its output (the session log still holds the full text).`,
  );

function checkScope(scope: ContentScope): void {
  if (
    !scope ||
    typeof scope.sessionId !== 'string' ||
    scope.sessionId === '' ||
    typeof scope.taskId !== 'string' ||
    scope.taskId === '' ||
    !Number.isSafeInteger(scope.expiresAtMs)
  ) {
    throw contentError('E_CONTENT_SCOPE', 'The host must give a content scope {sessionId, taskId, expiresAtMs}.');
  }
}

export function createIdbSessionContentStore(
  db: HarnessDb,
  config: ContentStoreConfig & { workspaceId: string; sessionId: string },
): ContentStore {
  const c = checkStoreConfig(config);
  const { workspaceId, sessionId } = config;
  const prefix = prefixOf(sessionId);
  const indexKey = `${prefix}index`;
  const entryKey = (sourceId: string) => `${prefix}${hex(`${c.storeId}\u0000${sourceId}`)}`;
  const outOfScope = () =>
    contentError('E_CONTENT_SCOPE', 'This stored result belongs to another session or task and cannot be read here.');

  const readIndex = (v: unknown): ContentRef[] => {
    if (v === undefined) return [];
    const r = v as Partial<IndexRecord>;
    if (r.kind !== 'session-index' || r.workspaceId !== workspaceId || !Array.isArray(r.entries))
      throw corrupt('has a damaged index');
    try {
      return r.entries.map((e) => checkRef(e));
    } catch {
      throw corrupt('has a damaged index');
    }
  };

  /** Drops expired entries inside `tx`; returns the live ones and how many went. */
  async function purgeIn(
    tx: IDBPTransaction<HarnessDbSchema, ['content'], 'readwrite'>,
    nowMs: number,
  ): Promise<{ live: ContentRef[]; purged: number }> {
    const store = tx.objectStore('content');
    const all = readIndex(await store.get(indexKey));
    const live = all.filter((e) => e.storeId !== c.storeId || nowMs < e.expiresAtMs);
    for (const e of all) if (!live.includes(e)) await store.delete(entryKey(e.sourceId));
    if (live.length !== all.length)
      await store.put({ ref: indexKey, workspaceId, kind: 'session-index', entries: live } as never);
    return { live, purged: all.length - live.length };
  }

  return {
    storeId: c.storeId,
    async put(sourceId, content, scope, nowMs) {
      if (typeof sourceId !== 'string' || sourceId === '')
        throw contentError(
          'E_CONTENT_SOURCE',
          'Stored content needs the id of the confirmed tool result it came from.',
        );
      checkScope(scope);
      if (scope.sessionId !== sessionId)
        throw contentError('E_CONTENT_SCOPE', `This content store keeps the results of session ${sessionId} only.`);
      if (scope.expiresAtMs <= nowMs)
        throw contentError('E_CONTENT_EXPIRED', 'The scope has already expired; nothing was stored.');
      const bytes = utf8Encoder.encode(content).length;
      const tx = db.transaction('content', 'readwrite');
      const refuse = (e: Error) => {
        tx.abort();
        tx.done.catch(() => undefined);
        return e;
      };
      let live: ContentRef[];
      try {
        ({ live } = await purgeIn(tx, nowMs));
      } catch (error) {
        throw refuse(error as Error);
      }
      const mine = live.filter((e) => e.storeId === c.storeId);
      const existing = mine.find((e) => e.sourceId === sourceId);
      if (existing) {
        if (existing.sessionId !== scope.sessionId || existing.taskId !== scope.taskId) {
          throw refuse(
            contentError(
              'E_CONTENT_CONFLICT',
              `Content for source "${sourceId}" is already stored in another scope; it is not overwritten.`,
              { sourceId },
            ),
          );
        }
        const stored = (await tx.store.get(entryKey(sourceId))) as unknown as EntryRecord | undefined;
        if (stored?.text !== content)
          throw refuse(
            contentError(
              'E_CONTENT_CONFLICT',
              `Different content for source "${sourceId}" is already stored; it is not overwritten.`,
              { sourceId },
            ),
          );
        await tx.done;
        return { ...existing };
      }
      if (bytes > c.maxContentBytes)
        throw refuse(
          contentError(
            'E_CONTENT_TOO_LARGE',
            `The result is ${bytes} bytes; the content store keeps at most ${c.maxContentBytes} per result.`,
            { bytes, max: c.maxContentBytes },
          ),
        );
      const held = mine.reduce((n, e) => n + e.totalBytes, 0);
      if (mine.length >= c.maxEntries || held + bytes > c.maxBytes) {
        throw refuse(
          contentError(
            'E_CONTENT_STORE_FULL',
            `This session's stored results are at their limit (${c.maxEntries} results, ${c.maxBytes} bytes); older ones expire after their TTL. The session log still keeps every full text.`,
          ),
        );
      }
      const meta: ContentRef = {
        storeId: c.storeId,
        sourceId,
        sessionId,
        taskId: scope.taskId,
        totalBytes: bytes,
        expiresAtMs: Math.min(scope.expiresAtMs, nowMs + c.maxTtlMs),
      };
      const entry: EntryRecord = { ref: entryKey(sourceId), workspaceId, kind: 'session-entry', meta, text: content };
      const index: IndexRecord = { ref: indexKey, workspaceId, kind: 'session-index', entries: [...live, meta] };
      await Promise.all([tx.store.put(entry as never), tx.store.put(index as never)]);
      await tx.done;
      return { ...meta };
    },
    async read(ref, scope, nowMs, offset, maxBytes) {
      checkScope(scope);
      // One session's store: another session's reference is refused as such, not as unknown.
      if (ref.storeId === c.storeId && (ref.sessionId !== scope.sessionId || ref.taskId !== scope.taskId))
        throw outOfScope();
      if (ref.storeId !== c.storeId || ref.sessionId !== sessionId) {
        throw contentError(
          'E_CONTENT_REF_INVALID',
          'The content reference does not match any stored result. Copy the ref exactly as the truncated result showed it.',
        );
      }
      const v = (await db.get('content', entryKey(ref.sourceId))) as unknown as Partial<EntryRecord> | undefined;
      if (!v) {
        if (nowMs >= ref.expiresAtMs) throw expired();
        throw contentError(
          'E_CONTENT_REF_INVALID',
          'The content reference does not match any stored result. Copy the ref exactly as the truncated result showed it.',
        );
      }
      let meta: ContentRef;
      try {
        if (v.kind !== 'session-entry' || v.workspaceId !== workspaceId || typeof v.text !== 'string')
          throw new Error('shape');
        meta = checkRef(v.meta);
      } catch {
        throw corrupt('is damaged');
      }
      const text = v.text;
      if (!sameRef(meta, ref))
        throw contentError(
          'E_CONTENT_REF_INVALID',
          'The content reference does not match any stored result. Copy the ref exactly as the truncated result showed it.',
        );
      const bytes = utf8Encoder.encode(text);
      if (bytes.length !== meta.totalBytes)
        throw corrupt(`holds ${bytes.length} bytes where its metadata says ${meta.totalBytes}`);
      if (nowMs >= ref.expiresAtMs) {
        await this.purgeExpired(nowMs);
        throw expired();
      }
      return page(bytes, offset, maxBytes, c.maxPageBytes);
    },
    async purgeExpired(nowMs) {
      const tx = db.transaction('content', 'readwrite');
      const { purged } = await purgeIn(tx, nowMs);
      await tx.done;
      return purged;
    },
  };
}
