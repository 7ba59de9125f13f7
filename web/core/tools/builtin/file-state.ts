// What `write` and `edit` read before approval: the current bytes (or null for a new file), the text when it is
// text, and the approval snapshot (seed 000 §5: the pre-approval content is kept and checked before writing).
import { HarnessError } from '../../contracts';
import type { FileSnapshot } from '../../approval';
import type { WorkspaceFs } from '../../contracts';
import { BINARY_SNIFF_BYTES } from '../../contracts';
import { decodeText, hasNul, snapshotOf } from './tool-kit';

export interface FileState {
  path: string;
  exists: boolean;
  /** Null when the file is missing or binary. */
  text: string | null;
  snapshot: FileSnapshot;
}

export async function readFileState(fs: WorkspaceFs, path: string): Promise<FileState> {
  const stat = await fs.stat(path);
  if (stat?.directory)
    throw new HarnessError(
      'E_WRITE_IS_DIRECTORY',
      `${path} is a folder, so it cannot be written as a file. Choose a file path.`,
      { path },
    );
  if (!stat) return { path, exists: false, text: null, snapshot: snapshotOf(path, null) };
  const bytes = await fs.readBytes(path);
  const text = hasNul(bytes, BINARY_SNIFF_BYTES) ? null : decodeText(bytes);
  return { path, exists: true, text, snapshot: snapshotOf(path, bytes) };
}

export function isSnapshot(value: unknown): value is FileSnapshot {
  if (typeof value !== 'object' || value === null) return false;
  const v = value as Record<string, unknown>;
  return (
    typeof v.path === 'string' && (v.sha256 === null || typeof v.sha256 === 'string') && typeof v.size === 'number'
  );
}
