export type * from '../contracts/tools';
export { ToolRegistry, TOOL_NAME_PATTERN } from './registry';
export { compileSchema, isObjectSchema, type SchemaCheck } from '../contracts/schema';
