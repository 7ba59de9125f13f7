// "Download as .zip" of a workspace or one of its folders: a person's own action, so nothing is skipped but
// `.git` folders (optional). The zip is streamed into a sink (a file from the save picker, or a Blob when the
// browser has none): memory holds the files being read ahead and zip.js's buffers, never the whole archive.
import { HarnessError } from '../contracts';
import { normalizeWorkspacePath, type DirEntry, type WorkspaceFs } from '../contracts';
import { STORED_EXTENSIONS } from './limits';
import type { ZipProgress } from './import-zip';
import { openZipAssembler, type ZipAssembler } from './zip-assembler';
import { zipOffThread, type ZipWorker } from './zip-off-thread';
import { leaseZipWorker } from './zip-worker-keeper';

export interface ZipDownloadOptions {
  /** Workspace-relative folder to pack ('' for the whole workspace); entries are named relative to it. */
  folder?: string;
  /** `.git` folders are left out unless this is set. */
  includeGit?: boolean;
  signal?: AbortSignal;
  onProgress?: (progress: ZipProgress) => void;
  /** Starts the zip Worker; `null` zips on this thread. Defaults to zip-worker.ts where there is a Worker, else null. */
  spawnWorker?: (() => ZipWorker) | null;
}

export interface ZipContents {
  files: DirEntry[];
  /** Folders with nothing in them, kept as folder entries so the tree round-trips. */
  emptyFolders: string[];
  bytes: number;
}

/** Files read or being zipped at once (read but not yet in the archive), bounded in count and bytes. */
export const READ_AHEAD_FILES = 64;
export const READ_AHEAD_BYTES = 32 * 1024 * 1024;
const LIST_MAX = 1_000_000;

const cancelled = () => new HarnessError('E_ABORTED', 'The download was cancelled; the partial file was discarded.');

function aborted(signal?: AbortSignal): void {
  if (signal?.aborted) throw cancelled();
}

const spawnModuleWorker = (): ZipWorker =>
  new Worker(new URL('./zip-worker.ts', import.meta.url), { type: 'module', name: 'zip' }) as unknown as ZipWorker;

/**
 * Starts the zip Worker ahead of a download (the dialog calls it when it opens), so fetching and compiling zip.js
 * happen while the person picks the file; kept like one after a download. Nothing where there is no Worker.
 */
export function prepareZipDownload(): void {
  if (typeof Worker !== 'function') return;
  try {
    leaseZipWorker(spawnModuleWorker).release(true);
  } catch {
    // The download itself will report why the Worker cannot start.
  }
}

/** Everything under `folder` (links skipped: they could lead back up the tree), in a stable order. */
export async function listZipContents(
  fs: WorkspaceFs,
  folder: string,
  includeGit: boolean,
  signal?: AbortSignal,
): Promise<ZipContents> {
  const root = normalizeWorkspacePath(folder, { allowRoot: true }).path;
  const files: DirEntry[] = [];
  const emptyFolders: string[] = [];
  let bytes = 0;
  const pending = [root];
  while (pending.length > 0) {
    aborted(signal);
    const dir = pending.shift() as string;
    const entries = await fs.list(dir, { maxEntries: LIST_MAX });
    let kept = 0;
    for (const entry of entries) {
      if (entry.link) continue;
      if (entry.directory) {
        if (!includeGit && entry.name === '.git') continue;
        pending.push(entry.path);
      } else {
        files.push(entry);
        bytes += entry.size;
      }
      kept++;
    }
    // A folder that held only a left-out .git still exists in the copy, as an empty folder.
    if (kept === 0 && dir !== root) emptyFolders.push(dir);
  }
  return { files, emptyFolders, bytes };
}

const relative = (root: string, path: string) => (root ? path.slice(root.length + 1) : path);

/**
 * Writes the zip into `sink` and closes it; on failure or cancel the sink is aborted (a save-picker file is
 * then discarded, not left half-written). Resolves to the final progress.
 */
export async function writeWorkspaceZip(
  fs: WorkspaceFs,
  sink: WritableStream<Uint8Array>,
  options: ZipDownloadOptions = {},
): Promise<ZipProgress> {
  const root = normalizeWorkspacePath(options.folder ?? '', { allowRoot: true }).path;
  const { signal } = options;
  // zip.js writes into the assembler, so the real sink's writer stays ours to abort.
  const out = sink.getWriter();
  let zip: (ZipAssembler & { dispose?(reason: unknown): void }) | undefined;
  let failed: unknown;
  let wake: (() => void) | undefined;
  const stop = (error: unknown) => {
    failed ??= error;
    zip?.dispose?.(error);
    wake?.();
  };
  const onAbort = () => stop(cancelled());
  signal?.addEventListener('abort', onAbort);
  try {
    const contents = await listZipContents(fs, root, options.includeGit === true, signal);
    const { files } = contents;
    const progress: ZipProgress = { filesDone: 0, filesTotal: files.length, bytesDone: 0, bytesTotal: contents.bytes };
    options.onProgress?.({ ...progress });
    aborted(signal);
    const spawn =
      options.spawnWorker === undefined
        ? typeof Worker === 'function'
          ? spawnModuleWorker
          : null
        : options.spawnWorker;
    const write = (chunk: Uint8Array<ArrayBuffer>) => out.write(chunk);
    zip = spawn ? zipOffThread(spawn, write) : openZipAssembler(write);
    const assembler = zip;
    // Reads run ahead of the zipper: a file's share of the budget is released once it is in the archive, so
    // with the Worker the page reads the next files while the last ones deflate on another core.
    const reads: (Promise<Uint8Array> | undefined)[] = [];
    let next = 0;
    let added = 0;
    let ahead = 0;
    const pump = () => {
      // One file is always allowed when nothing is in flight, however large (the listing's size is only a hint).
      while (next < files.length && (next === added || (next - added < READ_AHEAD_FILES && ahead < READ_AHEAD_BYTES))) {
        const file = files[next] as DirEntry;
        ahead += file.size;
        const read = fs.readBytes(file.path, { maxBytes: Number.MAX_SAFE_INTEGER });
        // Awaited in turn below; a read ahead that fails after a cancel must not surface as unhandled.
        read.catch(() => undefined);
        reads[next++] = read;
      }
    };
    for (let index = 0; index < files.length; index++) {
      pump();
      while (next <= index && failed === undefined) {
        await new Promise<void>((resolve) => (wake = resolve));
        pump();
      }
      if (failed !== undefined) throw failed;
      const file = files[index] as DirEntry;
      const data = await (reads[index] as Promise<Uint8Array>);
      reads[index] = undefined;
      if (failed !== undefined) throw failed;
      const bytes = data.byteLength;
      const name = relative(root, file.path);
      // With the Worker the bytes are transferred: `data` is empty on this side afterwards.
      assembler.add(name, data, STORED_EXTENSIONS.test(name) ? 0 : 6, signal).then(() => {
        added++;
        ahead -= file.size;
        progress.filesDone++;
        progress.bytesDone += bytes;
        options.onProgress?.({ ...progress });
        pump();
        wake?.();
      }, stop);
    }
    for (const folder of contents.emptyFolders) await assembler.folder(`${relative(root, folder)}/`);
    await assembler.close();
    if (failed !== undefined) throw failed;
    aborted(signal);
    await out.close();
    return progress;
  } catch (error) {
    zip?.dispose?.(error);
    await out.abort(error).catch(() => undefined);
    aborted(signal);
    throw failed ?? error;
  } finally {
    signal?.removeEventListener('abort', onAbort);
  }
}
