// The agent Worker's entry (one per app tab): the core behind comlink. The page posts the folder handles it holds
// permission for; the Worker builds the WorkspaceFs over them and runs turns, tools, plugins (nested Workers),
// sessions and compaction off the main thread.
import { expose } from 'comlink';
import { createFsaWorkspaceFs } from '../contracts';
import { createAgentHost } from './host';
import { installErrorTransfer } from './protocol';

installErrorTransfer();
expose(
  createAgentHost({
    createFs: (ticket) => createFsaWorkspaceFs(ticket.handle, { access: ticket.access, rootName: ticket.rootName }),
  }),
);
