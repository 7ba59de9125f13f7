// Seed 003 "附加操作合约": besides the model request, a provider's prepare may ask the core for extra same-origin
// requests (a multipart upload, a list, a delete). The provider only describes them; the core checks origin and
// headers, attaches the key, sends, and hands back what came back. Pure data, shared by the vendor Files adapters
// (this folder) and the executor (web/core/provider-files).
import type { AuthSpec, PrepareInput } from './types';

export type OperationMethod = 'GET' | 'POST' | 'DELETE';

/** One extra request as a provider describes it. Never carries a credential. */
export interface ProviderOperation {
  method: OperationMethod;
  /** Absolute URL; must share base_url's origin. */
  url: string;
  /** Plain headers; routing/transport headers (content-type included) are refused: the type goes in `content_type`. */
  headers: Record<string, string>;
  auth: AuthSpec | null;
  /** POST only: the body's media type, e.g. `multipart/form-data; boundary=…`. */
  content_type?: string;
  /** POST only: the full raw body (GET and DELETE send none). */
  body?: Uint8Array;
  /** A DELETE a trusted worker marks as cleanup of its own uploads (runs unattended only under provider_cleanup). */
  cleanup?: boolean;
}

/** What the core hands back to the provider after one operation (`operation_result`). */
export interface OperationResult {
  status: number;
  /** Parsed JSON when the answer was JSON, else the text. */
  body: unknown;
}

/** A file as the vendor's Files API describes it, normalised. Times are epoch milliseconds. */
export interface RemoteFile {
  file_id: string;
  bytes: number | null;
  created_at: number | null;
  /** null: the vendor keeps it until deleted. */
  expires_at: number | null;
  filename: string | null;
}

/** One page of a vendor's file list. */
export interface ListPage {
  files: RemoteFile[];
  /** The vendor says more files follow. */
  hasMore: boolean;
  /** The cursor of the next page (its `after`); null when none follows or the vendor gave no cursor. */
  next: string | null;
}

/** The Files API of one vendor, as pure request builders and answer readers. */
export interface VendorFiles {
  /** The protocol selector this belongs to. */
  protocol: string;
  upload(args: { baseUrl: string; bytes: Uint8Array; mediaType: string; filename: string; expiresAfterSeconds: number | null; boundary: string }): ProviderOperation;
  /** One page of the list, from the start (`after` null) or after the file id of the previous page's cursor. */
  list(baseUrl: string, after: string | null): ProviderOperation;
  get(baseUrl: string, fileId: string): ProviderOperation;
  remove(baseUrl: string, fileId: string): ProviderOperation;
  /** Reads an upload/get answer; throws E_PROVIDER_FILES_RESPONSE when it is not the documented shape. */
  readFile(body: unknown): RemoteFile;
  /** Reads one list page; `next` is the cursor of the following page, null when this was the last. */
  readList(body: unknown): ListPage;
  /** Headers the model request needs once it references an uploaded file (Anthropic's beta header). */
  modelHeaders: Record<string, string>;
  /** True when a failed model request says a referenced file does not exist (expired or deleted remotely). */
  isFileNotFound(status: number, providerMessage: string): boolean;
}

/** `provider_prepare` input when it continues after an operation: what came back, and the state it asked to keep. */
export type PrepareStepInput = PrepareInput & { operation_result?: OperationResult; state?: unknown };

/** A `provider_prepare` answer that asks the core for an operation first (seed 003 附加操作合约). */
export interface OperationPlan {
  version: 1;
  operation: ProviderOperation;
  /** Returned as is with the operation's result on the next prepare call. */
  state: unknown;
}
