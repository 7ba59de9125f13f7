// Tests that place or read a project's state files need its workspace id before or after a run: this binds (or
// reads) it in `<dataDir>/workspaces.json` the way i and i-bridge do, synchronously. Tests only.
import { randomUUID } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, realpathSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { REGISTRY_FILE, workspaceDigest } from './workspace-id';

export function testWorkspaceId(dataDir: string, dir: string): string {
  const file = join(dataDir, REGISTRY_FILE);
  const reg = existsSync(file)
    ? (JSON.parse(readFileSync(file, 'utf8')) as { version: 1; workspaces: Record<string, string> })
    : { version: 1 as const, workspaces: {} };
  const digest = workspaceDigest(realpathSync(dir));
  const bound = reg.workspaces[digest];
  if (bound) return bound;
  const id = randomUUID();
  reg.workspaces[digest] = id;
  mkdirSync(dataDir, { recursive: true });
  writeFileSync(file, JSON.stringify(reg));
  return id;
}
