// Tool views (seed 002): which authorised tools the model sees, with limits. See select.ts.
export { parseToolViewConfig, type ToolViewConfig } from './config';
export { BUILTIN_GROUPS, GROUP_PATTERN, groupOf } from './groups';
export { TOOL_VIEW_LIMITS, type ToolViewLimits } from './limits';
export {
  groupedSelector,
  groupsIn,
  selectToolView,
  utf8Length,
  type ToolSelector,
  type ToolSnapshotEntry,
  type ToolView,
} from './select';
