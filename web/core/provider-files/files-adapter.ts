// Built-in Files support as a core wrapper around a pure adapter: before the adapter prepares a step's request, each
// distinct image of the history is looked up in the registry (account scope + SHA-256 of its bytes); a usable upload
// is referenced by file_id, a missing or expiring one is uploaded once through the operation executor (its limits:
// 8 per step, 180 s, 16 MiB, never retried). The history itself is never changed: the session keeps its base64
// snapshot, so a replay after expiry simply uploads again (or sends base64 when it cannot). A failed upload is not
// retried for the rest of the run; that image goes as base64 with a notice.
import { toErrorData } from '../contracts';
import type {
  ContentPart,
  Message,
  PrepareInput,
  PreparedRequest,
  ProviderAdapter,
  ProviderNotice,
} from '../providers';
import { splitDataUrl } from '../providers';
import type { FilesPolicy } from './provider-json';
import {
  answerMessage,
  MAX_OPERATION_BYTES,
  newBudget,
  runOperation,
  type OperationBudget,
  type OperationPorts,
} from './operations';
import type { FileRegistry } from './registry';

export interface ProviderFilesContext {
  policy: FilesPolicy;
  registry: FileRegistry;
  ports: Omit<OperationPorts, 'baseUrl' | 'signal'>;
  /** Hashes whose upload failed in this run: never tried again (seed 003: uploads are not retried). */
  failed: Set<string>;
  /** The file_ids the last prepared request referenced (for the "file not found" recovery). */
  lastUsed: string[];
  /** gc_expired ran in this run (once per run, at its first step). */
  gcDone: boolean;
}

export function newFilesContext(
  policy: FilesPolicy,
  registry: FileRegistry,
  ports: ProviderFilesContext['ports'],
): ProviderFilesContext {
  return { policy, registry, ports, failed: new Set(), lastUsed: [], gcDone: false };
}

const EXT: Record<string, string> = {
  'image/png': 'png',
  'image/jpeg': 'jpg',
  'image/gif': 'gif',
  'image/webp': 'webp',
};

function decodeBase64(data: string): Uint8Array {
  const bin = atob(data);
  const out = new Uint8Array(bin.length);
  for (let i = 0; i < bin.length; i++) out[i] = bin.charCodeAt(i);
  return out;
}

async function sha256Hex(bytes: Uint8Array): Promise<string> {
  const d = new Uint8Array(await crypto.subtle.digest('SHA-256', bytes as BufferSource));
  return Array.from(d, (b) => b.toString(16).padStart(2, '0')).join('');
}

const imageUrls = (history: readonly Message[]): string[] => {
  const urls = new Set<string>();
  for (const m of history)
    if (m.role === 'user' && typeof m.content !== 'string')
      for (const p of m.content) if (p.type === 'image_url') urls.add(p.image_url.url);
  return [...urls];
};

/** Resolves file_ids for the images of `input.history`, uploading what is missing. Returns url → file_id. */
async function resolveFiles(
  input: PrepareInput,
  ctx: ProviderFilesContext,
  notices: ProviderNotice[],
  budget: OperationBudget,
  signal?: AbortSignal,
): Promise<Map<string, string>> {
  const vendor = ctx.policy.vendor!;
  const now = ctx.ports.now ?? Date.now;
  const byUrl = new Map<string, string>();
  let stopped = false;
  for (const url of imageUrls(input.history)) {
    let image: { mediaType: string; data: string };
    try {
      image = splitDataUrl(url);
    } catch {
      continue; // not a data URL: the adapter reports it as it always did
    }
    const bytes = decodeBase64(image.data);
    const hash = await sha256Hex(bytes);
    const known = await ctx.registry.find(ctx.policy.scope, hash, now());
    if (known) {
      byUrl.set(url, known.file_id);
      continue;
    }
    if (stopped || ctx.failed.has(hash)) continue;
    if (bytes.byteLength > MAX_OPERATION_BYTES) {
      ctx.failed.add(hash);
      notices.push({
        code: 'N_PROVIDER_FILES_TOO_LARGE',
        message: `An image of ${bytes.byteLength} bytes is over the 16 MiB upload limit, so it goes as base64.`,
      });
      continue;
    }
    const boundary = `i-files-${hash.slice(0, 24)}`;
    const op = vendor.upload({
      baseUrl: input.base_url,
      bytes,
      mediaType: image.mediaType,
      filename: `image-${hash.slice(0, 12)}.${EXT[image.mediaType] ?? 'bin'}`,
      expiresAfterSeconds: ctx.policy.expiresAfterSeconds,
      boundary,
    });
    try {
      const result = await runOperation(
        op,
        { ...ctx.ports, baseUrl: input.base_url, ...(signal ? { signal } : {}) },
        budget,
      );
      if (result.status < 200 || result.status >= 300) {
        ctx.failed.add(hash);
        notices.push({
          code: 'N_PROVIDER_FILES_UPLOAD_FAILED',
          message: `Uploading an image failed (${result.status}: ${answerMessage(result) || 'no details'}). It is not retried; the image goes as base64 in this run.`,
        });
        continue;
      }
      const file = vendor.readFile(result.body);
      const created = file.created_at ?? now();
      const localExpiry =
        ctx.policy.expiresAfterSeconds !== null ? created + ctx.policy.expiresAfterSeconds * 1000 : null;
      const expires = file.expires_at ?? localExpiry;
      await ctx.registry.put({
        scope: ctx.policy.scope,
        hash,
        file_id: file.file_id,
        protocol: vendor.protocol,
        bytes: bytes.byteLength,
        media_type: image.mediaType,
        created_at: created,
        expires_at: expires,
      });
      byUrl.set(url, file.file_id);
    } catch (e) {
      const err = toErrorData(e, 'E_PROVIDER_OPERATION');
      // A person's Stop is not a failed upload: the image may be uploaded in the next run's step.
      if (err.code === 'E_ABORTED' || signal?.aborted) throw e;
      ctx.failed.add(hash);
      // A budget refusal ends this step's uploads; the remaining images go as base64.
      if (err.code === 'E_PROVIDER_OPERATION_LIMIT' || err.code === 'E_PROVIDER_OPERATION_TIMEOUT') stopped = true;
      notices.push({
        code: 'N_PROVIDER_FILES_UPLOAD_FAILED',
        message: `Uploading an image failed (${err.code}: ${err.message}). It is not retried; the image goes as base64 in this run.`,
      });
    }
  }
  return byUrl;
}

/** At most this many cleanup deletes per run, so the step keeps room for its uploads (8 operations a step). */
export const MAX_GC_DELETES = 4;

/**
 * gc_expired (off by default; needs provider_cleanup): deletes, as cleanup, uploads of this scope whose local expiry
 * passed, at most MAX_GC_DELETES, once per run. A 404 means the vendor already dropped it. Failures are not retried.
 */
async function collectExpired(
  input: PrepareInput,
  ctx: ProviderFilesContext,
  notices: ProviderNotice[],
  budget: OperationBudget,
  signal?: AbortSignal,
): Promise<void> {
  ctx.gcDone = true;
  const vendor = ctx.policy.vendor!;
  const now = (ctx.ports.now ?? Date.now)();
  const expired = (await ctx.registry.all())
    .filter(
      (r) =>
        r.scope === ctx.policy.scope && r.protocol === vendor.protocol && r.expires_at !== null && r.expires_at <= now,
    )
    .slice(0, MAX_GC_DELETES);
  for (const r of expired) {
    try {
      const result = await runOperation(
        { ...vendor.remove(input.base_url, r.file_id), cleanup: true },
        { ...ctx.ports, baseUrl: input.base_url, ...(signal ? { signal } : {}) },
        budget,
      );
      if ((result.status >= 200 && result.status < 300) || result.status === 404)
        await ctx.registry.forget([r.file_id], { scope: r.scope, protocol: r.protocol });
      else
        notices.push({
          code: 'N_PROVIDER_FILES_GC_FAILED',
          message: `Deleting the expired upload ${r.file_id} failed (${result.status}: ${answerMessage(result) || 'no details'}); it is not retried and stays in the registry.`,
        });
    } catch (e) {
      const err = toErrorData(e, 'E_PROVIDER_OPERATION');
      if (err.code === 'E_ABORTED') throw e;
      notices.push({
        code: 'N_PROVIDER_FILES_GC_FAILED',
        message: `Deleting the expired upload ${r.file_id} failed (${err.code}: ${err.message}); it is not retried.`,
      });
      return;
    }
  }
}

const withFileIds = (history: readonly Message[], byUrl: Map<string, string>): Message[] =>
  history.map((m) => {
    if (m.role !== 'user' || typeof m.content === 'string') return m;
    if (!m.content.some((p) => p.type === 'image_url' && byUrl.has(p.image_url.url))) return m;
    const content: ContentPart[] = m.content.map((p) =>
      p.type === 'image_url' && byUrl.has(p.image_url.url) ? { ...p, file_id: byUrl.get(p.image_url.url)! } : p,
    );
    return { ...m, content };
  });

/**
 * Wraps a pure adapter with the Files policy; in base64 mode it only adds the policy's notice. `budget`: the model
 * call's one budget (providerFilesStream shares it between a call's attempts); absent, each prepare gets its own.
 */
export function withProviderFiles(
  inner: ProviderAdapter,
  ctx: ProviderFilesContext,
  signal?: AbortSignal,
  budget?: OperationBudget,
): ProviderAdapter {
  return {
    ...inner,
    protocol: inner.protocol,
    async prepare(input: PrepareInput): Promise<PreparedRequest> {
      const notices: ProviderNotice[] = ctx.policy.notice ? [ctx.policy.notice] : [];
      ctx.lastUsed = [];
      if (ctx.policy.mode !== 'files' || !ctx.policy.vendor) {
        const prepared = await inner.prepare(input);
        return notices.length ? { ...prepared, notices: [...(prepared.notices ?? []), ...notices] } : prepared;
      }
      const stepBudget = budget ?? newBudget();
      if (ctx.policy.gc && !ctx.gcDone) await collectExpired(input, ctx, notices, stepBudget, signal);
      const byUrl = await resolveFiles(input, ctx, notices, stepBudget, signal);
      const prepared = await inner.prepare(
        byUrl.size ? { ...input, history: withFileIds(input.history, byUrl) } : input,
      );
      ctx.lastUsed = [...new Set(byUrl.values())];
      const headers = byUrl.size ? { ...prepared.headers, ...ctx.policy.vendor.modelHeaders } : prepared.headers;
      return {
        ...prepared,
        headers,
        ...(notices.length ? { notices: [...(prepared.notices ?? []), ...notices] } : {}),
      };
    },
    parse: (raw) => inner.parse(raw),
  };
}
