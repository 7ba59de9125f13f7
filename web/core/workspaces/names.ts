import { HarnessError } from '../contracts';
import { MAX_WORKSPACE_NAME_LENGTH } from './limits';

const UUID_RE = /^[0-9a-f]{8}-[0-9a-f]{4}-[1-8][0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/i;

export function isWorkspaceId(value: unknown): value is string {
  return typeof value === 'string' && UUID_RE.test(value);
}

/** Trims and checks a workspace name; returns the name to store. */
export function validateWorkspaceName(raw: string): string {
  const name = raw.trim().normalize('NFC');
  if (name.length === 0) {
    throw new HarnessError('E_WORKSPACE_NAME_INVALID', 'A workspace needs a name. Type a name and try again.');
  }
  if (name.length > MAX_WORKSPACE_NAME_LENGTH) {
    throw new HarnessError(
      'E_WORKSPACE_NAME_INVALID',
      `Workspace names are at most ${MAX_WORKSPACE_NAME_LENGTH} characters. Choose a shorter name.`,
      { length: name.length },
    );
  }
  // trim() keeps zero-width and other invisible characters (U+200B, U+2060, U+3164, variation selectors): a name
  // of only those shows as a blank entry in the workspace list that nobody can tell apart or find.
  if (!/[^\p{White_Space}\p{Default_Ignorable_Code_Point}]/u.test(name)) {
    throw new HarnessError(
      'E_WORKSPACE_NAME_INVALID',
      'A workspace name needs at least one visible character. Type a name with letters, digits or symbols.',
    );
  }
  // eslint-disable-next-line no-control-regex
  if (/[\u0000-\u001f\u007f]/.test(name)) {
    throw new HarnessError(
      'E_WORKSPACE_NAME_INVALID',
      'Workspace names cannot contain control characters such as line breaks. Remove them and try again.',
    );
  }
  return name;
}

/**
 * The name a granted folder's workspace gets when the person leaves the name empty: the folder's own name, cut to
 * the longest allowed name (whole code points, so no emoji is split). File systems allow 255-byte folder names,
 * workspace names are shorter, and the person never typed the name that would be refused.
 */
export function workspaceNameFromFolder(folderName: string): string {
  const trimmed = folderName.trim();
  if (trimmed.length <= MAX_WORKSPACE_NAME_LENGTH) return trimmed;
  let cut = '';
  for (const ch of trimmed) {
    if (cut.length + ch.length > MAX_WORKSPACE_NAME_LENGTH - 1) break;
    cut += ch;
  }
  return `${cut.trimEnd()}…`;
}
