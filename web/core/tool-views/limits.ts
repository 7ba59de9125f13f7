// Seed 002 "授权集合内选择工具": the default limits of a tool view. Exceeding any of them is an error before the
// request is built, never a silent cut.

export interface ToolViewLimits {
  /** Schemas in the authorised set (every tool registered for the turn). */
  authorised: number;
  /** Tools the model sees in one request. */
  visible: number;
  /** UTF-8 bytes of the visible schemas serialised as one JSON array (what the request carries for tools). */
  bytes: number;
}

export const TOOL_VIEW_LIMITS: ToolViewLimits = { authorised: 1024, visible: 64, bytes: 4 * 1024 * 1024 };
