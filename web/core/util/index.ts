export { EventStream } from './event-stream';
