// In-process ContentStore (seed 002 MemoryContentStore): bounded by entries, total bytes, single content size, page
// size and TTL. References die with the process; a persistent store must keep the same contract.
import {
  checkStoreConfig,
  contentError,
  sameRef,
  type ContentPage,
  type ContentRef,
  type ContentScope,
  type ContentStore,
  type ContentStoreConfig,
} from './content-store';
import { decodeUtf8, floorCharBoundary, isCharBoundary, utf8Encoder } from './utf8';

interface Entry {
  ref: ContentRef;
  bytes: Uint8Array;
  text: string;
}

export function createMemoryContentStore(config: ContentStoreConfig): ContentStore {
  const c = checkStoreConfig(config);
  const entries = new Map<string, Entry>();
  let heldBytes = 0;

  const purge = (nowMs: number): number => {
    let n = 0;
    for (const [id, e] of entries) {
      if (nowMs >= e.ref.expiresAtMs) {
        entries.delete(id);
        heldBytes -= e.bytes.length;
        n++;
      }
    }
    return n;
  };

  return {
    storeId: c.storeId,
    async put(sourceId, content, scope, nowMs) {
      if (typeof sourceId !== 'string' || sourceId === '')
        throw contentError(
          'E_CONTENT_SOURCE',
          'Stored content needs the id of the confirmed tool result it came from.',
        );
      checkScope(scope);
      if (scope.expiresAtMs <= nowMs)
        throw contentError('E_CONTENT_EXPIRED', 'The scope has already expired; nothing was stored.');
      purge(nowMs);
      const bytes = utf8Encoder.encode(content);
      const existing = entries.get(sourceId);
      if (existing) {
        const sameScope = existing.ref.sessionId === scope.sessionId && existing.ref.taskId === scope.taskId;
        if (!sameScope)
          throw contentError(
            'E_CONTENT_CONFLICT',
            `Content for source "${sourceId}" is already stored in another scope; it is not overwritten.`,
            { sourceId },
          );
        if (existing.text !== content)
          throw contentError(
            'E_CONTENT_CONFLICT',
            `Different content for source "${sourceId}" is already stored; it is not overwritten.`,
            { sourceId },
          );
        return { ...existing.ref };
      }
      if (bytes.length > c.maxContentBytes) {
        throw contentError(
          'E_CONTENT_TOO_LARGE',
          `The result is ${bytes.length} bytes; the content store keeps at most ${c.maxContentBytes} per result.`,
          { bytes: bytes.length, max: c.maxContentBytes },
        );
      }
      if (entries.size >= c.maxEntries)
        throw contentError(
          'E_CONTENT_STORE_FULL',
          `The content store holds its maximum of ${c.maxEntries} results; older ones expire after their TTL.`,
          { max: c.maxEntries },
        );
      if (heldBytes + bytes.length > c.maxBytes)
        throw contentError(
          'E_CONTENT_STORE_FULL',
          `The content store would exceed ${c.maxBytes} bytes; older results expire after their TTL.`,
          { max: c.maxBytes },
        );
      const ref: ContentRef = {
        storeId: c.storeId,
        sourceId,
        sessionId: scope.sessionId,
        taskId: scope.taskId,
        totalBytes: bytes.length,
        expiresAtMs: Math.min(scope.expiresAtMs, nowMs + c.maxTtlMs),
      };
      entries.set(sourceId, { ref, bytes, text: content });
      heldBytes += bytes.length;
      return { ...ref };
    },
    async read(ref, scope, nowMs, offset, maxBytes) {
      checkScope(scope);
      const entry = ref.storeId === c.storeId ? entries.get(ref.sourceId) : undefined;
      if (!entry || !sameRef(entry.ref, ref)) {
        if (entry === undefined && ref.storeId === c.storeId && nowMs >= ref.expiresAtMs) throw expired();
        throw contentError(
          'E_CONTENT_REF_INVALID',
          'The content reference does not match any stored result. Copy the ref exactly as the truncated result showed it.',
        );
      }
      if (ref.sessionId !== scope.sessionId || ref.taskId !== scope.taskId) {
        throw contentError(
          'E_CONTENT_SCOPE',
          'This stored result belongs to another session or task and cannot be read here.',
        );
      }
      if (nowMs >= ref.expiresAtMs) {
        purge(nowMs);
        throw expired();
      }
      return page(entry.bytes, offset, maxBytes, c.maxPageBytes);
    },
    async purgeExpired(nowMs) {
      return purge(nowMs);
    },
  };
}

const expired = () =>
  contentError(
    'E_CONTENT_EXPIRED',
    'The stored result has expired. Run the tool again if you still need its full output.',
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

/** One page of whole characters starting at a character boundary. Shared by every ContentStore implementation. */
export function page(bytes: Uint8Array, offset: number, maxBytes: number, maxPageBytes: number): ContentPage {
  if (!Number.isSafeInteger(maxBytes) || maxBytes <= 0 || maxBytes > maxPageBytes) {
    throw contentError('E_CONTENT_PAGE_LIMIT', `A page is 1–${maxPageBytes} bytes; ${maxBytes} was asked.`, {
      max: maxPageBytes,
    });
  }
  if (
    !Number.isSafeInteger(offset) ||
    offset < 0 ||
    offset > bytes.length ||
    (offset === bytes.length && bytes.length > 0)
  ) {
    throw contentError(
      'E_CONTENT_OFFSET',
      `The offset ${offset} is outside the stored result (0–${Math.max(0, bytes.length - 1)}).`,
      { offset, total: bytes.length },
    );
  }
  if (!isCharBoundary(bytes, offset)) {
    throw contentError(
      'E_CONTENT_OFFSET',
      `The offset ${offset} falls inside a character. Use the next offset the previous page gave.`,
      { offset },
    );
  }
  const end = offset + maxBytes >= bytes.length ? bytes.length : floorCharBoundary(bytes, offset, offset + maxBytes);
  if (end === offset && bytes.length > 0) {
    throw contentError(
      'E_CONTENT_PAGE_TOO_SMALL',
      `A page of ${maxBytes} bytes cannot hold the character at offset ${offset}. Ask for a larger page.`,
      { offset, maxBytes },
    );
  }
  return {
    text: decodeUtf8(bytes.subarray(offset, end)),
    offset,
    nextOffset: end < bytes.length ? end : null,
    totalBytes: bytes.length,
  };
}
