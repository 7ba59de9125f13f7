// Provider Files in the app (seed 003): Settings → Model → Images is the app's provider.json (one global record in
// the settings store, scope `provider:global`), the model config's provider_operations the second switch; uploads
// are remembered per workspace in the `metrics` store ([workspaceId, 'provider-files'], deleted with the
// workspace). The same core as headless `i`: the policy, the Files stream, and the management channel the Files
// list in Settings runs from the page (the key is read from the secrets store by the executor, after its checks).
import type { ModelConfig } from '../config';
import { HarnessError } from '../contracts';
import {
  accountScope,
  DEFAULT_PROVIDER_JSON,
  FileRegistry,
  filesPolicy,
  filesUnsupportedReason,
  newFilesContext,
  parseProviderJson,
  providerFilesStream,
  runManageAction,
  vendorFilesFor,
  type ManageAction,
  type ManageResult,
  type ProviderFilesContext,
  type ProviderJson,
  type RegistryStore,
} from '../provider-files';
import { getSecret } from '../settings';
import type { HarnessDb } from '../storage';
import type { TransportStreamOptions } from '../transport';
import type { StreamFn } from '../agent';

export const PROVIDER_SETTINGS_SCOPE = 'provider:global';
export const REGISTRY_RECORD = 'provider-files';

export async function readProviderJson(db: HarnessDb): Promise<ProviderJson> {
  const record = await db.get('settings', PROVIDER_SETTINGS_SCOPE);
  const value = (record?.values as { provider_json?: unknown } | undefined)?.provider_json;
  return value === undefined ? { ...DEFAULT_PROVIDER_JSON } : parseProviderJson(value, 'Settings → Model → Images');
}

// gc_expired is headless i's (with provider_cleanup in its model config); the app has no unattended delete, so it
// refuses the key rather than keep a switch that would do nothing.
const GC_NOT_IN_APP =
  'The app does not delete expired uploads by itself (gc_expired is for headless i, with provider_cleanup: true in its model config). Remove "gc_expired", and delete old files in Settings → Model → Files.';

export async function saveProviderJson(db: HarnessDb, value: ProviderJson): Promise<void> {
  const checked = parseProviderJson(value, 'Settings → Model → Images');
  if (checked.gc_expired) throw new HarnessError('E_PROVIDER_GC_NOT_IN_APP', GC_NOT_IN_APP, { key: 'gc_expired' });
  await db.put('settings', {
    scope: PROVIDER_SETTINGS_SCOPE,
    version: 1,
    values: { provider_json: checked },
    updatedAt: Date.now(),
  });
}

export function idbRegistryStore(db: HarnessDb, workspaceId: string): RegistryStore {
  const key: [string, string] = [workspaceId, REGISTRY_RECORD];
  return {
    load: async () => (await db.get('metrics', key))?.registry,
    save: async (registry) =>
      void (await db.put('metrics', { workspaceId, name: REGISTRY_RECORD, registry, updatedAt: Date.now() })),
  };
}

/** The Files context of a turn, or null when neither switch is on (the plain transport then). */
export async function appFilesContext(
  db: HarnessDb,
  workspaceId: string,
  model: ModelConfig,
  ports: { fetch?: typeof fetch },
): Promise<ProviderFilesContext | null> {
  const { gc_expired: gc, ...provider } = await readProviderJson(db);
  const policy = filesPolicy({
    provider,
    providerOperations: model.provider_operations,
    protocol: model.protocol,
    baseUrl: model.base_url,
    apiKeyName: model.api_key_env,
    route: model.route ?? 'direct',
  });
  if (policy.notice?.code === 'N_PROVIDER_OPERATIONS_UNUSED' && model.provider !== null) policy.notice = null;
  // A stored (imported) gc_expired is said, never run.
  if (gc && policy.mode === 'files' && !policy.notice)
    policy.notice = { code: 'N_PROVIDER_GC_NOT_IN_APP', message: GC_NOT_IN_APP };
  if (policy.mode === 'base64' && !policy.notice) return null;
  return newFilesContext(policy, new FileRegistry(idbRegistryStore(db, workspaceId)), {
    apiKeyName: model.api_key_env,
    getSecret: (name) => getSecret(db, name),
    ...(ports.fetch ? { fetch: ports.fetch } : {}),
  });
}

/**
 * create-app-agent's stream: a custom worker's adapter runs its operation plans under provider_operations, and the
 * Files stream applies when a policy does; null when neither changes anything (use the plain transport).
 */
export async function appFilesStream(
  db: HarnessDb,
  workspaceId: string,
  model: ModelConfig,
  options: TransportStreamOptions,
): Promise<StreamFn | null> {
  const ports = {
    apiKeyName: model.api_key_env,
    getSecret: (name: string) => getSecret(db, name),
    ...(options.fetch ? { fetch: options.fetch } : {}),
  };
  // Plans run per model call with its signal (Stop ends a running upload) and its one budget.
  const plans =
    options.adapter && model.provider_operations
      ? {
          ports,
          cleanupAllowed: model.provider_cleanup === true,
          registry: new FileRegistry(idbRegistryStore(db, workspaceId)),
          scope: accountScope(await readProviderJson(db), model.base_url, model.api_key_env),
        }
      : null;
  const files = await appFilesContext(db, workspaceId, model, options.fetch ? { fetch: options.fetch } : {});
  return files || plans ? providerFilesStream({ ...options, files, plans }) : null;
}

/**
 * Settings → Model → Files: list or delete remote files through the management channel. `confirm` is the page's
 * dialog: a delete always asks (the app has no provider_cleanup path of its own).
 */
export async function manageFromPage(
  db: HarnessDb,
  workspaceId: string,
  model: ModelConfig,
  action: ManageAction,
  confirm: (question: string) => Promise<boolean>,
  ports: { fetch?: typeof fetch } = {},
): Promise<ManageResult> {
  if (!model.provider_operations) {
    throw new HarnessError(
      'E_PROVIDER_OPERATIONS_OFF',
      'Listing or deleting remote files sends provider operations, which this model config does not allow. Tick "Allow provider operations" in Settings → Model and save.',
      { key: 'provider_operations' },
    );
  }
  const vendor = vendorFilesFor(model.protocol);
  if (!vendor)
    throw new HarnessError(
      'E_PROVIDER_FILES_UNSUPPORTED',
      filesUnsupportedReason(model.protocol) ?? 'This protocol has no Files API.',
      { protocol: model.protocol },
    );
  return runManageAction(action, {
    vendor,
    scope: accountScope(await readProviderJson(db), model.base_url, model.api_key_env),
    registry: new FileRegistry(idbRegistryStore(db, workspaceId)),
    confirm,
    cleanupAllowed: false,
    ports: {
      baseUrl: model.base_url,
      apiKeyName: model.api_key_env,
      getSecret: (name) => getSecret(db, name),
      ...(ports.fetch ? { fetch: ports.fetch } : {}),
    },
  });
}
