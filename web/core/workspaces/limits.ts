/** Seed 000 §3: the workspace registry holds at most 10000 entries. */
export const MAX_WORKSPACES = 10_000;
export const MAX_WORKSPACE_NAME_LENGTH = 120;
/** OPFS workspaces live at <origin private root>/workspaces/<uuid>. */
export const OPFS_WORKSPACES_DIR = 'workspaces';
