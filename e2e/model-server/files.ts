// Files endpoints in each vendor's documented shape, for provider Files tests. OpenAI (and DeepSeek, which copies
// it): POST {base}/files multipart (purpose, file, expires_after[anchor|seconds]) → {id: "file-…", object: "file",
// bytes, created_at, expires_at, filename, purpose}; GET /files → {object: "list", data}; GET/DELETE /files/{id}
// (DELETE → {id, object: "file", deleted: true}); lists are paged (limit/after, has_more); unknown → 404 {error: {message: "No such File object: …"}}.
// Anthropic (requests carrying anthropic-version): POST /v1/files → {id: "file_…", type: "file", filename,
// mime_type, size_bytes, created_at (RFC 3339), downloadable}; GET list → {data, has_more, first_id, last_id};
// DELETE → {id, type: "file_deleted"}; unknown → 404 {type: "error", error: {type: "not_found_error", …}}.
// An expired file answers like an unknown one. A model request that references an unknown file_id is answered
// 404 "file not found" without taking a script turn.

export const isFilesPath = (path: string) => /^(\/v1)?\/files(\/[^/]+)?$/.test(path);

interface Multipart {
  fields: Record<string, string>;
  file: { filename: string; contentType: string; bytes: Buffer } | null;
}

function parseMultipart(contentType: string, raw: Buffer): Multipart | null {
  const m = /boundary=([^;]+)/.exec(contentType);
  if (!m) return null;
  const delimiter = Buffer.from(`--${m[1]!.replace(/^"|"$/g, '')}`);
  const out: Multipart = { fields: {}, file: null };
  let at = raw.indexOf(delimiter);
  while (at >= 0) {
    const start = at + delimiter.length;
    if (raw.subarray(start, start + 2).toString() === '--') break;
    const next = raw.indexOf(delimiter, start);
    if (next < 0) return null;
    const part = raw.subarray(start + 2, next - 2); // skip CRLF after the delimiter and before the next
    const split = part.indexOf('\r\n\r\n');
    if (split < 0) return null;
    const head = part.subarray(0, split).toString('utf8');
    const bytes = part.subarray(split + 4);
    const name = /name="([^"]*)"/.exec(head)?.[1];
    const filename = /filename="([^"]*)"/.exec(head)?.[1];
    if (name === 'file' && filename !== undefined)
      out.file = {
        filename,
        contentType: /content-type:\s*([^\r\n]+)/i.exec(head)?.[1] ?? 'application/octet-stream',
        bytes: Buffer.from(bytes),
      };
    else if (name) out.fields[name] = bytes.toString('utf8');
    at = next;
  }
  return out;
}

export interface FilesRoute {
  status: number;
  body: unknown;
}

export interface FilesOptions {
  /** The first N uploads are answered 500 (upload-failure tests). */
  failUploads?: number;
  /** The server's clock for created_at/expires_at (defaults to Date.now). */
  now?: () => number;
  /** Caps every list page at this many files, whatever `limit` asks (pagination tests). */
  maxPageSize?: number;
}

export interface StoredFile {
  id: string;
  filename: string;
  mime_type: string;
  purpose: string | null;
  bytes: Buffer;
  created_at: number;
  expires_at: number | null;
}

export function createFilesStore(options: FilesOptions) {
  const files = new Map<string, StoredFile>();
  let seq = 0;
  let uploads = 0;
  let listPages = 0;
  const now = () => options.now?.() ?? Date.now();
  const alive = (f: StoredFile | undefined) => (f && (f.expires_at === null || f.expires_at > now()) ? f : undefined);
  const openaiShape = (f: StoredFile) => ({
    id: f.id,
    object: 'file',
    bytes: f.bytes.length,
    created_at: Math.floor(f.created_at / 1000),
    expires_at: f.expires_at === null ? null : Math.floor(f.expires_at / 1000),
    filename: f.filename,
    purpose: f.purpose,
    status: 'processed',
  });
  const anthropicShape = (f: StoredFile) => ({
    id: f.id,
    type: 'file',
    filename: f.filename,
    mime_type: f.mime_type,
    size_bytes: f.bytes.length,
    created_at: new Date(f.created_at).toISOString(),
    downloadable: false,
  });
  const notFound = (anthropic: boolean, id: string): FilesRoute =>
    anthropic
      ? { status: 404, body: { type: 'error', error: { type: 'not_found_error', message: `File not found: ${id}` } } }
      : {
          status: 404,
          body: {
            error: { message: `No such File object: ${id}`, type: 'invalid_request_error', param: 'id', code: null },
          },
        };

  return {
    files,
    get uploads() {
      return uploads;
    },
    /** List pages answered so far. */
    get listPages() {
      return listPages;
    },
    /** The files still alive, in upload order. */
    list: () => [...files.values()].filter((f) => alive(f)),
    /** Makes a file expire now (its id then answers "not found", like a vendor after expires_at). */
    expire(id: string) {
      const f = files.get(id);
      if (f) f.expires_at = now() - 1;
    },
    handle(
      method: string,
      path: string,
      headers: Record<string, string>,
      raw: Buffer,
      query = new URLSearchParams(),
    ): FilesRoute {
      const anthropic = 'anthropic-version' in headers;
      const id = /\/files\/([^/]+)$/.exec(path)?.[1];
      if (anthropic && !(headers['anthropic-beta'] ?? '').includes('files-api-2025-04-14')) {
        return {
          status: 400,
          body: {
            type: 'error',
            error: {
              type: 'invalid_request_error',
              message: 'The Files API needs the anthropic-beta: files-api-2025-04-14 header.',
            },
          },
        };
      }
      if (method === 'POST' && !id) {
        uploads++;
        if (uploads <= (options.failUploads ?? 0))
          return {
            status: 500,
            body: anthropic
              ? { type: 'error', error: { type: 'api_error', message: 'Scripted upload failure.' } }
              : { error: { message: 'Scripted upload failure.', type: 'server_error', code: null } },
          };
        const form = parseMultipart(headers['content-type'] ?? '', raw);
        if (!form?.file)
          return {
            status: 400,
            body: {
              error: {
                message: 'Expected multipart/form-data with a "file" part.',
                type: 'invalid_request_error',
                code: null,
              },
            },
          };
        if (!anthropic && !form.fields.purpose)
          return {
            status: 400,
            body: {
              error: { message: 'Missing required parameter: purpose.', type: 'invalid_request_error', code: null },
            },
          };
        const seconds = form.fields['expires_after[seconds]'] ? Number(form.fields['expires_after[seconds]']) : null;
        const created = now();
        const f: StoredFile = {
          id: anthropic ? `file_${String(++seq).padStart(6, '0')}` : `file-${String(++seq).padStart(6, '0')}`,
          filename: form.file.filename,
          mime_type: form.file.contentType,
          purpose: form.fields.purpose ?? null,
          bytes: form.file.bytes,
          created_at: created,
          expires_at: seconds ? created + seconds * 1000 : null,
        };
        files.set(f.id, f);
        return { status: 200, body: anthropic ? anthropicShape(f) : openaiShape(f) };
      }
      if (method === 'GET' && !id) {
        // Pages in each vendor's documented shape: Anthropic `limit` (1-1000, default 20) + `after_id`, OpenAI
        // `limit` (1-10000, default 10000) + `after`; both answer has_more, first_id and last_id.
        const all = [...files.values()].filter((f) => alive(f));
        const asked = Number(query.get('limit') ?? (anthropic ? 20 : 10_000));
        const max = anthropic ? 1000 : 10_000;
        if (!Number.isInteger(asked) || asked < 1 || asked > max)
          return {
            status: 400,
            body: {
              error: {
                message: `limit must be an integer from 1 to ${max}.`,
                type: 'invalid_request_error',
                code: null,
              },
            },
          };
        const limit = Math.min(asked, options.maxPageSize ?? asked);
        const after = query.get(anthropic ? 'after_id' : 'after');
        const from = after === null ? 0 : all.findIndex((f) => f.id === after) + 1;
        if (after !== null && from === 0) return notFound(anthropic, after);
        const data = all.slice(from, from + limit);
        const page = {
          has_more: from + limit < all.length,
          first_id: data[0]?.id ?? null,
          last_id: data.at(-1)?.id ?? null,
        };
        listPages++;
        return anthropic
          ? { status: 200, body: { data: data.map(anthropicShape), ...page } }
          : { status: 200, body: { object: 'list', data: data.map(openaiShape), ...page } };
      }
      const f = id ? alive(files.get(id)) : undefined;
      if (!id || !f) return notFound(anthropic, id ?? '');
      if (method === 'GET') return { status: 200, body: anthropic ? anthropicShape(f) : openaiShape(f) };
      if (method === 'DELETE') {
        if (raw.length > 0)
          return {
            status: 400,
            body: { error: { message: 'DELETE takes no body.', type: 'invalid_request_error', code: null } },
          };
        files.delete(id);
        return { status: 200, body: anthropic ? { id, type: 'file_deleted' } : { id, object: 'file', deleted: true } };
      }
      return {
        status: 405,
        body: { error: { message: `${method} is not allowed on ${path}.`, type: 'invalid_request_error', code: null } },
      };
    },
    /** The first file_id a model request references that is unknown or expired, if any. */
    missingIn(body: unknown): string | null {
      const ids: string[] = [];
      JSON.stringify(body, (k, v: unknown) => {
        if (k === 'file_id' && typeof v === 'string') ids.push(v);
        return v;
      });
      return ids.find((id) => !alive(files.get(id))) ?? null;
    },
  };
}

export type FilesStore = ReturnType<typeof createFilesStore>;
