// Public face of the scripted model server (Node only): used by transport tests, the agent loop, headless and
// browser tests.
export { startModelServer } from './server';
export type {
  ModelServer,
  ListedModelEntry,
  ModelServerOptions,
  RecordedRequest,
  ScriptTurn,
  ScriptToolCall,
  WireProtocol,
} from './types';
