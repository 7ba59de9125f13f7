// The secrets store: credentials such as API keys, referenced by NAME from settings and model configs
// (`api_key_env` in the browser names an entry here). Values are only read by the code that sends the one HTTP
// request needing them; they are never exported, logged, or passed to plugins, hooks or workers.
import { HarnessError } from '../contracts';
import type { HarnessDb } from '../storage';

const SECRET_NAME_RE = /^[A-Za-z_][A-Za-z0-9_]{0,127}$/;
export const MAX_SECRET_BYTES = 16 * 1024;

/**
 * Names a person's secret may not have: where the app's own credentials lived before they moved to internal
 * entries (the bridge token was `I_BRIDGE_TOKEN`). A config naming one could send that credential to its own
 * base_url, so configs refuse them and getSecret never answers them.
 */
export const RESERVED_SECRET_NAMES: readonly string[] = ['I_BRIDGE_TOKEN'];

/** True for a name a config, a setting or the Keys list may use: the name rule, and not reserved. */
export function isPublicSecretName(name: string): boolean {
  return SECRET_NAME_RE.test(name) && !RESERVED_SECRET_NAMES.includes(name.toUpperCase());
}

export function validateSecretName(name: string): string {
  if (!SECRET_NAME_RE.test(name)) {
    throw new HarnessError(
      'E_SECRET_NAME_INVALID',
      'Secret names use letters, digits and _ (like OPENAI_API_KEY), start with a letter or _, and have at most 128 characters.',
      { name },
    );
  }
  if (!isPublicSecretName(name)) {
    throw new HarnessError(
      'E_SECRET_NAME_RESERVED',
      `The name ${name} is reserved for the app's own credentials. Choose another name, such as MY_API_KEY.`,
      { name },
    );
  }
  return name;
}

export async function setSecret(db: HarnessDb, name: string, value: string): Promise<void> {
  validateSecretName(name);
  if (value.length === 0)
    throw new HarnessError('E_SECRET_EMPTY', 'The secret value is empty. Paste the key and try again.', { name });
  if (new TextEncoder().encode(value).length > MAX_SECRET_BYTES) {
    throw new HarnessError(
      'E_SECRET_TOO_LARGE',
      `Secrets are at most ${MAX_SECRET_BYTES / 1024} KiB. Check that you pasted only the key.`,
      { name },
    );
  }
  await db.put('secrets', { name, value, updatedAt: Date.now() });
}

/**
 * The value, or undefined when no secret of that name exists. Internal entries (names outside the rule, such as the
 * bridge token) and reserved names are never answered here, whoever asks: a config cannot reach them.
 */
export async function getSecret(db: HarnessDb, name: string): Promise<string | undefined> {
  if (!isPublicSecretName(name)) return undefined;
  return (await db.get('secrets', name))?.value;
}

/** Names only: what the UI may show. Internal and reserved entries are left out. */
export async function listSecretNames(db: HarnessDb): Promise<string[]> {
  return (await db.getAllKeys('secrets')).filter(isPublicSecretName).sort();
}

export async function deleteSecret(db: HarnessDb, name: string): Promise<void> {
  await db.delete('secrets', name);
}
