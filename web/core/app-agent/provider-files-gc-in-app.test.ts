// gc_expired in the app (seed 003's optional lifecycle): the app has no unattended delete, so Settings refuses the
// key with a code and what to do instead, and a stored (imported) gc_expired is said as a notice, never run — no
// notice tells the person to set a key the app would ignore.
import 'fake-indexeddb/auto';
import { describe, expect, it } from 'vitest';
import { openHarnessDb } from '../storage';
import { checkModelConfig } from './agent-settings';
import { appFilesContext, PROVIDER_SETTINGS_SCOPE, saveProviderJson } from './provider-files-app';

const model = checkModelConfig({
  protocol: 'anthropic',
  base_url: 'https://api.anthropic.com',
  model: 'm',
  api_key_env: 'K',
  provider_operations: true,
  provider_cleanup: true,
});

describe('gc_expired in the app', () => {
  it('Settings refuses to save it, naming what to do instead', async () => {
    const db = await openHarnessDb(`gc-app-${Math.random()}`);
    await expect(
      saveProviderJson(db, { images: 'files', account_scope: null, expires_after_seconds: 3600, gc_expired: true }),
    ).rejects.toMatchObject({
      code: 'E_PROVIDER_GC_NOT_IN_APP',
      message: expect.stringContaining('Settings → Model → Files'),
    });
    expect(await db.get('settings', PROVIDER_SETTINGS_SCOPE)).toBeUndefined();
  });

  it('a stored one is a notice and deletes nothing, even with provider_cleanup in the model config', async () => {
    const db = await openHarnessDb(`gc-app-${Math.random()}`);
    await db.put('settings', {
      scope: PROVIDER_SETTINGS_SCOPE,
      version: 1,
      values: { provider_json: { images: 'files', gc_expired: true } },
      updatedAt: 1,
    });
    const files = await appFilesContext(db, 'ws-1', model, {});
    expect(files?.policy).toMatchObject({ mode: 'files', gc: false, notice: { code: 'N_PROVIDER_GC_NOT_IN_APP' } });
    expect(files?.policy.notice?.message).not.toContain('Set "provider_cleanup"');
  });
});
