// What the chat remembers about tool calls beyond the history: the diff the person approved (the approval request's
// `prepared.detail`, or each write of a plugin tool) and how long a call ran, for the tool card after the
// approval card is gone. Kept in memory for this page only (a reload shows the arguments without the diff).
//
// Keyed by call id and the call's arguments: some servers reuse ids across turns ("call_1"), and a diff must never
// attach to another call that happens to share the id.
import { createSignal } from 'solid-js';
import type { ApprovalRequest } from '../../core/page';

const MAX_CALLS = 200;
const [version, bump] = createSignal(0);
const diffs = new Map<string, string[]>();
const times = new Map<string, { start: number; end?: number }>();

const keyOf = (callId: string, args: string) => `${callId}\0${args}`;

/** The canonical text of a call's arguments (raw model text and the parsed object give the same key). */
function argsKey(args: string | Record<string, unknown>): string {
  if (typeof args !== 'string') return JSON.stringify(args);
  try {
    return JSON.stringify(JSON.parse(args));
  } catch {
    return args;
  }
}

function bounded<T>(map: Map<string, T>) {
  while (map.size > MAX_CALLS) map.delete(map.keys().next().value!);
}

/** Records the diff shown on an approval card. A plugin write's card names the plugin tool's call, not its path. */
export function rememberApproval(request: ApprovalRequest, pluginWrite: boolean) {
  const detail = request.prepared?.detail;
  if (!detail) return;
  // A plugin tool's writes are asked one by one under the tool's own call id; their arguments are not the call's.
  const key = pluginWrite ? `${request.callId}\0plugin` : keyOf(request.callId, argsKey(request.arguments));
  const list = diffs.get(key) ?? [];
  if (list.includes(detail)) return;
  diffs.set(key, [...list, detail]);
  bounded(diffs);
  bump((n) => n + 1);
}

/** The diffs approved for a call (a built-in edit/write has one; a plugin tool one per write it asked about). */
export function approvedDiffs(callId: string, args: string): string[] {
  version();
  return [...(diffs.get(keyOf(callId, argsKey(args))) ?? []), ...(diffs.get(`${callId}\0plugin`) ?? [])];
}

/** Notes when a call was first seen running and when its result came. */
export function noteToolTime(callId: string, args: string, phase: 'start' | 'end', now = performance.now()) {
  const key = keyOf(callId, argsKey(args));
  const t = times.get(key);
  if (phase === 'start') {
    if (t) return;
    times.set(key, { start: now });
    bounded(times);
  } else if (t && t.end === undefined) {
    times.set(key, { ...t, end: now });
    bump((n) => n + 1);
  }
}

/** Milliseconds a call ran, when this page saw it start and finish. */
export function toolDuration(callId: string, args: string): number | undefined {
  version();
  const t = times.get(keyOf(callId, argsKey(args)));
  return t?.end !== undefined ? t.end - t.start : undefined;
}
