// One plugin service per app database: the registry, KV, module cache and spare worker are shared by Settings →
// Plugins and the agent, so "Try a tool" runs exactly what the agent runs. `openFsFor` opens a workspace's folder
// the way the workspace view does.
import { createFsaWorkspaceFs, type WorkspaceFs } from '../../../core/contracts';
import { openWorkspaceFs, type HarnessDb, type WorkspaceRecord } from '../../../core/page';
import { sharedPluginService, type PluginService } from '../../../core/page';

/** The same service the chat's agent uses (web/core/plugins `sharedPluginService`). */
export function pluginServiceFor(db: HarnessDb): PluginService {
  return sharedPluginService(db);
}

export function openFsFor(workspace: WorkspaceRecord): Promise<WorkspaceFs> {
  return openWorkspaceFs(workspace, (handle, mode) =>
    createFsaWorkspaceFs(handle, { access: mode, rootName: workspace.kind === 'opfs' ? workspace.name : handle.name }),
  );
}
