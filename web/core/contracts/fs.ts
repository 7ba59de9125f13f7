// web/core's WorkspaceFs port is plugin-host's (the bottom layer), so plugins and the core share one path policy.
export * from '../../../plugin-host/fs';
