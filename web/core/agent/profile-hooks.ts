// The hook handlers of the profile's budget, compaction and cache modules (seed 000 §1, §7, §8), built the same
// way for headless `i` and the app. A module runs when the selection enables it and no worker binding replaces it;
// with the `responses` protocol, a `responses-*` variant enabled in the selection stands in for its plain module.
// `compact` also switches on budget metering (with a window). `cache` comes last: it must see the final wire body.
import type { BudgetSettings, HookHandler } from '../hooks';
import { budgetModulesOn, createBudgetModule, type BudgetEndpoint, type BudgetModule } from '../modules';
import { createCacheModule, type CacheConfig, type StatsStore } from '../modules';
import { createCompactModule, DEFAULT_COMPACT_CONFIG, type CompactConfig } from '../modules';
import { builtinModules } from '../modules';
import type { Bindings, ProfileSelection } from '../modules';
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

/** What a usage anchor is bound to besides the model and history (seed 003): endpoint, selector, worker binding, options. */
export function budgetEndpointOf(m: ModelSettings): BudgetEndpoint {
  return {
    protocol: m.protocol,
    base_url: m.base_url,
    binding: m.provider ?? null,
    options: { model: m.model, max_tokens: m.max_tokens, use_max_tokens: m.use_max_tokens, extra_body: m.extra_body },
  };
}

export function profileHooks(o: ProfileHooksOptions): ProfileHooks {
  const active = builtinModules(o.selection, o.bindings);
  const out: ProfileHooks = { handlers: [], active: [] };
  const settings: BudgetSettings | null = o.model.budget;
  const compact = o.compact ?? { config: DEFAULT_COMPACT_CONFIG };
  const on = budgetModulesOn(active, o.model.protocol, compact.config.enabled);
  const wantCompact = on.compact;
  // Where configs are read (headless run, app turn start), checkProfileConfig refuses a profile that meters or
  // compacts without a context window (E_CONFIG_BUDGET_WINDOW), so `settings` is there whenever these run.
  if (settings && (on.budget || wantCompact)) {
    out.budget = createBudgetModule({ settings, endpoint: budgetEndpointOf(o.model) });
    out.handlers.push(out.budget);
    out.active.push('budget');
  }
  if (wantCompact) {
    out.handlers.push(
      createCompactModule({
        config: compact.config,
        ...(compact.promptText !== undefined ? { promptText: compact.promptText } : {}),
        ...(settings ? { budget: settings } : {}),
      }),
    );
    out.active.push('compact');
  }
  if (o.cache && active.has('cache') && o.cache.config.enabled) {
    out.handlers.push(createCacheModule({ config: o.cache.config, store: o.cache.store }));
    out.active.push('cache');
  }
  return out;
}
