// The harness-wasm-v1 frames of seed 004, exactly as they cross the ABI. Pinned by the JSON fixtures shared with
// the SDK tests (sdk-rust/fixtures/protocol/).

export type HostOp = 'fs.read' | 'fs.write' | 'fs.list' | 'kv.get' | 'kv.put' | 'kv.delete';

/** The exact argument fields of each host operation: no more, no fewer (seed 004). */
export const HOST_OP_ARGS: Readonly<Record<HostOp, readonly string[]>> = {
  'fs.read': ['path'],
  'fs.write': ['path', 'text'],
  'fs.list': ['path'],
  'kv.get': ['key'],
  'kv.put': ['key', 'value'],
  'kv.delete': ['key'],
};

export interface ToolRequest {
  id: string;
  event: 'tool';
  workspace_id: string;
  data: { name: string; arguments: unknown };
}

export interface HostCallRequest {
  id: number;
  op: HostOp;
  args: Record<string, unknown>;
}

/** A host response: `ok:true` with `result`, or `ok:false` with `error` and never `result`. */
export type HostResponse =
  { id: number; ok: true; result: Record<string, unknown> } | { id: number; ok: false; error: string };

export type PluginFrame =
  { type: 'host_call'; request: HostCallRequest } | { type: 'done'; output: string } | { type: 'error'; error: string };

export const startFrame = (request: ToolRequest): string => JSON.stringify({ type: 'start', request });
export const resumeFrame = (response: HostResponse): string => JSON.stringify({ type: 'resume', response });
