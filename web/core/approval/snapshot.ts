// Edit conflict detection (seed 000 §5: "编辑保留审批前内容快照并检查期间变化"). Contract for tool authors:
//   - `prepare(args, ctx)` reads the file(s) it will change and returns `{summary, detail, state: snapshot}`
//     where the snapshot comes from `takeFileSnapshot`;
//   - the loop asks for approval (which may take minutes), then calls `execute(args, ctx, prepared)`;
//   - `execute` calls `assertUnchanged(ctx.fs, prepared.state)` before writing and returns the thrown error's
//     code/message as a tool error if the file changed meanwhile. The edit is never applied to a file the person
//     did not see.
import { sha256 } from '@noble/hashes/sha2.js';
import { bytesToHex } from '@noble/hashes/utils.js';
import { HarnessError } from '../contracts';
import type { WorkspaceFs } from '../contracts';

export interface FileSnapshot {
  path: string;
  /** Null when the file did not exist at prepare time (a create). */
  sha256: string | null;
  size: number;
}

export async function takeFileSnapshot(fs: WorkspaceFs, path: string): Promise<FileSnapshot> {
  const stat = await fs.stat(path);
  if (!stat || stat.directory) return { path, sha256: null, size: 0 };
  const bytes = await fs.readBytes(path);
  return { path, sha256: bytesToHex(sha256(bytes)), size: bytes.length };
}

export function isFileSnapshot(value: unknown): value is FileSnapshot {
  if (typeof value !== 'object' || value === null) return false;
  const v = value as Record<string, unknown>;
  return (
    typeof v.path === 'string' && (v.sha256 === null || typeof v.sha256 === 'string') && typeof v.size === 'number'
  );
}

/** Throws E_EDIT_CONFLICT when the file differs from the snapshot taken before approval. */
export async function assertUnchanged(fs: WorkspaceFs, snapshot: FileSnapshot): Promise<void> {
  const now = await takeFileSnapshot(fs, snapshot.path);
  if (now.sha256 !== snapshot.sha256) {
    throw new HarnessError(
      'E_EDIT_CONFLICT',
      `The file ${snapshot.path} changed after the edit was prepared and shown for approval, so the edit was not applied. Read the file again and redo the edit.`,
      { path: snapshot.path },
    );
  }
}
