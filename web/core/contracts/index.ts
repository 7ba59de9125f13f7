// web/core/contracts: the bottom layer of the core. Types, error codes, limits and tiny pure helpers that more than
// one feature needs. It imports nothing else from web/core (only plugin-host, the layer below). See CONTEXT.md.
export * from './errors';
export * from './fs';
export { EventStream } from './event-stream';
export { cachedStableJson, stableJson } from './stable-json';
export type * from './messages';
export type * from './usage';
export type * from './tools';
export type * from './model-call';
export { compileSchema, isObjectSchema, type SchemaCheck } from './schema';
export { compileGlob, expandBraces, type GlobMatcher, type GlobOptions } from './glob';
export * from './tool-limits';
export { checkImage, checkToolImages, sniffImage, MAX_IMAGE_BYTES, MAX_IMAGES_PER_BATCH } from './images';
