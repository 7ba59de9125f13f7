// What a tool is to the agent loop. Built-in tools, WASM plugin tools and bridge tools all take this shape; the
// loop validates arguments against `schema.parameters`, runs the approval gate, then `execute`s.

import type { AskReason, WorkspaceFs } from './fs';
import type { ImagePart, ToolSchema } from './messages';

export interface ToolContext {
  /** The granted workspace folder; every path goes through its policy. */
  fs: WorkspaceFs;
  workspaceId: string;
  /** The model's tool call id. */
  callId: string;
  signal: AbortSignal;
  /**
   * Set only for a tool whose prepare offered a `review` and that the person allowed after editing the proposed
   * content: the whole content they approved, which the tool writes instead of its own (with the same path, policy
   * and snapshot checks) and names in its result.
   */
  approved?: { content: string };
  /**
   * Set by the loop when the turn keeps checkpoints and the host can watch a command's changes (headless i over a
   * real folder): a tool that runs a command (shell) calls `begin` before it and `finish` after, so undo covers
   * what the command created, modified or deleted like an edit (issue 31).
   */
  commandChanges?: CommandChanges;
}

/** Records what one command changed in the workspace into the turn's checkpoint records. */
export interface CommandChanges {
  /** Before the command runs: takes the snapshot the changes are measured against. */
  begin(command: string): Promise<CommandWatch>;
}

export interface CommandWatch {
  /**
   * Set when the changes of this command cannot be recorded (the workspace is past the recording limits, or the
   * snapshot failed): the tool says so before the command runs; `finish` then records nothing.
   */
  readonly untracked?: { code: string; message: string };
  /** After the command ended (exited, failed or was killed): records each file it created, modified or deleted. */
  finish(): Promise<CommandChangeSummary>;
}

export interface CommandChangeSummary {
  created: string[];
  modified: string[];
  deleted: string[];
  /** Set when the changes were seen but some could not be recorded (e.g. a file past the size limit). */
  note?: string;
}

export interface ToolResult {
  /** Text for the model. Tool output is untrusted data and never enters the system prompt. */
  output: string;
  /** Base64 data URLs only (PNG/JPEG/GIF/WebP, <= 8 MiB each), checked by the loop after `after_tool`. */
  images?: ImagePart[];
  /** True when the call failed: `output` is the error text the model sees. */
  error?: boolean;
  /** Stable code when `error` is true. */
  code?: string;
}

/** What the approval prompt shows, computed before asking; `state` comes back to `execute` unchanged. */
export interface PreparedCall {
  /** One line for the person, e.g. "Edit src/main.ts (2 replacements)". */
  summary: string;
  /** Unified diff or other detail the person should see before approving. */
  detail?: string;
  /** Opaque pre-approval snapshot, e.g. the file content an edit was computed from (conflict check). */
  state?: unknown;
  /**
   * Set by tools that act on one file (write, edit; read and view_image for approval rules): the normalised
   * workspace-relative path, `raw`, the argument as the model sent it, when that differs (the card shows
   * `raw → path`), and `realPath`, the path it reaches through symbolic links (Node), when that differs: approval
   * rules judge both.
   */
  target?: { path: string; raw?: string; realPath?: string };
  /**
   * Set when the workspace write policy says this write always asks (plugin-host/fs/write-policy.ts): mode auto and
   * a policy answering 'allow' still ask the person; only explicit yolo runs it unasked. `text` is the reason in
   * English (for the model and the CLI); the app shows its translation of `reason`.
   */
  alwaysAsk?: { reason: AskReason; text: string };
  /**
   * The file before and the whole content proposed (write, edit; text files within REVIEW_MAX_CHARS), so the person
   * can review it in a merge view and edit the proposal before allowing; `before` is null for a new file. A tool
   * that sets it takes `ToolContext.approved` in execute.
   */
  review?: { before: string | null; after: string };
}

export interface ToolDefinition {
  schema: ToolSchema;
  /**
   * 'free': runs without asking by default (only `read` and `view_image` among built-ins, seed 000 §5).
   * 'ask': every other built-in and every external tool.
   */
  approval: 'free' | 'ask';
  /** True for plugin, bridge and MCP tools (seed 000 §5 `tool_approval.external`). */
  external: boolean;
  /** Where an external tool comes from (approval rules name groups: a plugin, the bridge, an MCP server). */
  origin?: { kind: 'plugin'; pluginId: string } | { kind: 'bridge' } | { kind: 'mcp'; server: string };
  /** Optional: compute what the approval shows and a snapshot. Errors here become tool errors; nothing runs. */
  prepare?(args: Record<string, unknown>, ctx: ToolContext): Promise<PreparedCall>;
  /** Contract: never throws for expected failures — return `{error: true, code, output}`; a throw is also caught. */
  execute(args: Record<string, unknown>, ctx: ToolContext, prepared?: PreparedCall): Promise<ToolResult>;
}
