// OpenAI Files API (platform docs "Files"): POST {base}/files multipart with `purpose` and `file`, optional
// `expires_after[anchor]=created_at` + `expires_after[seconds]` (3600-2592000); GET {base}/files?limit=&after= (→ {data, has_more, last_id}), GET/DELETE
// {base}/files/{id}. A Responses request then references an image as `{type: "input_image", file_id}`. Purpose
// "vision" is the one OpenAI's image-input guide uses for uploaded images. Times in answers are epoch seconds.
import { HarnessError } from '../contracts';
import { arr, isObject, joinUrl, num, obj, str } from './json-text';
import { multipartBody } from './multipart';
import type { ProviderOperation, RemoteFile, VendorFiles } from '../contracts';

/** The documented maximum page size (also the default). */
const LIST_LIMIT = 10_000;
const BEARER = { header: 'authorization', prefix: 'Bearer ' };

function readFile(body: unknown): RemoteFile {
  const f = obj(body);
  const id = str(f.id);
  if (!id)
    throw new HarnessError(
      'E_PROVIDER_FILES_RESPONSE',
      'The Files API answer has no file "id". Check base_url points at the provider\'s API.',
      { got: typeof body },
    );
  const seconds = (v: unknown) => (num(v) !== undefined ? num(v)! * 1000 : null);
  return {
    file_id: id,
    bytes: num(f.bytes) ?? null,
    created_at: seconds(f.created_at),
    expires_at: seconds(f.expires_at),
    filename: str(f.filename) ?? null,
  };
}

export const openaiFiles: VendorFiles = {
  protocol: 'responses',
  upload({ baseUrl, bytes, mediaType, filename, expiresAfterSeconds, boundary }): ProviderOperation {
    const fields = [
      { name: 'purpose', value: 'vision' },
      ...(expiresAfterSeconds !== null
        ? [
            { name: 'expires_after[anchor]', value: 'created_at' },
            { name: 'expires_after[seconds]', value: String(expiresAfterSeconds) },
          ]
        : []),
      { name: 'file', filename, contentType: mediaType, bytes },
    ];
    const { contentType, body } = multipartBody(fields, boundary);
    return {
      method: 'POST',
      url: joinUrl(baseUrl, '/files'),
      headers: {},
      auth: BEARER,
      content_type: contentType,
      body,
    };
  },
  list: (baseUrl, after) => ({
    method: 'GET',
    url: joinUrl(baseUrl, `/files?limit=${LIST_LIMIT}${after === null ? '' : `&after=${encodeURIComponent(after)}`}`),
    headers: {},
    auth: BEARER,
  }),
  get: (baseUrl, id) => ({
    method: 'GET',
    url: joinUrl(baseUrl, `/files/${encodeURIComponent(id)}`),
    headers: {},
    auth: BEARER,
  }),
  remove: (baseUrl, id) => ({
    method: 'DELETE',
    url: joinUrl(baseUrl, `/files/${encodeURIComponent(id)}`),
    headers: {},
    auth: BEARER,
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
  modelHeaders: {},
  isFileNotFound: (status, message) =>
    (status === 400 || status === 404) &&
    /file/i.test(message) &&
    /(not found|no such|does not exist|expired)/i.test(message),
};
