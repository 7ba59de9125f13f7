export { EventStream } from './event-stream';
export { cachedStableJson, stableJson } from './stable-json';
