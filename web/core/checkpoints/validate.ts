// Stored records are read back through a check (a hand-edited or cut file must not steer a revert): the first
// problem found, or null.
import { SHA256_PATTERN } from './hash';
import { ABSENT, type CheckpointRecord } from './types';

const KINDS = new Set(['write', 'revert', 'turn']);
const state = (v: unknown) => v === ABSENT || (typeof v === 'string' && SHA256_PATTERN.test(v));
const size = (v: unknown) => v === null || (typeof v === 'number' && Number.isSafeInteger(v) && v >= 0);
const int = (v: unknown, min: number) => typeof v === 'number' && Number.isSafeInteger(v) && v >= min;

export function recordProblem(r: unknown, session?: string): string | null {
  if (typeof r !== 'object' || r === null) return 'is not an object';
  const x = r as Partial<CheckpointRecord>;
  const bad: string[] = [];
  if (!int(x.seq, 0)) bad.push('seq');
  if (!KINDS.has(x.kind as string)) bad.push('kind');
  if (typeof x.session !== 'string' || (session !== undefined && x.session !== session)) bad.push('session');
  if (!int(x.turn, 0)) bad.push('turn');
  if (!int(x.step, 0)) bad.push('step');
  for (const k of ['callId', 'tool', 'path'] as const) if (typeof x[k] !== 'string') bad.push(k);
  if (!state(x.before)) bad.push('before');
  if (!state(x.after)) bad.push('after');
  if (!size(x.beforeBytes)) bad.push('beforeBytes');
  if (!size(x.afterBytes)) bad.push('afterBytes');
  if (typeof x.at !== 'number' || !Number.isFinite(x.at)) bad.push('at');
  if (x.covers !== undefined && (!Array.isArray(x.covers) || !x.covers.every((n) => int(n, 0)))) bad.push('covers');
  if (x.group !== undefined && typeof x.group !== 'string') bad.push('group');
  if (x.undoes !== undefined && typeof x.undoes !== 'string') bad.push('undoes');
  if (x.pruned !== undefined && x.pruned !== true) bad.push('pruned');
  return bad.length ? `invalid ${bad.join(', ')}` : null;
}

export function checkRecords(records: unknown, session?: string): string | null {
  if (!Array.isArray(records)) return 'has no record list';
  for (let i = 0; i < records.length; i++) {
    const problem = recordProblem(records[i], session);
    if (problem) return `has a bad record ${i} (${problem})`;
  }
  return null;
}
