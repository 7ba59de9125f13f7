// Headless provider Files: $I_CONFIG_DIR/provider.json (seed 000 §4) and the model config's provider_operations
// decide the policy; uploads are remembered in $I_DATA_DIR/workspaces/<id>/provider-files.json. Without
// provider.json and without provider_operations nothing changes (null: the plain transport).
import { promises as fsp } from 'node:fs';
import { join } from 'node:path';
import {
  accountScope,
  DEFAULT_PROVIDER_JSON,
  FileRegistry,
  filesPolicy,
  newFilesContext,
  parseProviderJson,
  type PlanContext,
  type ProviderFilesContext,
  type ProviderJson,
} from '../provider-files';
import { nodeRegistryStore } from '../provider-files/node';
import type { ModelConfig } from './model-config';
import { readJson } from './config-files';

export async function loadProviderJson(configDir: string): Promise<ProviderJson | null> {
  const file = join(configDir, 'provider.json');
  if (
    !(await fsp.stat(file).then(
      () => true,
      () => false,
    ))
  )
    return null;
  return parseProviderJson(await readJson(file, 'provider settings'), file);
}

export const workspaceStateDir = (dataDir: string, workspaceId: string) => join(dataDir, 'workspaces', workspaceId);

export async function headlessProviderFiles(p: {
  configDir: string;
  dataDir: string;
  workspaceId: string;
  config: ModelConfig;
  apiKey: string | undefined;
  fetch?: typeof fetch;
}): Promise<ProviderFilesContext | null> {
  const provider = await loadProviderJson(p.configDir);
  if (!provider && !p.config.provider_operations) return null;
  const policy = filesPolicy({
    provider: provider ?? DEFAULT_PROVIDER_JSON,
    providerOperations: p.config.provider_operations,
    providerCleanup: p.config.provider_cleanup === true,
    protocol: p.config.protocol,
    baseUrl: p.config.base_url,
    apiKeyName: p.config.api_key_env,
  });
  // A custom provider worker may use operations without provider.json; only a built-in protocol is told they are unused.
  if (policy.notice?.code === 'N_PROVIDER_OPERATIONS_UNUSED' && p.config.provider !== null) policy.notice = null;
  if (policy.mode === 'base64' && !policy.notice) return null;
  const registry = new FileRegistry(nodeRegistryStore(workspaceStateDir(p.dataDir, p.workspaceId)));
  return newFilesContext(policy, registry, {
    apiKeyName: p.config.api_key_env,
    getSecret: () => p.apiKey,
    ...(p.fetch ? { fetch: p.fetch } : {}),
  });
}

/**
 * A custom provider worker's operation plans (null without provider_operations: the worker's plans are then
 * refused). Its cleanup deletes run only under provider_cleanup, for files this workspace's registry knows.
 */
export async function headlessOperationPlans(p: {
  configDir: string;
  dataDir: string;
  workspaceId: string;
  config: ModelConfig;
  apiKey: string | undefined;
  fetch?: typeof fetch;
}): Promise<PlanContext | null> {
  if (!p.config.provider_operations) return null;
  const provider = (await loadProviderJson(p.configDir)) ?? DEFAULT_PROVIDER_JSON;
  return {
    ports: { apiKeyName: p.config.api_key_env, getSecret: () => p.apiKey, ...(p.fetch ? { fetch: p.fetch } : {}) },
    cleanupAllowed: p.config.provider_cleanup === true,
    registry: new FileRegistry(nodeRegistryStore(workspaceStateDir(p.dataDir, p.workspaceId))),
    scope: accountScope(provider, p.config.base_url, p.config.api_key_env),
  };
}
