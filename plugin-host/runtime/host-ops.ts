// The host operations of seed 004, answered on the page side. Every path goes through WorkspaceFs (one path policy
// for all implementations); KV goes through the KvStore port with the quota of limits.ts. A refusal is returned to
// the plugin as `{ok:false, error:"<CODE>: <message>"}` and the invocation goes on; this function never throws.

import { HarnessError, toErrorData } from '../errors';
import { ASK_REASON_TEXT, judgeWrite, shownWritePath, type AskReason, type FileStat, type WorkspaceFs } from '../fs';
import { boundedError } from './bounded-error';
import { RefusalCode } from './codes';
import type { HostCallRequest, HostResponse } from './frames';
import type { KvStore } from './kv-store';
import { KV_QUOTA, MAX_FILE_BYTES, MAX_LIST_ENTRIES } from './limits';

import type { WorkspacePermission } from '../package/manifest';
export type { WorkspacePermission };

export interface PluginPermissions {
  workspace: WorkspacePermission;
  storage: boolean;
}

/** What the person sees before a plugin writes a file. */
export interface WriteApprovalRequest {
  pluginId: string;
  /** The normalised workspace-relative path that will be written (what every card and record shows). */
  path: string;
  /** The path as the plugin sent it, present only when it differs from `path`: shown as `raw → path`. */
  rawPath?: string;
  /**
   * The path the write really reaches through symbolic links (Node backend), present only when it differs from
   * `path`: approval rules judge both (web/core/approval/rules.ts).
   */
  realPath?: string;
  /** Present when the workspace write policy says this write always asks (plugin-host/fs/write-policy.ts). */
  alwaysAsk?: { reason: AskReason; text: string };
  /** Current text, or null when the file does not exist or is not readable text. */
  oldText: string | null;
  exists: boolean;
  newText: string;
}

/**
 * Contract: resolve true to allow this one write, false to deny it (the plugin gets E_HOST_WRITE_DENIED and nothing
 * else is authorised); the signal aborts when the invocation is cancelled or ends, after which the answer is ignored.
 */
export type ApproveWrite = (request: WriteApprovalRequest, signal: AbortSignal) => Promise<boolean>;

/**
 * `ask` calls `approve` for every fs.write; the budget is paused while it waits. `auto` writes without asking,
 * except files the write policy marks always-ask (.vscode/, .envrc, CI workflows…): those go to `approve`, and
 * without one they are refused. `yolo` (the person's explicit "run everything") writes those too. Writes inside
 * .git are refused in every mode unless the fs was wrapped with a policy allowing them (`protectWrites`).
 */
export type WriteApproval =
  { mode: 'auto'; approve?: ApproveWrite } | { mode: 'ask'; approve: ApproveWrite } | { mode: 'yolo' };

export interface HostContext {
  pluginId: string;
  workspaceId: string;
  permissions: PluginPermissions;
  /** Null when no folder is granted. */
  fs: WorkspaceFs | null;
  kv: KvStore;
  approval: WriteApproval;
  signal: AbortSignal;
  /** Pauses the invocation budget; call the returned function to resume it. */
  pauseBudget: () => () => void;
  /** Called just before anything that changes state outside the plugin (a write, a KV change) starts. */
  onSideEffect: () => void;
}

const encoder = new TextEncoder();

const refuse = (code: string, message: string): HarnessError => new HarnessError(code, message);

export async function performHostCall(request: HostCallRequest, ctx: HostContext): Promise<HostResponse> {
  try {
    const result = await dispatch(request, ctx);
    return { id: request.id, ok: true, result };
  } catch (e) {
    // Refusals echo the path or key the plugin sent only as a bounded quote (the path policy and the messages here
    // quote through quoteUntrusted); boundedError keeps that true for any message from below (a store, a backend).
    const data = toErrorData(e, RefusalCode.FAILED);
    const { code, message } = boundedError(
      /^E_[A-Z0-9_]{1,40}$/.test(data.code) ? data.code : RefusalCode.FAILED,
      data.message,
    );
    return { id: request.id, ok: false, error: `${code}: ${message}` };
  }
}

async function dispatch({ op, args }: HostCallRequest, ctx: HostContext): Promise<Record<string, unknown>> {
  switch (op) {
    case 'fs.read': {
      const fs = readableFs(ctx);
      return { text: await fs.readText(args.path as string, { maxBytes: MAX_FILE_BYTES }) };
    }
    case 'fs.list': {
      const fs = readableFs(ctx);
      const entries = await fs.list(args.path as string, { maxEntries: MAX_LIST_ENTRIES });
      return { entries: entries.map((e) => ({ path: e.path, directory: e.directory, size: e.size })) };
    }
    case 'fs.write':
      return { bytes: await write(args.path as string, args.text as string, ctx) };
    case 'kv.get': {
      const key = kvKey(args.key as string, ctx);
      const json = await ctx.kv.get(scope(ctx), key);
      // A missing key answers `{}` (sdk-rust/fixtures/protocol/resume.kv.get.missing.json).
      return json === undefined ? {} : { value: JSON.parse(json) as unknown };
    }
    case 'kv.put': {
      const key = kvKey(args.key as string, ctx);
      const json = JSON.stringify(args.value ?? null);
      const valueBytes = encoder.encode(json).length;
      if (valueBytes > KV_QUOTA.maxValueBytes) {
        throw refuse(
          RefusalCode.KV_QUOTA,
          `The value is ${valueBytes} bytes of JSON; one KV value may hold ${KV_QUOTA.maxValueBytes}. Store less per key.`,
        );
      }
      const [usage, old] = await Promise.all([ctx.kv.usage(scope(ctx)), ctx.kv.get(scope(ctx), key)]);
      const keyBytes = encoder.encode(key).length;
      const oldBytes = old === undefined ? 0 : keyBytes + encoder.encode(old).length;
      const entries = usage.entries + (old === undefined ? 1 : 0);
      const total = usage.bytes - oldBytes + keyBytes + valueBytes;
      if (entries > KV_QUOTA.maxEntries || total > KV_QUOTA.maxTotalBytes) {
        throw refuse(
          RefusalCode.KV_QUOTA,
          `This plugin's storage in this workspace would hold ${entries} keys / ${total} bytes; the quota is ${KV_QUOTA.maxEntries} keys / ${KV_QUOTA.maxTotalBytes} bytes. Delete keys first.`,
        );
      }
      ctx.onSideEffect();
      await ctx.kv.put(scope(ctx), key, json);
      return {};
    }
    case 'kv.delete': {
      const key = kvKey(args.key as string, ctx);
      ctx.onSideEffect();
      await ctx.kv.delete(scope(ctx), key);
      return {};
    }
  }
}

function readableFs(ctx: HostContext): WorkspaceFs {
  if (ctx.permissions.workspace === 'none') {
    throw refuse(
      RefusalCode.PERMISSION,
      'This plugin did not ask for workspace access in its manifest (permissions.workspace is "none").',
    );
  }
  if (!ctx.fs)
    throw refuse(
      RefusalCode.NO_WORKSPACE,
      'No folder is granted to this workspace. Grant a folder, then run the tool again.',
    );
  return ctx.fs;
}

async function write(rawPath: string, text: string, ctx: HostContext): Promise<number> {
  const fs = readableFs(ctx);
  if (ctx.permissions.workspace !== 'read-write') {
    throw refuse(
      RefusalCode.PERMISSION,
      'This plugin may only read: its manifest asks for permissions.workspace "read". Writing needs "read-write".',
    );
  }
  if (fs.access !== 'read-write') {
    throw refuse(
      RefusalCode.READ_ONLY,
      'The folder is granted read-only. Grant read-write access to let plugins write.',
    );
  }
  // The write policy judges the normalised path before anyone is asked: a detour into .git is E_PATH_PROTECTED for
  // the plugin, and the person is never shown it. From here on only the normalised path is used and shown.
  const target = await judgeWrite(fs, rawPath);
  const path = target.path.path;
  const shown = shownWritePath(rawPath, path);
  const bytes = encoder.encode(text).length;
  if (bytes > MAX_FILE_BYTES) {
    throw refuse(
      RefusalCode.TOO_LARGE,
      `The text is ${bytes} bytes; a plugin may write at most ${MAX_FILE_BYTES} bytes per file.`,
    );
  }
  const approval = ctx.approval;
  const approve = approval.mode === 'yolo' ? undefined : approval.approve;
  if (approval.mode === 'ask' || (approval.mode === 'auto' && target.ask)) {
    const alwaysAsk = target.ask ? { reason: target.ask, text: ASK_REASON_TEXT[target.ask] } : undefined;
    if (!approve) {
      throw refuse(
        RefusalCode.WRITE_DENIED,
        `Writing ${shown} always needs the person's approval because ${alwaysAsk?.text ?? 'writes ask in this mode'}, and nobody can approve it in this run. Nothing was written; run the tool where a person can approve writes, or in YOLO mode.`,
      );
    }
    // stat goes through the path policy, so an escaping path is refused before the person is asked anything.
    const before = await snapshot(fs, path);
    const resume = ctx.pauseBudget();
    let approved: boolean;
    try {
      const request: WriteApprovalRequest = {
        pluginId: ctx.pluginId,
        path,
        ...(rawPath !== path ? { rawPath } : {}),
        ...(target.realPath !== undefined ? { realPath: target.realPath } : {}),
        ...(alwaysAsk ? { alwaysAsk } : {}),
        oldText: before.text,
        exists: before.stat !== null,
        newText: text,
      };
      approved = await approve(request, ctx.signal);
    } catch {
      approved = false;
    } finally {
      resume();
    }
    if (approved !== true || ctx.signal.aborted) {
      throw refuse(RefusalCode.WRITE_DENIED, `The write to ${shown} was not approved. Nothing was written.`);
    }
    // The person approved a diff against what the file held then: if it changed meanwhile (they kept editing), the
    // approval no longer describes this write.
    if (!sameFile(before, await snapshot(fs, path))) {
      throw refuse(
        RefusalCode.WRITE_CONFLICT,
        `${path} changed while the write was waiting for approval; nothing was written, so those changes are kept. Read the file again and write from its current text.`,
      );
    }
  }
  if (ctx.signal.aborted)
    throw refuse(
      RefusalCode.WRITE_DENIED,
      'The invocation was cancelled before the write started. Nothing was written.',
    );
  ctx.onSideEffect();
  await fs.writeText(path, text);
  return bytes;
}

interface FileSnapshot {
  stat: FileStat | null;
  /** The file's bytes, or null when it does not exist, is a folder, or could not be read (then size and mtime stand in). */
  bytes: Uint8Array | null;
  /** The bytes as strict UTF-8, or null. */
  text: string | null;
}

// ignoreBOM: a file's leading U+FEFF stays in the text the person is shown, so removing it is a visible change.
const strictUtf8 = new TextDecoder('utf-8', { fatal: true, ignoreBOM: true });

async function snapshot(fs: WorkspaceFs, path: string): Promise<FileSnapshot> {
  const stat = await fs.stat(path);
  if (!stat || stat.directory) return { stat, bytes: null, text: null };
  const bytes = await fs.readBytes(path, { maxBytes: MAX_FILE_BYTES }).catch(() => null);
  let text: string | null;
  try {
    text = bytes && strictUtf8.decode(bytes);
  } catch {
    text = null;
  }
  return { stat, bytes, text };
}

function sameFile(a: FileSnapshot, b: FileSnapshot): boolean {
  if (a.stat === null || b.stat === null) return a.stat === b.stat;
  if (a.stat.directory !== b.stat.directory || a.stat.size !== b.stat.size) return false;
  if (a.bytes && b.bytes) return a.bytes.length === b.bytes.length && a.bytes.every((x, i) => x === b.bytes![i]);
  return a.bytes === b.bytes && a.stat.modifiedMs === b.stat.modifiedMs;
}

function kvKey(key: string, ctx: HostContext): string {
  if (!ctx.permissions.storage) {
    throw refuse(
      RefusalCode.NO_STORAGE,
      'This plugin has no private storage: its manifest sets permissions.storage to false.',
    );
  }
  // A UTF-16 unit is 1 to 3 UTF-8 bytes: short keys are within bounds without encoding them.
  if (key.length >= 1 && key.length * 3 <= KV_QUOTA.maxKeyBytes) return key;
  const bytes = encoder.encode(key).length;
  if (bytes < 1 || bytes > KV_QUOTA.maxKeyBytes) {
    throw refuse(RefusalCode.KV_KEY, `KV keys are 1 to ${KV_QUOTA.maxKeyBytes} bytes; this one is ${bytes}.`);
  }
  return key;
}

const scope = (ctx: HostContext) => ({ workspaceId: ctx.workspaceId, pluginId: ctx.pluginId });
