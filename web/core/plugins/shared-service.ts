// One plugin service per app database: the registry, KV, module cache and spare worker are shared by Settings →
// Plugins and the agent, so "Try a tool" runs exactly what the agent runs.
import type { HarnessDb } from '../storage';
import { createPluginService, type PluginService } from './plugin-service';

const services = new WeakMap<HarnessDb, PluginService>();

export function sharedPluginService(db: HarnessDb): PluginService {
  let service = services.get(db);
  if (!service) services.set(db, (service = createPluginService(db)));
  return service;
}
