// "Kept" marks of a session (files and hunks the person reviewed and chose to keep), so the panel collapses them after
// a reload too. In IndexedDB `metrics` as [workspaceId, 'kept:<session>'] (deleted with the workspace). Losing one is
// cosmetic (a kept file shows expanded again), so a failed save is not reported.
import type { HarnessDb } from '../../core/page';

const MAX_KEYS = 2000;
const name = (session: string) => `kept:${session}`;

export interface KeptMarks {
  files: string[];
  hunks: string[];
}

const strings = (v: unknown): string[] =>
  Array.isArray(v) ? v.filter((x): x is string => typeof x === 'string' && x.length <= 4096) : [];

export async function readKept(db: HarnessDb, workspaceId: string, session: string): Promise<KeptMarks> {
  // Stored data is read back strictly: anything else than lists of strings counts as nothing kept.
  const record = await db.get('metrics', [workspaceId, name(session)]).catch(() => undefined);
  return { files: strings(record?.files), hunks: strings(record?.hunks) };
}

export async function saveKept(db: HarnessDb, workspaceId: string, session: string, marks: KeptMarks): Promise<void> {
  await db
    .put('metrics', {
      workspaceId,
      name: name(session),
      files: marks.files.slice(-MAX_KEYS),
      hunks: marks.hunks.slice(-MAX_KEYS),
    })
    .catch(() => undefined);
}
