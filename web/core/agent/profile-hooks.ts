// The hook handlers of the profile's budget, compaction and cache modules (seed 000 §1, §7, §8), built the same
// way for headless `i` and the app. A module runs when the selection enables it and no worker binding replaces it;
// with the `responses` protocol, a `responses-*` variant enabled in the selection stands in for its plain module.
// `compact` also switches on budget metering (with a window). `cache` comes last: it must see the final wire body.
import type { BudgetSettings, HookHandler } from '../hooks';
import { createBudgetModule, type BudgetEndpoint, type BudgetModule } from '../modules/budget';
import { createCacheModule, type CacheConfig, type StatsStore } from '../modules/cache';
import { createCompactModule, DEFAULT_COMPACT_CONFIG, type CompactConfig } from '../modules/compact';
import { builtinModules } from '../modules/builtin-tools';
import type { Bindings, ModuleName, ProfileSelection } from '../modules/profiles';
import type { ModelSettings } from './types';

export interface ProfileHooksOptions {
  selection: ProfileSelection;
  bindings: Bindings;
  /** The model settings the loop runs with (its `budget` is the resolved model config `budget`, or null). */
  model: ModelSettings;
  /** compact.json (config_dir in headless `i`); the defaults when absent. */
  compact?: { config: CompactConfig; promptText?: string };
  /** cache.json and where its statistics go; absent: no cache module. */
  cache?: { config: CacheConfig; store: StatsStore };
}

export interface ProfileHooks {
  /** In registration order: budget, compact, cache. */
  handlers: HookHandler[];
  /** Which modules run (for logs and tests). */
  active: Array<'budget' | 'compact' | 'cache'>;
  budget?: BudgetModule;
}

/** Whether `module` runs for this protocol: the `responses-` variant stands in for it on the Responses API. */
function runs(active: Set<ModuleName>, module: 'budget' | 'compact', protocol: string): boolean {
  if (protocol === 'responses') {
    const variant = `responses-${module}` as ModuleName;
    if (active.has(variant)) return true;
  }
  return active.has(module);
}

/** What a usage anchor is bound to besides the model and history (seed 003): endpoint, selector, worker binding, options. */
export function budgetEndpointOf(m: ModelSettings): BudgetEndpoint {
  return { protocol: m.protocol, base_url: m.base_url, binding: m.provider ?? null, options: { model: m.model, max_tokens: m.max_tokens, use_max_tokens: m.use_max_tokens, extra_body: m.extra_body } };
}

export function profileHooks(o: ProfileHooksOptions): ProfileHooks {
  const active = builtinModules(o.selection, o.bindings);
  const out: ProfileHooks = { handlers: [], active: [] };
  const settings: BudgetSettings | null = o.model.budget;
  const compact = o.compact ?? { config: DEFAULT_COMPACT_CONFIG };
  const wantCompact = runs(active, 'compact', o.model.protocol) && compact.config.enabled;
  // Without a context window there is nothing to meter or compact against (the core has no capacity table).
  if (settings && (runs(active, 'budget', o.model.protocol) || wantCompact)) {
    out.budget = createBudgetModule({ settings, endpoint: budgetEndpointOf(o.model) });
    out.handlers.push(out.budget);
    out.active.push('budget');
  }
  // Without a window the compactor still serves manual compaction (`/compact`, `i --compact`) with compact.json's
  // settings; it never runs on its own then, as nothing reports the history over budget.
  if (wantCompact) {
    out.handlers.push(createCompactModule({ config: compact.config, ...(compact.promptText !== undefined ? { promptText: compact.promptText } : {}), ...(settings ? { budget: settings } : {}) }));
    out.active.push('compact');
  }
  if (o.cache && active.has('cache') && o.cache.config.enabled) {
    out.handlers.push(createCacheModule({ config: o.cache.config, store: o.cache.store }));
    out.active.push('cache');
  }
  return out;
}
