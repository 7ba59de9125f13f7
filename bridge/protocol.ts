// Wire types of the bridge: the NDJSON worker frames of seed 000 §2–§3 and the bodies of the HTTP API.
// They are tiny on purpose; everything crossing a trust boundary is validated where it enters.

/** The four directories of seed 000 §3; absolute, no `..`, config/data never under cache/runtime. */
export interface PathContext {
  config_dir: string;
  data_dir: string;
  cache_dir: string;
  runtime_dir: string;
}

/** One request line to a worker. `id` is unsigned and only correlates within one worker. */
export interface WorkerRequest {
  id: number;
  event: string;
  workspace: string;
  workspace_id?: string;
  paths?: PathContext;
  data: Record<string, unknown>;
}

/** One answer line: either `data` (an object) or `error` (a string), echoing the request id. */
export type WorkerResponse = { id: number; data: Record<string, unknown> } | { id: number; error: string };

/** A tool as the model sees it: never exec or cwd. */
export interface PublicTool {
  name: string;
  description: string;
  parameters: Record<string, unknown>;
}

export interface ToolImage {
  type: 'image_url';
  image_url: { url: string };
}

/** `POST /v1/tools/call` answer on success (seed 000 §5). */
export interface ToolResult {
  output: string;
  images?: ToolImage[];
}

export interface ToolCallRequest {
  name: string;
  arguments: Record<string, unknown>;
  workspace: string;
  workspace_id?: string;
  paths?: PathContext;
}

/** `GET /v1/manifest`. */
export interface PublicManifest {
  tools: PublicTool[];
  hooks: { events: string[] }[];
  provider: boolean;
}

/** `{url, token, pid}` in `<runtime_dir>/bridge.json` (mode 0600) so local tools can find a running bridge. */
export interface BridgeFile {
  url: string;
  token: string;
  pid: number;
}
