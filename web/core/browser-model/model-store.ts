// GGUF files kept in this origin's private file system (OPFS, folder `models/`), for the in-browser model: copied
// from a file the person picks, or downloaded from an HTTPS URL by the browser, resumable (the `.part` file and a
// Range request conditional on the first answer's ETag or Last-Modified), with size and SHA-256 shown and deletion telling the space it frees. Every file is checked as a
// GGUF (gguf.ts) before it counts as stored. Weights are never part of the app: the person brings them.
import { sha256 } from '@noble/hashes/sha2.js';
import { HarnessError } from '../contracts';
import { readGgufHeader } from './gguf';

export interface StoredModel {
  name: string;
  size: number;
  sha256: string;
  /** Where it came from: the URL, or "file". */
  source: string;
  addedAt: number;
}

export interface PartialDownload {
  name: string;
  url: string;
  have: number;
  total: number | null;
}

export interface StorePorts {
  root?: () => Promise<FileSystemDirectoryHandle>;
  estimate?: () => Promise<StorageEstimate>;
  fetch?: typeof fetch;
}

const NAME = /^[A-Za-z0-9][A-Za-z0-9._ -]{0,150}\.gguf$/;
const CHUNK = 8 * 1024 * 1024;

const dir = async (p: StorePorts) =>
  (await (p.root ?? (() => navigator.storage.getDirectory()))()).getDirectoryHandle('models', { create: true });

export function checkModelName(name: string): string {
  if (!NAME.test(name))
    throw new HarnessError(
      'E_BROWSER_MODEL_NAME',
      `"${name.slice(0, 80)}" is not a usable model file name. Use letters, digits, dots, dashes or spaces, ending in .gguf.`,
    );
  return name;
}

/** The file name a URL stores as (its last path segment). */
export function nameFromUrl(url: string): string {
  const segment = new URL(url).pathname.split('/').pop() ?? '';
  let last: string;
  try {
    last = decodeURIComponent(segment);
  } catch {
    // `%` not followed by two hex digits, or escapes that are not UTF-8 (URIError).
    throw new HarnessError(
      'E_BROWSER_MODEL_URL',
      `The file name in this address has a broken %-escape ("${segment.slice(0, 80)}"): each % must be followed by two hex digits that spell UTF-8. Copy the address again from the model's download link (it was probably cut or edited), or write the file name without escapes.`,
      { segment: segment.slice(0, 200) },
    );
  }
  return checkModelName(last.endsWith('.gguf') ? last : `${last}.gguf`);
}

/** What `<name>.part.json` records: the URL and size of the first answer, and its validators for a resume. */
interface PartMeta {
  url: string;
  total: number | null;
  /** A strong ETag (weak ones cannot be used with If-Range). */
  etag?: string;
  lastModified?: string;
}

/** The validators of an answer, as far as this origin can read them (ETag only if the server exposes it). */
function validatorsOf(r: Response): Pick<PartMeta, 'etag' | 'lastModified'> {
  const etag = r.headers.get('etag');
  const lastModified = r.headers.get('last-modified');
  return { ...(etag && !etag.startsWith('W/') ? { etag } : {}), ...(lastModified ? { lastModified } : {}) };
}

/**
 * Whether a 206/416 answer to a resume is about the file the part came from. A validator it shows must equal the
 * one recorded; `confirm` (the request went without If-Range, so the server did not check) also needs one to match.
 */
function sameFile(r: Response, meta: PartMeta, confirm: boolean): boolean {
  const now = validatorsOf(r);
  const etag = meta.etag && now.etag ? meta.etag === now.etag : undefined;
  const date = meta.lastModified && now.lastModified ? meta.lastModified === now.lastModified : undefined;
  if (etag === false || date === false) return false;
  return !confirm || etag === true || date === true;
}

async function readJson<T>(d: FileSystemDirectoryHandle, name: string): Promise<T | null> {
  try {
    return JSON.parse(await (await (await d.getFileHandle(name)).getFile()).text()) as T;
  } catch {
    return null;
  }
}

async function writeJson(d: FileSystemDirectoryHandle, name: string, value: unknown) {
  const w = await (await d.getFileHandle(name, { create: true })).createWritable();
  await w.write(JSON.stringify(value));
  await w.close();
}

async function hashOf(file: Blob, onProgress?: (done: number) => void): Promise<string> {
  const h = sha256.create();
  for (let at = 0; at < file.size; at += CHUNK) {
    h.update(new Uint8Array(await file.slice(at, at + CHUNK).arrayBuffer()));
    onProgress?.(Math.min(file.size, at + CHUNK));
  }
  return [...h.digest()].map((b) => b.toString(16).padStart(2, '0')).join('');
}

const quotaError = (need: number, free: number) =>
  new HarnessError(
    'E_BROWSER_MODEL_QUOTA',
    `The browser's storage for this app has about ${Math.round(free / 2 ** 20)} MiB free and this model needs ${Math.round(need / 2 ** 20)} MiB. Delete a stored model in Settings → Model, free disk space, or pick a smaller model.`,
    { need, free },
  );

async function checkQuota(p: StorePorts, need: number) {
  const e = await (p.estimate ?? (() => navigator.storage.estimate()))();
  const free = (e.quota ?? Infinity) - (e.usage ?? 0);
  if (need > free) throw quotaError(need, free);
}

const isQuota = (e: unknown) => e instanceof DOMException && e.name === 'QuotaExceededError';

export async function listStoredModels(p: StorePorts = {}): Promise<StoredModel[]> {
  const d = await dir(p);
  const out: StoredModel[] = [];
  for await (const [name, handle] of d as unknown as AsyncIterable<[string, FileSystemHandle]>) {
    if (handle.kind !== 'file' || !name.endsWith('.gguf')) continue;
    const meta = await readJson<StoredModel>(d, `${name}.json`);
    const size = (await (handle as FileSystemFileHandle).getFile()).size;
    out.push({ name, size, sha256: meta?.sha256 ?? '', source: meta?.source ?? 'file', addedAt: meta?.addedAt ?? 0 });
  }
  return out.sort((a, b) => a.name.localeCompare(b.name));
}

export async function openStoredModel(name: string, p: StorePorts = {}): Promise<File> {
  try {
    return await (await (await dir(p)).getFileHandle(checkModelName(name))).getFile();
  } catch (error) {
    if (error instanceof HarnessError) throw error;
    throw new HarnessError(
      'E_BROWSER_MODEL_MISSING',
      `The model "${name}" is not stored in this browser. Add it again in Settings → Model.`,
      { name },
    );
  }
}

/** Deletes a stored model (and any partial download of it); returns the bytes freed. */
export async function deleteStoredModel(name: string, p: StorePorts = {}): Promise<number> {
  const d = await dir(p);
  let freed = 0;
  for (const n of [checkModelName(name), `${name}.part`, `${name}.import`]) {
    try {
      freed += (await (await d.getFileHandle(n)).getFile()).size;
      await d.removeEntry(n);
    } catch {
      // not there
    }
  }
  for (const n of [`${name}.json`, `${name}.part.json`]) await d.removeEntry(n).catch(() => undefined);
  return freed;
}

/** Copies a picked file into the store after checking it is a GGUF this app can run and that it fits. */
export async function importModelFile(
  file: File,
  onProgress: (done: number, total: number) => void = () => undefined,
  p: StorePorts = {},
): Promise<StoredModel> {
  const name = checkModelName(file.name);
  await readGgufHeader(file);
  await checkQuota(p, file.size);
  const d = await dir(p);
  // Written under a temporary name and moved only when whole, so a failed re-import leaves the stored model alone.
  const tempName = `${name}.import`;
  const temp = await d.getFileHandle(tempName, { create: true });
  const w = await temp.createWritable();
  try {
    for (let at = 0; at < file.size; at += CHUNK) {
      await w.write(await file.slice(at, at + CHUNK).arrayBuffer());
      onProgress(Math.min(file.size, at + CHUNK), file.size);
    }
    await w.close();
  } catch (error) {
    await w.abort().catch(() => undefined); // an open writable locks the file: it could be neither removed nor moved
    await d.removeEntry(tempName).catch(() => undefined);
    if (isQuota(error)) throw quotaError(file.size, 0);
    throw error;
  }
  const model: StoredModel = { name, size: file.size, sha256: await hashOf(file), source: 'file', addedAt: Date.now() };
  await replaceWith(d, temp, tempName, name);
  await writeJson(d, `${name}.json`, model);
  return model;
}

/**
 * Puts a finished temporary file in place of `name`, so a model of that name is never missing in between: Chromium's
 * `move` replaces the target in one step; elsewhere (or where `move` will not replace) the copy goes through a
 * writable, which replaces the file's contents only when it closes.
 */
async function replaceWith(d: FileSystemDirectoryHandle, temp: FileSystemFileHandle, tempName: string, name: string) {
  const movable = temp as FileSystemFileHandle & { move?: (name: string) => Promise<void> };
  if (movable.move) {
    try {
      return await movable.move(name);
    } catch {
      // copied below
    }
  }
  const w = await (await d.getFileHandle(name, { create: true })).createWritable();
  try {
    await w.write(await temp.getFile());
    await w.close();
  } catch (error) {
    await w.abort().catch(() => undefined);
    throw error;
  }
  await d.removeEntry(tempName);
}

export async function partialDownloads(p: StorePorts = {}): Promise<PartialDownload[]> {
  const d = await dir(p);
  const out: PartialDownload[] = [];
  for await (const [name] of d as unknown as AsyncIterable<[string, FileSystemHandle]>) {
    if (!name.endsWith('.gguf.part.json')) continue;
    const meta = await readJson<PartMeta>(d, name);
    const part = name.slice(0, -'.json'.length);
    const have = await d
      .getFileHandle(part)
      .then((h) => h.getFile())
      .then(
        (f) => f.size,
        () => 0,
      );
    if (meta) out.push({ name: part.slice(0, -'.part'.length), url: meta.url, have, total: meta.total });
  }
  return out;
}

/**
 * Downloads an HTTPS URL into the store. A `.part` file keeps what arrived; calling again with the same URL asks
 * for the rest (`Range`) only if the file is still the one the part came from: `If-Range` with the first answer's
 * strong ETag, else its Last-Modified, so a changed file comes back whole (200) and is written from byte 0; a 206
 * whose validator differs also starts over, and a part whose first answer had no validator is not resumed at all.
 * A server that ignores Range, or answers from another byte, starts over; a 416 for a part that is already whole
 * finishes it. The GGUF check and the SHA-256 are always of the whole file. Interrupted:
 * E_BROWSER_MODEL_DOWNLOAD_INTERRUPTED; storage full:
 * E_BROWSER_MODEL_QUOTA (before writing, or during it with the part kept for a resume). A model of the same name
 * is replaced only once the new file is whole and checked.
 */
export async function downloadModel(
  url: string,
  o: { onProgress?: (done: number, total: number | null) => void; signal?: AbortSignal } = {},
  p: StorePorts = {},
): Promise<StoredModel> {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    throw new HarnessError(
      'E_BROWSER_MODEL_URL',
      `"${url.slice(0, 120)}" is not a URL. Paste the model file's https:// address.`,
    );
  }
  if (
    parsed.protocol !== 'https:' &&
    !(parsed.protocol === 'http:' && ['localhost', '127.0.0.1', '[::1]'].includes(parsed.hostname))
  ) {
    throw new HarnessError(
      'E_BROWSER_MODEL_URL',
      'Model downloads use https:// addresses (http only from localhost). Paste the https:// address of the .gguf file.',
    );
  }
  const name = nameFromUrl(url);
  const d = await dir(p);
  const partName = `${name}.part`;
  const meta = await readJson<PartMeta>(d, `${partName}.json`);
  const partHandle = await d.getFileHandle(partName, { create: true });
  const ifRange = meta?.etag ?? meta?.lastModified;
  // Without a validator nothing shows that the server's file is still the one the part came from: start over
  // rather than splice two versions together.
  let have = meta?.url === url && ifRange ? (await partHandle.getFile()).size : 0;
  const request = (from: number, condition?: string) => {
    const headers: Record<string, string> = from
      ? { range: `bytes=${from}-`, ...(condition ? { 'if-range': condition } : {}) }
      : {};
    return (p.fetch ?? fetch)(url, { ...(from ? { headers } : {}), ...(o.signal ? { signal: o.signal } : {}) });
  };
  const get = (from: number, condition?: string) =>
    request(from, condition).catch((error: unknown) => {
      throw interrupted(name, from, meta?.total ?? null, error);
    });
  let response: Response;
  if (have > 0 && meta && ifRange) {
    let confirm = false;
    try {
      response = await request(have, ifRange);
    } catch (error) {
      // If-Range is not a CORS-safelisted header: a cross-origin server whose preflight does not allow it refuses
      // the request before it is sent. Ask once more with Range alone; the answer's validators are compared here.
      if (o.signal?.aborted) throw interrupted(name, have, meta.total, error);
      response = await get(have);
      confirm = true;
    }
    const resume =
      response.status === 206 || response.status === 416
        ? sameFile(response, meta, confirm)
          ? resumeOf(response, have, meta.total)
          : 'restart'
        : 'continue';
    if (resume !== 'continue') await response.body?.cancel().catch(() => undefined);
    // Every byte arrived before the tab closed (or the last attempt stopped before the move): check and store it.
    if (resume === 'complete') return finish(d, partHandle, partName, name, url);
    if (resume === 'restart') {
      have = 0;
      response = await get(0);
    }
  } else {
    response = await get(0);
  }
  if (!response.ok || !response.body)
    throw new HarnessError(
      'E_BROWSER_MODEL_DOWNLOAD',
      `The server answered ${response.status} for ${parsed.host}. Check the address (it must be the .gguf file itself, not its web page).`,
      { status: response.status },
    );
  if (response.status !== 206) have = 0; // the server sent the whole file (a 200 to If-Range: it changed)
  const rest = Number(response.headers.get('content-length') ?? NaN);
  const total = Number.isFinite(rest) ? have + rest : null;
  // A resumed part keeps the validators of its first answer; a fresh start records the ones of this answer.
  const validators =
    have > 0 && meta
      ? { ...(meta.etag ? { etag: meta.etag } : {}), ...(meta.lastModified ? { lastModified: meta.lastModified } : {}) }
      : validatorsOf(response);
  if (total !== null) {
    await checkQuota(p, total - have).catch(async (error: unknown) => {
      if (have === 0) await d.removeEntry(partName).catch(() => undefined); // nothing held: leave no empty file behind
      throw error;
    });
  }
  await writeJson(d, `${partName}.json`, { url, total, ...validators } satisfies PartMeta);
  const w = await partHandle.createWritable({ keepExistingData: have > 0 });
  if (have === 0) await w.truncate(0);
  else await w.seek(have);
  const reader = response.body.getReader();
  try {
    for (;;) {
      const { done, value } = await reader.read();
      if (done) break;
      await w.write(value);
      have += value.byteLength;
      o.onProgress?.(have, total);
    }
    await w.close();
  } catch (error) {
    // What was written stays in the .part file, so the same URL resumes once space is freed or the network is back.
    await w.close().catch(() => undefined);
    await reader.cancel().catch(() => undefined);
    if (isQuota(error)) throw quotaError(total ?? have, 0);
    throw interrupted(name, have, total, error);
  }
  if (total !== null && have < total) throw interrupted(name, have, total, null);
  return finish(d, partHandle, partName, name, url);
}

/**
 * What the answer to `Range: bytes=<have>-` means. 416 whose whole size is `have`: nothing is left ('complete'). A
 * 206 must start at `have`, else the bytes would land in the wrong place ('restart' from 0). Content-Range is not
 * readable cross-origin unless the server exposes it; then the size recorded at the first answer decides.
 */
function resumeOf(r: Response, have: number, total: number | null): 'continue' | 'complete' | 'restart' {
  const range = r.headers.get('content-range');
  if (r.status === 416) {
    const whole = range ? Number(/^bytes \*\/(\d+)$/.exec(range)?.[1] ?? NaN) : total;
    return whole === have ? 'complete' : 'restart';
  }
  if (r.status !== 206) return 'continue'; // a 200 is the whole file; an error status is refused by the caller
  if (range) return Number(/^bytes (\d+)-/.exec(range)?.[1] ?? NaN) === have ? 'continue' : 'restart';
  const rest = Number(r.headers.get('content-length') ?? NaN);
  return total !== null && have + rest === total ? 'continue' : 'restart';
}

/** Checks the whole .part file as a GGUF, hashes it, and moves it in place of any model of the same name. */
async function finish(
  d: FileSystemDirectoryHandle,
  partHandle: FileSystemFileHandle,
  partName: string,
  name: string,
  url: string,
): Promise<StoredModel> {
  const part = await partHandle.getFile();
  await readGgufHeader(part);
  const model: StoredModel = { name, size: part.size, sha256: await hashOf(part), source: url, addedAt: Date.now() };
  await replaceWith(d, partHandle, partName, name);
  await d.removeEntry(`${partName}.json`).catch(() => undefined);
  await writeJson(d, `${name}.json`, model);
  return model;
}

function interrupted(name: string, have: number, total: number | null, cause: unknown) {
  const why = cause instanceof Error ? ` (${cause.message.slice(0, 120)})` : '';
  return new HarnessError(
    'E_BROWSER_MODEL_DOWNLOAD_INTERRUPTED',
    `The download of ${name} stopped after ${Math.round(have / 2 ** 20)} MiB${total ? ` of ${Math.round(total / 2 ** 20)} MiB` : ''}${why}. Start it again with the same URL: it resumes where it stopped.`,
    { name, have, total },
  );
}
