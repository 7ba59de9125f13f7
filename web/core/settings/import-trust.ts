// Changes a settings import may not make silently: those that send an already stored key somewhere new or loosen
// a protection. Each is detected where its part is written (the general settings here, the agent's part in
// web/core/app-agent/settings-transfer.ts) and goes through one gate: written only when the caller confirmed that
// change by its id (ids come from a preview, `previewSettingsImport`, so what the person saw is what is applied and
// a file edited in between is held back again), else held back and reported, one sentence each, under
// E_IMPORT_NEEDS_CONFIRM. The rest of the file (the safe part) is applied either way.

export type TrustChangeKind =
  /** A model config or the web_search service would send a key that is stored here to an origin it is not sent to now. */
  | 'key_origin'
  /** provider_operations or provider_cleanup turned on (a provider worker may upload, or delete unattended). */
  | 'provider_operations'
  /** "Allow the agent to write inside .git" turned on for a workspace. */
  | 'git_writes'
  /** The workspace's approval mode moves towards auto / yolo. */
  | 'approval_mode'
  /** An `allow` approval rule that is not there now. */
  | 'allow_rule'
  /** A `deny` or `ask` rule that is there now would be gone. */
  | 'rule_removed'
  /** Tools in deny_tools now would no longer be denied. */
  | 'deny_tools_removed'
  /** Other workspaces' folders would be read for skills. */
  | 'skill_workspaces';

export interface TrustChange {
  /** Stable id of exactly this change (scope, kind and the new value): what a confirmation names. */
  id: string;
  kind: TrustChangeKind;
  /** The workspace's name here, or null for the global scope. */
  workspace: string | null;
  /** One English sentence: what would change and what that lets happen. */
  message: string;
  /** The values the UI words it with (`from`/`to`, `key`/`origin`, `rule`, `tools`, `field`, …). */
  data: Record<string, string | string[] | null>;
}

export interface ImportNotice {
  code: 'E_IMPORT_NEEDS_CONFIRM';
  message: string;
  data: { changes: TrustChange[] };
}

/** How a part's writer asks whether a change it found may be written. */
export interface TrustGate {
  /** Records the change; true when the caller confirmed it (write it), false when it is held back (keep the current value). */
  allows(change: TrustChange): boolean;
}

export function createTrustGate(
  confirmed: readonly string[],
  out: { confirmed: TrustChange[]; heldBack: TrustChange[] },
): TrustGate {
  const ok = new Set(confirmed);
  return {
    allows(change) {
      if (ok.has(change.id)) {
        out.confirmed.push(change);
        return true;
      }
      out.heldBack.push(change);
      return false;
    },
  };
}

/** The report's notice for held-back changes (null when none was held back). */
export function needsConfirmNotice(heldBack: readonly TrustChange[]): ImportNotice | null {
  if (!heldBack.length) return null;
  const each = heldBack
    .map((c) => `${c.workspace === null ? 'Global' : `Workspace "${c.workspace}"`}: ${c.message}`)
    .join(' ');
  return {
    code: 'E_IMPORT_NEEDS_CONFIRM',
    message: `The rest of the file was imported, but ${heldBack.length === 1 ? 'one change was' : `${heldBack.length} changes were`} held back because ${heldBack.length === 1 ? 'it loosens' : 'they loosen'} a protection or send${heldBack.length === 1 ? 's' : ''} a stored key somewhere new. ${each} Import the file again and confirm ${heldBack.length === 1 ? 'it' : 'them'} to apply ${heldBack.length === 1 ? 'it' : 'them'}.`,
    data: { changes: [...heldBack] },
  };
}

/** The origin of an http(s) URL, or null when it is not one. */
export function originOf(url: unknown): string | null {
  if (typeof url !== 'string') return null;
  try {
    return new URL(url).origin;
  } catch {
    return null;
  }
}
