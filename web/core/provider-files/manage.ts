// The management channel (seed 003 管理入口): list, get, delete and reconcile remote files, separate from turns —
// no model call, no session, no model hooks. It reuses the operation executor (its limits and rules), so it needs
// provider_operations: true like uploads do. GET and DELETE send empty bodies. A plain delete always asks the
// person (no --yolo or other flag skips it; without a way to ask it is refused); provider_cleanup: true is the only
// way a DELETE runs unattended, and then only one marked `cleanup: true` of a file this app's registry uploaded.
import { HarnessError } from '../contracts';
import type { RemoteFile, VendorFiles } from '../providers';
import { answerMessage, newBudget, runOperation, type OperationPorts } from './operations';
import type { FileRegistry } from './registry';

export type ManageAction =
  | { action: 'list' }
  | { action: 'get'; file_id: string }
  | { action: 'delete'; file_id: string; cleanup?: boolean }
  | { action: 'reconcile' };

export interface ListedFile extends RemoteFile {
  /** The local registry knows it: this app uploaded it. */
  known: boolean;
}

export type ManageResult =
  | { action: 'list'; files: ListedFile[]; complete: boolean }
  | { action: 'get'; file: ListedFile }
  | { action: 'delete'; file_id: string; deleted: true; confirmed_by: 'person' | 'provider_cleanup' }
  | { action: 'reconcile'; remote: number; complete: boolean; unknown_remote: string[]; forgotten_local: string[] };

const FIX =
  'Write {"action": "list"}, {"action": "get", "file_id": "…"}, {"action": "delete", "file_id": "…"} or {"action": "reconcile"}.';

export function parseManageAction(text: string): ManageAction {
  let v: unknown;
  try {
    v = JSON.parse(text);
  } catch {
    throw new HarnessError('E_USAGE', `--provider-action is not valid JSON. ${FIX}`);
  }
  const o = v as Record<string, unknown>;
  if (typeof v !== 'object' || v === null || Array.isArray(v))
    throw new HarnessError('E_USAGE', `--provider-action must be a JSON object. ${FIX}`);
  const allowed: Record<string, string[]> = {
    list: ['action'],
    reconcile: ['action'],
    get: ['action', 'file_id'],
    delete: ['action', 'file_id', 'cleanup'],
  };
  const keys = allowed[String(o.action)];
  if (!keys)
    throw new HarnessError(
      'E_USAGE',
      `--provider-action has no known "action" (got ${JSON.stringify(o.action ?? null)}). ${FIX}`,
    );
  for (const k of Object.keys(o))
    if (!keys.includes(k))
      throw new HarnessError('E_USAGE', `--provider-action "${String(o.action)}" takes no "${k}". ${FIX}`, { path: k });
  // Dots alone ("." or "..") would name another path segment once put into the URL (/files/.. is /).
  if (
    keys.includes('file_id') &&
    (typeof o.file_id !== 'string' || !/^[\w.:-]{1,200}$/.test(o.file_id) || /^\.+$/.test(o.file_id))
  ) {
    throw new HarnessError(
      'E_USAGE',
      `--provider-action "${String(o.action)}" needs "file_id": the id the provider gave (letters, digits, ".", ":", "_", "-"; not dots alone).`,
      { path: 'file_id' },
    );
  }
  if (o.cleanup !== undefined && typeof o.cleanup !== 'boolean')
    throw new HarnessError('E_USAGE', '--provider-action "cleanup" must be true or false.', { path: 'cleanup' });
  return o as ManageAction;
}

export interface ManageDeps {
  vendor: VendorFiles;
  ports: OperationPorts;
  registry: FileRegistry;
  /** Asks the person on a terminal; null when there is none (then a delete that needs asking is refused). */
  confirm: ((question: string) => Promise<boolean>) | null;
  /** provider_cleanup: true in the model config. */
  cleanupAllowed: boolean;
  /** The account scope: only the registry's records of this scope and the vendor's protocol are "known". */
  scope: string;
}

/** Pages one list may read: each page is an operation, and a management action has one step's budget (8). */
export const MAX_LIST_PAGES = 8;

function failed(what: string, status: number, body: unknown): HarnessError {
  const said = answerMessage({ status, body });
  if (status === 404)
    return new HarnessError(
      'E_PROVIDER_FILE_NOT_FOUND',
      `The provider has no such file (404${said ? `: ${said}` : ''}). List the files to see which exist.`,
      { status },
    );
  return new HarnessError(
    'E_PROVIDER_MANAGE_FAILED',
    `The provider refused to ${what} (${status}${said ? `: ${said}` : ''}). Nothing was retried; check the key and base_url, then try again.`,
    { status },
  );
}

export async function runManageAction(action: ManageAction, deps: ManageDeps): Promise<ManageResult> {
  const budget = newBudget();
  const base = deps.ports.baseUrl;
  // Another account's or another vendor's records of this workspace are not this list's business.
  const known = new Set(
    (await deps.registry.all())
      .filter((r) => r.scope === deps.scope && r.protocol === deps.vendor.protocol)
      .map((r) => r.file_id),
  );
  const send = async (what: string, op: Parameters<typeof runOperation>[0]) => {
    const r = await runOperation(op, deps.ports, budget);
    if (r.status < 200 || r.status >= 300) throw failed(what, r.status, r.body);
    return r.body;
  };
  // Every page up to MAX_LIST_PAGES; `complete` is false when the vendor still had more (or gave no cursor).
  const listAll = async (): Promise<{ files: RemoteFile[]; complete: boolean }> => {
    const files: RemoteFile[] = [];
    const seen = new Set<string>();
    let after: string | null = null;
    for (let page = 0; page < MAX_LIST_PAGES; page++) {
      const got = deps.vendor.readList(await send('list the files', deps.vendor.list(base, after)));
      // A vendor that repeats a page would list a file twice; each file is listed once.
      for (const f of got.files) {
        if (seen.has(f.file_id)) continue;
        seen.add(f.file_id);
        files.push(f);
      }
      if (!got.hasMore) return { files, complete: true };
      if (got.next === null || got.next === after) return { files, complete: false };
      after = got.next;
    }
    return { files, complete: false };
  };
  switch (action.action) {
    case 'list': {
      const { files, complete } = await listAll();
      return { action: 'list', files: files.map((f) => ({ ...f, known: known.has(f.file_id) })), complete };
    }
    case 'get': {
      const f = deps.vendor.readFile(await send('describe the file', deps.vendor.get(base, action.file_id)));
      return { action: 'get', file: { ...f, known: known.has(f.file_id) } };
    }
    case 'delete': {
      let by: 'person' | 'provider_cleanup';
      if (action.cleanup === true && deps.cleanupAllowed) {
        if (!known.has(action.file_id)) {
          throw new HarnessError(
            'E_PROVIDER_CLEANUP_NOT_OURS',
            `provider_cleanup only deletes files this app uploaded, and the local registry does not know ${action.file_id}. Delete it without "cleanup" (you will be asked), or leave it.`,
            { file_id: action.file_id },
          );
        }
        by = 'provider_cleanup';
      } else {
        if (!deps.confirm) {
          throw new HarnessError(
            'E_PROVIDER_CONFIRM_NEEDS_TTY',
            `Deleting ${action.file_id} needs your confirmation on a terminal, and there is none (no flag, not even --yolo, skips it). Run it in a terminal; unattended deletes exist only for {"cleanup": true} of this app's own uploads with provider_cleanup: true in the model config.`,
            { file_id: action.file_id },
          );
        }
        const mark = known.has(action.file_id) ? 'uploaded by this app' : 'not in the local registry';
        if (
          !(await deps.confirm(
            `Delete the remote file ${action.file_id} (${mark}) at ${new URL(base).origin}? This cannot be undone. [y/N] `,
          ))
        ) {
          throw new HarnessError(
            'E_PROVIDER_DELETE_DECLINED',
            `Not deleted: ${action.file_id} stays at the provider.`,
            { file_id: action.file_id },
          );
        }
        by = 'person';
      }
      await send('delete the file', {
        ...deps.vendor.remove(base, action.file_id),
        ...(by === 'provider_cleanup' ? { cleanup: true } : {}),
      });
      await deps.registry.forget([action.file_id], { scope: deps.scope, protocol: deps.vendor.protocol });
      return { action: 'delete', file_id: action.file_id, deleted: true, confirmed_by: by };
    }
    case 'reconcile': {
      // Explicit recovery: local records of files the provider no longer has are forgotten; remote files the
      // registry does not know are only reported (never deleted here). A list that did not reach its end proves
      // nothing about the files it did not show, so then nothing is forgotten.
      const { files, complete } = await listAll();
      const remote = new Set(files.map((f) => f.file_id));
      const forgotten = complete ? [...known].filter((id) => !remote.has(id)) : [];
      await deps.registry.forget(forgotten, { scope: deps.scope, protocol: deps.vendor.protocol });
      return {
        action: 'reconcile',
        remote: files.length,
        complete,
        unknown_remote: files.filter((f) => !known.has(f.file_id)).map((f) => f.file_id),
        forgotten_local: forgotten,
      };
    }
  }
}
