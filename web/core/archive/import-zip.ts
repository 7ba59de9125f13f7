// The second half of "Import .zip": unpack a judged plan into a workspace, counting the bytes actually
// inflated (declared sizes are only claims), and the whole import as a new private workspace that is removed
// again if anything fails, so a refused import leaves no half-filled workspace behind.
import {
  ERR_INVALID_CRC32,
  ERR_INVALID_UNCOMPRESSED_SIZE,
  ERR_OVERLAPPING_ENTRY,
  ERR_UNSUPPORTED_COMPRESSION,
  ERR_INVALID_COMPRESSED_DATA,
  type FileEntry,
} from '@zip.js/zip.js';
import { HarnessError, quoteUntrusted } from '../contracts';
import type { WorkspaceFs } from '../contracts';
import type { HarnessDb, WorkspaceRecord } from '../storage';
import { createOpfsWorkspace, deleteWorkspace, type OpfsRoot } from '../workspaces';
import { ZIP_IMPORT_LIMITS, type ZipImportLimits } from './limits';
import { refuseImport } from './refusals';
import {
  checkRatio,
  planZipImport,
  READ_OPTIONS,
  zipFailure,
  type PlannedEntry,
  type ZipImportPlan,
} from './zip-entries';

export interface ZipProgress {
  filesDone: number;
  filesTotal: number;
  bytesDone: number;
  bytesTotal: number;
}

export interface ZipImportOptions {
  limits?: Partial<ZipImportLimits>;
  signal?: AbortSignal;
  onProgress?: (progress: ZipProgress) => void;
}

const cancelled = () => refuseImport('E_ARCHIVE_CANCELLED', 'The import was cancelled.');

/** A sink for one entry's inflated bytes that refuses the entry the moment it passes its bound. */
function boundedSink(entry: PlannedEntry, limits: ZipImportLimits, total: { bytes: number }) {
  const chunks: Uint8Array[] = [];
  let size = 0;
  const stream = new WritableStream<Uint8Array>({
    write(chunk) {
      size += chunk.byteLength;
      total.bytes += chunk.byteLength;
      if (size > entry.declaredBytes) {
        throw refuseImport(
          'E_ARCHIVE_BOMB',
          `The entry ${quoteUntrusted(entry.path)} inflates past the ${entry.declaredBytes} bytes it declares.`,
          { entry: entry.path, declared: entry.declaredBytes },
        );
      }
      if (total.bytes > limits.totalBytes)
        throw refuseImport('E_ARCHIVE_TOO_LARGE', `The archive unpacks to more than ${limits.totalBytes} bytes.`, {
          max: limits.totalBytes,
        });
      checkRatio(entry.path, size, entry.compressedBytes, limits);
      chunks.push(chunk);
    },
  });
  const bytes = () => {
    const out = new Uint8Array(size);
    let at = 0;
    for (const c of chunks) {
      out.set(c, at);
      at += c.byteLength;
    }
    return out;
  };
  return { stream, bytes };
}

function dataFailure(error: unknown, entry: PlannedEntry, signal?: AbortSignal): HarnessError {
  if (signal?.aborted) return cancelled();
  // zip.js rethrows what a sink threw, sometimes wrapped as the stream's reason.
  const inner = (error as { cause?: unknown })?.cause;
  if (HarnessError.isInstance(error)) return error;
  if (HarnessError.isInstance(inner)) return inner;
  const message = error instanceof Error ? error.message : String(error);
  const at = quoteUntrusted(entry.path);
  if (message === ERR_INVALID_CRC32)
    return refuseImport('E_PACKAGE_CRC', `The entry ${at} does not match its CRC-32.`, { entry: entry.path });
  if (message === ERR_OVERLAPPING_ENTRY)
    return refuseImport('E_ARCHIVE_BOMB', `The entry ${at} shares its data with another entry.`, { entry: entry.path });
  // zip.js stops inflating at the declared size, so a size lowered to slip past the bounds ends here too.
  if (message === ERR_INVALID_UNCOMPRESSED_SIZE)
    return refuseImport('E_PACKAGE_HEADER_MISMATCH', `The entry ${at} does not inflate to the size it declares.`, {
      entry: entry.path,
    });
  if (message === ERR_UNSUPPORTED_COMPRESSION)
    return refuseImport('E_PACKAGE_METHOD', `The entry ${at} uses an unsupported compression method.`, {
      entry: entry.path,
    });
  if (message === ERR_INVALID_COMPRESSED_DATA)
    return refuseImport('E_PACKAGE_MALFORMED', `The compressed data of ${at} is broken.`, { entry: entry.path });
  return zipFailure(error);
}

/** Unpacks a judged plan into `fs` (every path through its policy again on write). */
export async function extractZipPlan(
  plan: ZipImportPlan,
  fs: WorkspaceFs,
  options: ZipImportOptions = {},
): Promise<ZipProgress> {
  const limits = { ...ZIP_IMPORT_LIMITS, ...options.limits };
  const progress: ZipProgress = { filesDone: 0, filesTotal: plan.files, bytesDone: 0, bytesTotal: plan.declaredBytes };
  const total = { bytes: 0 };
  options.onProgress?.({ ...progress });
  for (const entry of plan.entries) {
    if (options.signal?.aborted) throw cancelled();
    if (entry.directory) {
      await fs.mkdir(entry.path);
      continue;
    }
    const sink = boundedSink(entry, limits, total);
    try {
      await (entry.source as FileEntry).getData(sink.stream, {
        ...READ_OPTIONS,
        ...(options.signal ? { signal: options.signal } : {}),
      });
    } catch (error) {
      throw dataFailure(error, entry, options.signal);
    }
    await fs.writeBytes(entry.path, sink.bytes());
    progress.filesDone++;
    progress.bytesDone = total.bytes;
    options.onProgress?.({ ...progress });
  }
  return progress;
}

/** Judges and unpacks `archive` into an existing workspace. Used by tests and by the workspace import below. */
export async function importZip(archive: Blob, fs: WorkspaceFs, options: ZipImportOptions = {}): Promise<ZipProgress> {
  const plan = await planZipImport(archive, { ...ZIP_IMPORT_LIMITS, ...options.limits });
  try {
    return await extractZipPlan(plan, fs, options);
  } finally {
    await plan.close();
  }
}

export interface ZipWorkspaceImport extends ZipImportOptions {
  name: string;
  archive: Blob;
  /** Opens the new workspace's files (the page passes its File System Access factory). */
  openFs: (record: WorkspaceRecord) => Promise<WorkspaceFs>;
  opfsRoot?: OpfsRoot;
}

/**
 * "Import .zip" into a new private workspace: the archive's directory is judged before the workspace exists;
 * a refusal while unpacking (a lying size, a bad checksum, Cancel) deletes the workspace and its files again.
 */
export async function importZipAsWorkspace(db: HarnessDb, request: ZipWorkspaceImport): Promise<WorkspaceRecord> {
  const plan = await planZipImport(request.archive, { ...ZIP_IMPORT_LIMITS, ...request.limits });
  try {
    if (request.signal?.aborted) throw cancelled();
    const record = await createOpfsWorkspace(db, request.name, request.opfsRoot ? { opfsRoot: request.opfsRoot } : {});
    try {
      await extractZipPlan(plan, await request.openFs(record), request);
    } catch (error) {
      await deleteWorkspace(db, record.id, request.opfsRoot ? { opfsRoot: request.opfsRoot } : {}).catch(
        () => undefined,
      );
      throw error;
    }
    return record;
  } finally {
    await plan.close();
  }
}
