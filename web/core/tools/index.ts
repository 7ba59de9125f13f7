export type * from './types';
export { ToolRegistry, TOOL_NAME_PATTERN } from './registry';
export { compileSchema, isObjectSchema, type SchemaCheck } from './validate';
