// ContentStore over the app database's `content` object store (key `ref` = sha256 of store id + source id, index
// `by_workspace`), with the same contract as the memory store: limits per store instance, immutable entries,
// idempotent same-source puts, conflicts refused, expired entries purged and never read. Each put runs in one
// readwrite transaction, so two tabs cannot both squeeze past a limit.
import { sha256 } from '@noble/hashes/sha2.js';
import { bytesToHex, utf8ToBytes } from '@noble/hashes/utils.js';
import type { HarnessDb } from '../storage';
import {
  checkStoreConfig,
  contentError,
  sameRef,
  type ContentRef,
  type ContentStore,
  type ContentStoreConfig,
} from './content-store';
import { page } from './memory-content-store';
import { utf8Encoder } from './utf8';

interface StoredContent {
  ref: string;
  workspaceId: string;
  /** Absent on the per-session store's index records, which share `content` (idb-session-content-store.ts). */
  meta: ContentRef;
  text: string;
}

const keyOf = (storeId: string, sourceId: string) => bytesToHex(sha256(utf8ToBytes(`${storeId}\u0000${sourceId}`)));

export function createIdbContentStore(
  db: HarnessDb,
  config: ContentStoreConfig & { workspaceId: string },
): ContentStore {
  const c = checkStoreConfig(config);
  const workspaceId = config.workspaceId;

  async function purge(nowMs: number): Promise<number> {
    const tx = db.transaction('content', 'readwrite');
    let n = 0;
    let cursor = await tx.store.index('by_workspace').openCursor(workspaceId);
    while (cursor) {
      const v = cursor.value as unknown as StoredContent;
      if (v.meta?.storeId === c.storeId && nowMs >= v.meta.expiresAtMs) {
        await cursor.delete();
        n++;
      }
      cursor = await cursor.continue();
    }
    await tx.done;
    return n;
  }

  return {
    storeId: c.storeId,
    async put(sourceId, content, scope, nowMs) {
      if (typeof sourceId !== 'string' || sourceId === '')
        throw contentError(
          'E_CONTENT_SOURCE',
          'Stored content needs the id of the confirmed tool result it came from.',
        );
      if (scope.expiresAtMs <= nowMs)
        throw contentError('E_CONTENT_EXPIRED', 'The scope has already expired; nothing was stored.');
      const bytes = utf8Encoder.encode(content).length;
      const key = keyOf(c.storeId, sourceId);
      const tx = db.transaction('content', 'readwrite');
      let entries = 0;
      let held = 0;
      let existing: StoredContent | undefined;
      let cursor = await tx.store.index('by_workspace').openCursor(workspaceId);
      while (cursor) {
        const v = cursor.value as unknown as StoredContent;
        if (v.meta?.storeId === c.storeId) {
          if (nowMs >= v.meta.expiresAtMs) await cursor.delete();
          else if (v.ref === key) existing = v;
          else {
            entries++;
            held += v.meta.totalBytes;
          }
        }
        cursor = await cursor.continue();
      }
      const refuse = (e: Error) => {
        tx.abort();
        tx.done.catch(() => undefined);
        return e;
      };
      if (existing) {
        if (existing.meta.sessionId !== scope.sessionId || existing.meta.taskId !== scope.taskId) {
          throw refuse(
            contentError(
              'E_CONTENT_CONFLICT',
              `Content for source "${sourceId}" is already stored in another scope; it is not overwritten.`,
              { sourceId },
            ),
          );
        }
        if (existing.text !== content)
          throw refuse(
            contentError(
              'E_CONTENT_CONFLICT',
              `Different content for source "${sourceId}" is already stored; it is not overwritten.`,
              { sourceId },
            ),
          );
        await tx.done;
        return { ...existing.meta };
      }
      if (bytes > c.maxContentBytes)
        throw refuse(
          contentError(
            'E_CONTENT_TOO_LARGE',
            `The result is ${bytes} bytes; the content store keeps at most ${c.maxContentBytes} per result.`,
            { bytes, max: c.maxContentBytes },
          ),
        );
      if (entries >= c.maxEntries || held + bytes > c.maxBytes)
        throw refuse(
          contentError(
            'E_CONTENT_STORE_FULL',
            `The content store is full (${c.maxEntries} results, ${c.maxBytes} bytes); older results expire after their TTL.`,
          ),
        );
      const meta: ContentRef = {
        storeId: c.storeId,
        sourceId,
        sessionId: scope.sessionId,
        taskId: scope.taskId,
        totalBytes: bytes,
        expiresAtMs: Math.min(scope.expiresAtMs, nowMs + c.maxTtlMs),
      };
      const record: StoredContent = { ref: key, workspaceId, meta, text: content };
      await tx.store.put(record as never);
      await tx.done;
      return { ...meta };
    },
    async read(ref, scope, nowMs, offset, maxBytes) {
      const v =
        ref.storeId === c.storeId
          ? ((await db.get('content', keyOf(c.storeId, ref.sourceId))) as unknown as StoredContent | undefined)
          : undefined;
      if (!v && ref.storeId === c.storeId && nowMs >= ref.expiresAtMs)
        throw contentError(
          'E_CONTENT_EXPIRED',
          'The stored result has expired. Run the tool again if you still need its full output.',
        );
      if (!v || v.workspaceId !== workspaceId || !sameRef(v.meta, ref)) {
        throw contentError(
          'E_CONTENT_REF_INVALID',
          'The content reference does not match any stored result. Copy the ref exactly as the truncated result showed it.',
        );
      }
      if (ref.sessionId !== scope.sessionId || ref.taskId !== scope.taskId)
        throw contentError(
          'E_CONTENT_SCOPE',
          'This stored result belongs to another session or task and cannot be read here.',
        );
      if (nowMs >= ref.expiresAtMs) {
        await purge(nowMs);
        throw contentError(
          'E_CONTENT_EXPIRED',
          'The stored result has expired. Run the tool again if you still need its full output.',
        );
      }
      return page(utf8Encoder.encode(v.text), offset, maxBytes, c.maxPageBytes);
    },
    purgeExpired: purge,
  };
}
