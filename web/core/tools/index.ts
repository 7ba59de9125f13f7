export type { PreparedCall, ToolContext, ToolDefinition, ToolResult } from '../contracts';
export { ToolRegistry, TOOL_NAME_PATTERN } from './registry';
export { compileSchema, isObjectSchema, type SchemaCheck } from '../contracts';
export { CORE_TOOL_NAMES, coreFileTools, unifiedDiff, walk } from './builtin';
export { decodeText, guard, hasNul, intArg, stringArg } from './builtin/tool-kit';
