// Operation plans of a provider's prepare (seed 003 附加操作合约), for adapters that have `prepareStep` (custom
// workers behind the bridge): the plan's operation runs under the executor's rules and the call's budget (8 within
// 180 s, 16 MiB, never retried), then prepare is called again with `operation_result` and the plan's `state`, until
// it answers with the model request. Used only under provider_operations: true; without it a plan is refused
// (E_PROVIDER_OPERATIONS_OFF, the adapter's plain prepare). A failed operation fails the step: nothing is retried.
// Deletes: a plain DELETE belongs to the management channel, where a person confirms it, so a turn refuses it; the
// only unattended delete is a `cleanup: true` one under provider_cleanup: true, of a file this app uploaded (the
// registry: a plan's successful POST that answers with an `id` is recorded there, under the account scope, with the
// address it was POSTed to). The delete must name exactly that upload: base_url's origin, the upload's path plus
// one segment that is the id, the upload's query. A known id under another host or another path is refused
// (E_PROVIDER_CLEANUP_WRONG_TARGET): matching the last URL segment alone would let a worker delete any resource
// whose address happens to end in one of our ids.
import { HarnessError } from '../contracts';
import type { PreparedRequest, PrepareInput, ProviderAdapter, ProviderOperation } from '../providers';
import { newBudget, runOperation, type OperationBudget, type OperationPorts } from './operations';
import type { FileRegistry, UploadRecord } from './registry';

export interface PlanContext {
  ports: Omit<OperationPorts, 'baseUrl' | 'signal'>;
  /** provider_cleanup: true in the model config. */
  cleanupAllowed: boolean;
  registry: FileRegistry;
  /** The account scope (provider.json's account_scope, else base_url's origin + key name). */
  scope: string;
}

/** The file id a DELETE names, as shown in messages: the last segment of its path. Never the identity check. */
function fileIdOf(url: string): string {
  const last = new URL(url).pathname.split('/').filter(Boolean).at(-1) ?? '';
  try {
    return decodeURIComponent(last);
  } catch {
    return last;
  }
}

/** The address an upload is recorded under: origin, path and query of the POST (a fragment is never sent). */
function uploadLocation(url: string): string {
  const u = new URL(url);
  return `${u.origin}${u.pathname}${u.search}`;
}

/** True when `url` is exactly `<location path>/<id>` at the location's origin and query, and that origin is base_url's. */
function namesUpload(url: URL, record: UploadRecord, baseOrigin: string): boolean {
  if (record.location === undefined) return false;
  const at = new URL(record.location);
  if (
    url.origin !== baseOrigin ||
    at.origin !== baseOrigin ||
    url.search !== at.search ||
    url.hash !== '' ||
    url.username !== '' ||
    url.password !== ''
  )
    return false;
  const prefix = at.pathname.replace(/\/+$/, '');
  if (!url.pathname.startsWith(`${prefix}/`)) return false;
  const rest = url.pathname.slice(prefix.length + 1);
  if (rest.includes('/')) return false;
  try {
    return decodeURIComponent(rest) === record.file_id;
  } catch {
    return false;
  }
}

/** The one address a cleanup of `fileId` uploaded to `location` may name. */
function deleteAddressOf(location: string, fileId: string): string {
  const at = new URL(location);
  return `${at.origin}${at.pathname.replace(/\/+$/, '')}/${encodeURIComponent(fileId)}${at.search}`;
}

async function checkDelete(
  op: ProviderOperation,
  plans: PlanContext,
  protocol: string,
  baseUrl: string,
): Promise<UploadRecord> {
  const id = fileIdOf(op.url);
  if (op.cleanup !== true) {
    throw new HarnessError(
      'E_PROVIDER_DELETE_IN_TURN',
      `The provider asked to delete ${id} during a turn. A plain delete runs only through the management channel (i --provider-action), which asks you first; a provider may delete its own uploads unattended only with "cleanup": true and provider_cleanup: true in the model config.`,
      { file_id: id },
    );
  }
  if (!plans.cleanupAllowed) {
    throw new HarnessError(
      'E_PROVIDER_CLEANUP_OFF',
      `The provider asked to delete ${id} as cleanup, which the model config does not allow. Set "provider_cleanup": true in the model config to let it delete this app's own uploads unattended, or delete the file yourself (i --provider-action).`,
      { file_id: id, key: 'provider_cleanup' },
    );
  }
  const ours = (await plans.registry.all()).filter((r) => r.scope === plans.scope && r.protocol === protocol);
  const url = new URL(op.url);
  const match = ours.find((r) => namesUpload(url, r, new URL(baseUrl).origin));
  if (match) return match;
  const sameId = ours.filter((r) => r.file_id === id);
  if (sameId.length) {
    const expected = sameId.flatMap((r) => (r.location === undefined ? [] : [deleteAddressOf(r.location, r.file_id)]));
    const where = expected.length
      ? `this app's upload of ${id} lives at ${expected.join(' or ')}`
      : `the local registry does not record where this app's upload of ${id} lives (it was recorded before i kept upload addresses)`;
    throw new HarnessError(
      'E_PROVIDER_CLEANUP_WRONG_TARGET',
      `The provider asked to delete ${url.origin}${url.pathname} as cleanup, but ${where}; a cleanup may delete only that exact address at base_url's origin. Nothing was deleted. Delete the file yourself with i --provider-action (you will be asked), and tell the worker's author.`,
      { file_id: id, url: `${url.origin}${url.pathname}`, expected },
    );
  }
  throw new HarnessError(
    'E_PROVIDER_CLEANUP_NOT_OURS',
    `provider_cleanup only deletes files this app uploaded, and the local registry does not know ${id} under this account. Delete it yourself with i --provider-action (you will be asked), or leave it.`,
    { file_id: id },
  );
}

async function sha256Hex(bytes: Uint8Array): Promise<string> {
  const d = new Uint8Array(await crypto.subtle.digest('SHA-256', bytes as BufferSource));
  return Array.from(d, (b) => b.toString(16).padStart(2, '0')).join('');
}

/** `signal`: the model call's (Stop ends a running operation); `budget`: the call's one budget, shared by its attempts. */
export function withOperationPlans(
  adapter: ProviderAdapter,
  plans: PlanContext,
  signal?: AbortSignal,
  budget?: OperationBudget,
): ProviderAdapter {
  if (!adapter.prepareStep) return adapter;
  const step = adapter.prepareStep.bind(adapter);
  const now = plans.ports.now ?? Date.now;
  return {
    ...adapter,
    async prepare(input: PrepareInput): Promise<PreparedRequest> {
      const stepBudget = budget ?? newBudget();
      const ports: OperationPorts = { ...plans.ports, baseUrl: input.base_url, ...(signal ? { signal } : {}) };
      let answer = await step(input);
      // Ends: the budget refuses the 9th operation (E_PROVIDER_OPERATION_LIMIT), which fails the step.
      while ('operation' in answer) {
        const op = answer.operation;
        const deleting = op.method === 'DELETE' ? await checkDelete(op, plans, adapter.protocol, input.base_url) : null;
        const result = await runOperation(op, ports, stepBudget);
        const ok = result.status >= 200 && result.status < 300;
        if (deleting !== null && (ok || result.status === 404))
          await plans.registry.forget([deleting.file_id], { scope: deleting.scope, protocol: deleting.protocol });
        const id = (result.body as { id?: unknown } | null)?.id;
        if (op.method === 'POST' && ok && op.body && typeof id === 'string' && id) {
          // 'op:' keeps these apart from the built-in adapters' image hashes (a raw image upload would match one).
          const media = (op.content_type ?? 'application/octet-stream').split(';')[0]!;
          await plans.registry.put({
            scope: plans.scope,
            hash: `op:${await sha256Hex(op.body)}`,
            file_id: id,
            protocol: adapter.protocol,
            bytes: op.body.byteLength,
            media_type: media,
            created_at: now(),
            expires_at: null,
            location: uploadLocation(op.url),
          });
        }
        answer = await step({ ...input, operation_result: result, state: answer.state });
      }
      return answer;
    },
  };
}
