// Anthropic Files API (beta, docs "Files API"): every call carries `anthropic-beta: files-api-2025-04-14` and
// `anthropic-version`; POST {base}/v1/files multipart with `file`; GET {base}/v1/files?limit=&after_id= → {data, has_more,
// first_id, last_id}; GET/DELETE {base}/v1/files/{id}. Files carry `size_bytes` and an RFC 3339 `created_at` and do
// not expire: the local registry's expires_after_seconds is only how long this app trusts an upload. A Messages
// request references an image as `{type: "image", source: {type: "file", file_id}}`, with the same beta header.
import { HarnessError } from '../contracts';
import { ANTHROPIC_VERSION } from './anthropic-messages';
import { arr, isObject, joinUrl, num, obj, str } from './json-text';
import { multipartBody } from './multipart';
import type { ProviderOperation, RemoteFile, VendorFiles } from '../contracts';

export const ANTHROPIC_FILES_BETA = 'files-api-2025-04-14';
const HEADERS = {
  'anthropic-version': ANTHROPIC_VERSION,
  'anthropic-beta': ANTHROPIC_FILES_BETA,
  'anthropic-dangerous-direct-browser-access': 'true',
};
/** The documented maximum page size (the default, 20, would take many pages). */
const LIST_LIMIT = 1000;
const KEY = { header: 'x-api-key', prefix: '' };

function readFile(body: unknown): RemoteFile {
  const f = obj(body);
  const id = str(f.id);
  if (!id)
    throw new HarnessError(
      'E_PROVIDER_FILES_RESPONSE',
      'The Files API answer has no file "id". Check base_url points at the provider\'s API.',
      { got: typeof body },
    );
  const created = str(f.created_at) ? Date.parse(str(f.created_at)!) : NaN;
  return {
    file_id: id,
    bytes: num(f.size_bytes) ?? null,
    created_at: Number.isFinite(created) ? created : null,
    expires_at: null,
    filename: str(f.filename) ?? null,
  };
}

export const anthropicFiles: VendorFiles = {
  protocol: 'anthropic',
  upload({ baseUrl, bytes, mediaType, filename, boundary }): ProviderOperation {
    const { contentType, body } = multipartBody([{ name: 'file', filename, contentType: mediaType, bytes }], boundary);
    return {
      method: 'POST',
      url: joinUrl(baseUrl, '/v1/files'),
      headers: { ...HEADERS },
      auth: KEY,
      content_type: contentType,
      body,
    };
  },
  list: (baseUrl, after) => ({
    method: 'GET',
    url: joinUrl(
      baseUrl,
      `/v1/files?limit=${LIST_LIMIT}${after === null ? '' : `&after_id=${encodeURIComponent(after)}`}`,
    ),
    headers: { ...HEADERS },
    auth: KEY,
  }),
  get: (baseUrl, id) => ({
    method: 'GET',
    url: joinUrl(baseUrl, `/v1/files/${encodeURIComponent(id)}`),
    headers: { ...HEADERS },
    auth: KEY,
  }),
  remove: (baseUrl, id) => ({
    method: 'DELETE',
    url: joinUrl(baseUrl, `/v1/files/${encodeURIComponent(id)}`),
    headers: { ...HEADERS },
    auth: KEY,
  }),
  readFile,
  readList(body) {
    if (!isObject(body) || !Array.isArray(body.data))
      throw new HarnessError(
        'E_PROVIDER_FILES_RESPONSE',
        'The Files list answer has no "data" array. Check base_url points at the provider\'s API.',
      );
    const files = arr(body.data).map(readFile);
    const hasMore = body.has_more === true;
    return { files, hasMore, next: hasMore ? (str(body.last_id) ?? files.at(-1)?.file_id ?? null) : null };
  },
  modelHeaders: { 'anthropic-beta': ANTHROPIC_FILES_BETA },
  isFileNotFound: (status, message) =>
    (status === 400 || status === 404) &&
    /file/i.test(message) &&
    /(not found|not_found|no such|does not exist)/i.test(message),
};
