// ContentStore in a session folder (headless `i`: DIR/.i/sessions/NAME/content/), with the memory store's contract
// (seed 002): limits per store, immutable entries, idempotent same-source puts, conflicts refused, expired entries
// purged and never read. Node-only: reached through web/core/node.ts.
//
// One file per entry, `<sha256(storeId, sourceId)>.entry`: a first line of JSON `{"v":1,"meta":ContentRef}`, then
// the text's raw UTF-8 bytes (no escaping, so an 8 MiB result is an 8 MiB file). A put writes a temporary file,
// fsyncs it and renames it into place, so an entry is whole or absent. Puts run under `content/lock` (this process
// and others), so two writers cannot both squeeze past a limit. Nothing is followed through a symbolic link (the
// folder is checked with lstat, files are opened with O_NOFOLLOW) and a damaged entry is refused, never repaired.
import { randomUUID } from 'node:crypto';
import { constants as fsc, promises as fsp } from 'node:fs';
import { join } from 'node:path';
import { sha256 } from '@noble/hashes/sha2.js';
import { bytesToHex, utf8ToBytes } from '@noble/hashes/utils.js';
import {
  checkRef,
  checkStoreConfig,
  isCharBoundary,
  page,
  sameRef,
  type ContentRef,
  type ContentScope,
  type ContentStore,
  type ContentStoreConfig,
} from '../context';
import { HarnessError } from '../contracts';

const O_NOFOLLOW = fsc.O_NOFOLLOW ?? 0;
const ENTRY = /^[0-9a-f]{64}\.entry$/;
/** A header is one short JSON line; anything longer is not one this store wrote. */
const MAX_HEADER = 2048;

export interface FileContentStoreOptions extends ContentStoreConfig {
  /** The content folder, e.g. DIR/.i/sessions/NAME/content (created on the first put). */
  dir: string;
}

const err = (code: string, message: string, data?: Record<string, unknown>) => new HarnessError(code, message, data);
const keyOf = (storeId: string, sourceId: string) => bytesToHex(sha256(utf8ToBytes(`${storeId}\u0000${sourceId}`)));
const isErrno = (e: unknown, code: string) => (e as NodeJS.ErrnoException | null)?.code === code;
const expired = () =>
  err('E_CONTENT_EXPIRED', 'The stored result has expired. Run the tool again if you still need its full output.');
const outOfScope = () =>
  err('E_CONTENT_SCOPE', 'This stored result belongs to another session or task and cannot be read here.');
const invalidRef = () =>
  err(
    'E_CONTENT_REF_INVALID',
    'The content reference does not match any stored result. Copy the ref exactly as the truncated result showed it.',
  );

interface Entry {
  meta: ContentRef;
  body: Buffer;
}

/** Serialises puts within this process (the lock file covers other processes). */
const queues = new Map<string, Promise<unknown>>();

export function createFileContentStore(options: FileContentStoreOptions): ContentStore {
  const c = checkStoreConfig(options);
  const dir = options.dir;
  const corrupt = (file: string, what: string) =>
    err(
      'E_CONTENT_CORRUPT',
      `The stored result ${file} ${what}; it was not read or changed. Run the tool again for its output, or delete the file (the session log still holds the full text).`,
      { file },
    );

  /** The content folder must be a real folder: a symbolic link there could point anywhere. */
  async function checkDir(create: boolean): Promise<boolean> {
    if (create) await fsp.mkdir(dir, { recursive: true, mode: 0o700 });
    try {
      const st = await fsp.lstat(dir);
      if (st.isDirectory()) return true;
    } catch (error) {
      if (isErrno(error, 'ENOENT')) return false;
      throw error;
    }
    throw err(
      'E_CONTENT_CORRUPT',
      `${dir} is not a folder (a symbolic link or a file), so stored results are neither read nor written there. Move it away; the session log still holds every full text.`,
      { dir },
    );
  }

  /**
   * Reads one entry file without following links: its header, and of its text nothing, all of it, or the bytes
   * [from, to) (a page reads ~one page, not the whole result). One open file, so header and text belong together.
   */
  async function readEntry(name: string, want: 'header' | 'all' | { from: number; to: number }): Promise<Entry | null> {
    const headerOnly = want !== 'all';
    const file = join(dir, name);
    let handle;
    try {
      handle = await fsp.open(file, fsc.O_RDONLY | O_NOFOLLOW);
    } catch (error) {
      if (isErrno(error, 'ENOENT')) return null;
      if (isErrno(error, 'ELOOP')) throw corrupt(file, 'is a symbolic link, not an entry i wrote');
      throw error;
    }
    try {
      const st = await handle.stat();
      if (!st.isFile()) throw corrupt(file, 'is not a regular file');
      const buf = Buffer.alloc(headerOnly ? Math.min(st.size, MAX_HEADER) : st.size);
      await handle.read(buf, 0, buf.length, 0);
      const nl = buf.indexOf(0x0a);
      if (nl < 0 || nl > MAX_HEADER) throw corrupt(file, 'has no entry header');
      let meta: ContentRef;
      try {
        const head = JSON.parse(buf.subarray(0, nl).toString('utf8')) as { v?: unknown; meta?: unknown };
        if (head.v !== 1) throw new Error('version');
        meta = checkRef(head.meta);
      } catch {
        throw corrupt(file, 'has a damaged entry header');
      }
      if (`${keyOf(meta.storeId, meta.sourceId)}.entry` !== name) throw corrupt(file, 'is named for another source');
      if (st.size - nl - 1 !== meta.totalBytes)
        throw corrupt(file, `holds ${st.size - nl - 1} bytes of text where its header says ${meta.totalBytes}`);
      if (typeof want !== 'object') return { meta, body: headerOnly ? Buffer.alloc(0) : buf.subarray(nl + 1) };
      const from = Math.min(want.from, meta.totalBytes);
      const body = Buffer.alloc(Math.max(0, Math.min(want.to, meta.totalBytes) - from));
      await handle.read(body, 0, body.length, nl + 1 + from);
      return { meta, body };
    } finally {
      await handle.close();
    }
  }

  /** Exclusive `lock` file holding our pid; a lock whose process is gone is stale and taken over. */
  async function locked<T>(fn: () => Promise<T>): Promise<T> {
    const run = async () => {
      const file = join(dir, 'lock');
      for (let attempt = 0; ; attempt++) {
        try {
          const h = await fsp.open(file, fsc.O_WRONLY | fsc.O_CREAT | fsc.O_EXCL | O_NOFOLLOW, 0o600);
          await h.writeFile(String(process.pid));
          await h.close();
          break;
        } catch (error) {
          if (!isErrno(error, 'EEXIST') || attempt > 0) throw busy(error);
          const pid = Number(await fsp.readFile(file, 'utf8').catch(() => ''));
          if (Number.isInteger(pid) && pid > 0 && pid !== process.pid && alive(pid)) throw busy(error);
          await fsp.rm(file, { force: true });
        }
      }
      try {
        return await fn();
      } finally {
        await fsp.rm(file, { force: true });
      }
    };
    const prev = queues.get(dir) ?? Promise.resolve();
    const next = prev.then(run, run);
    queues.set(
      dir,
      next.catch(() => undefined),
    );
    return next;
  }
  const busy = (cause: unknown) =>
    new HarnessError(
      'E_CONTENT_BUSY',
      `Another i process is storing a result in ${dir} right now. Try again when it has finished.`,
      { dir },
      { cause },
    );

  /** Entries of this store (headers only), deleting the expired ones. Damaged files count by size and stay. */
  async function scan(
    nowMs: number,
  ): Promise<{ live: Map<string, ContentRef>; damaged: Set<string>; bytes: number; purged: number }> {
    const live = new Map<string, ContentRef>();
    const damaged = new Set<string>();
    let bytes = 0;
    let purged = 0;
    for (const name of await fsp.readdir(dir)) {
      if (!ENTRY.test(name)) continue;
      let e: Entry | null;
      try {
        e = await readEntry(name, 'header');
      } catch (error) {
        if (!HarnessError.isInstance(error) || error.code !== 'E_CONTENT_CORRUPT') throw error;
        const st = await fsp.lstat(join(dir, name)).catch(() => null);
        damaged.add(name);
        bytes += st?.size ?? 0;
        continue;
      }
      if (!e || e.meta.storeId !== c.storeId) continue;
      if (nowMs >= e.meta.expiresAtMs) {
        await fsp.rm(join(dir, name), { force: true });
        purged++;
        continue;
      }
      live.set(name, e.meta);
      bytes += e.meta.totalBytes;
    }
    return { live, damaged, bytes, purged };
  }

  return {
    storeId: c.storeId,
    async put(sourceId, content, scope, nowMs) {
      if (typeof sourceId !== 'string' || sourceId === '')
        throw err('E_CONTENT_SOURCE', 'Stored content needs the id of the confirmed tool result it came from.');
      checkScope(scope);
      if (scope.expiresAtMs <= nowMs)
        throw err('E_CONTENT_EXPIRED', 'The scope has already expired; nothing was stored.');
      await checkDir(true);
      return locked(async () => {
        const name = `${keyOf(c.storeId, sourceId)}.entry`;
        const { live, damaged, bytes: held } = await scan(nowMs);
        if (damaged.has(name)) throw corrupt(join(dir, name), 'is damaged');
        const body = Buffer.from(content, 'utf8');
        const existing = live.get(name);
        if (existing) {
          if (existing.sessionId !== scope.sessionId || existing.taskId !== scope.taskId)
            throw err(
              'E_CONTENT_CONFLICT',
              `Content for source "${sourceId}" is already stored in another scope; it is not overwritten.`,
              { sourceId },
            );
          const whole = await readEntry(name, 'all');
          if (!whole || !whole.body.equals(body))
            throw err(
              'E_CONTENT_CONFLICT',
              `Different content for source "${sourceId}" is already stored; it is not overwritten.`,
              { sourceId },
            );
          return { ...existing };
        }
        if (body.length > c.maxContentBytes)
          throw err(
            'E_CONTENT_TOO_LARGE',
            `The result is ${body.length} bytes; the content store keeps at most ${c.maxContentBytes} per result.`,
            { bytes: body.length, max: c.maxContentBytes },
          );
        if (live.size + damaged.size >= c.maxEntries)
          throw err(
            'E_CONTENT_STORE_FULL',
            `The content store holds its maximum of ${c.maxEntries} results; older ones expire after their TTL.`,
            { max: c.maxEntries },
          );
        if (held + body.length > c.maxBytes)
          throw err(
            'E_CONTENT_STORE_FULL',
            `The content store would exceed ${c.maxBytes} bytes; older results expire after their TTL.`,
            { max: c.maxBytes },
          );
        const meta: ContentRef = {
          storeId: c.storeId,
          sourceId,
          sessionId: scope.sessionId,
          taskId: scope.taskId,
          totalBytes: body.length,
          expiresAtMs: Math.min(scope.expiresAtMs, nowMs + c.maxTtlMs),
        };
        const tmp = join(dir, `.${name}.${process.pid}.${randomUUID().slice(0, 8)}.tmp`);
        const h = await fsp.open(tmp, fsc.O_WRONLY | fsc.O_CREAT | fsc.O_EXCL | O_NOFOLLOW, 0o600);
        try {
          await h.writeFile(Buffer.concat([Buffer.from(`${JSON.stringify({ v: 1, meta })}\n`, 'utf8'), body]));
          await h.sync();
        } catch (error) {
          await h.close();
          await fsp.rm(tmp, { force: true });
          throw error;
        }
        await h.close();
        await fsp.rename(tmp, join(dir, name));
        return { ...meta };
      });
    },
    async read(ref, scope, nowMs, offset, maxBytes) {
      checkScope(scope);
      // This folder holds one session's results: another session's reference is refused as such, not as unknown.
      if (ref.storeId === c.storeId && (ref.sessionId !== scope.sessionId || ref.taskId !== scope.taskId))
        throw outOfScope();
      // Only the page's bytes are read (plus one, to see where the next character starts); the arguments are
      // checked after the reference, in the memory store's order.
      const total = ref.totalBytes;
      const from = Number.isSafeInteger(offset) && offset >= 0 && offset <= total ? offset : 0;
      const span = Number.isSafeInteger(maxBytes) && maxBytes > 0 && maxBytes <= c.maxPageBytes ? maxBytes : 0;
      const e =
        ref.storeId === c.storeId && (await checkDir(false))
          ? await readEntry(`${keyOf(c.storeId, ref.sourceId)}.entry`, { from, to: from + span + 1 })
          : null;
      if (!e || !sameRef(e.meta, ref)) {
        if (!e && ref.storeId === c.storeId && nowMs >= ref.expiresAtMs) throw expired();
        throw invalidRef();
      }
      if (nowMs >= ref.expiresAtMs) {
        await locked(() => scan(nowMs));
        throw expired();
      }
      checkPageArgs(offset, maxBytes, total, c.maxPageBytes);
      if (!isCharBoundary(e.body, 0))
        throw err(
          'E_CONTENT_OFFSET',
          `The offset ${offset} falls inside a character. Use the next offset the previous page gave.`,
          { offset },
        );
      const p = page(e.body, 0, maxBytes, c.maxPageBytes);
      return {
        text: p.text,
        offset,
        nextOffset: p.nextOffset === null ? null : offset + p.nextOffset,
        totalBytes: total,
      };
    },
    async purgeExpired(nowMs) {
      if (!(await checkDir(false))) return 0;
      return locked(async () => (await scan(nowMs)).purged);
    },
  };
}

/** The page arguments `page()` checks first, checked here against the whole result (only a slice is read). */
function checkPageArgs(offset: number, maxBytes: number, total: number, maxPageBytes: number): void {
  if (!Number.isSafeInteger(maxBytes) || maxBytes <= 0 || maxBytes > maxPageBytes) {
    throw err('E_CONTENT_PAGE_LIMIT', `A page is 1–${maxPageBytes} bytes; ${maxBytes} was asked.`, {
      max: maxPageBytes,
    });
  }
  if (!Number.isSafeInteger(offset) || offset < 0 || offset > total || (offset === total && total > 0)) {
    throw err('E_CONTENT_OFFSET', `The offset ${offset} is outside the stored result (0–${Math.max(0, total - 1)}).`, {
      offset,
      total,
    });
  }
}

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return isErrno(error, 'EPERM');
  }
}

function checkScope(scope: ContentScope): void {
  if (
    !scope ||
    typeof scope.sessionId !== 'string' ||
    scope.sessionId === '' ||
    typeof scope.taskId !== 'string' ||
    scope.taskId === '' ||
    !Number.isSafeInteger(scope.expiresAtMs)
  ) {
    throw err('E_CONTENT_SCOPE', 'The host must give a content scope {sessionId, taskId, expiresAtMs}.');
  }
}
