// Public face of the agent Worker boundary: the page side (client) and the interface both sides share.
export {
  agentWorker,
  onSessionRole,
  remoteAgent,
  remoteSessionStore,
  remoteWorkspaceUsage,
  type RemoteAgent,
  type RemoteTurn,
} from './client';
export { measuredMessages, type SessionUsage, type WorkspaceUsage } from './usage-queries';
export { createAgentHost, type AgentHostOptions } from './host';
export {
  installErrorTransfer,
  type AgentHostApi,
  type SessionRole,
  type TurnPorts,
  type TurnRequest,
  type WorkspaceTicket,
} from './protocol';
export { createSessionLocks, lockName, type SessionLocks } from './session-locks';
