// What the `approval` and `responses` modules change in a turn (seed 000 §1), applied the same way by headless `i`
// and the app. `active` is the set of modules that run built in (enabled and not bound to a worker: builtinModules).
// - `responses`: the legacy Responses transformation. With `protocol: openai` the requests go to the Responses API
//   (the `responses` wire adapter: input items, function_call/call_id, opaque reasoning replay) instead of Chat
//   Completions; other protocols are left alone. With `protocol: responses` it is the explicit error of seed 003
//   (checkResponsesHook, E_CONFIG_RESPONSES_HOOK), never a second encoding.
// - `approval`: the approval policy (approval.json / Settings: mode `auto`, allow and ask rules). Off, the core gate
//   decides alone: read/view_image run, every other tool asks; explicit yolo still allows. deny_tools and deny rules
//   stay: turning a module off never lets a tool run that the person denied.
// - `search` adds nothing (glob and search are core tools, "search profile 不额外注册工具"), so Settings does not
//   offer it; plugins.json accepts the name for portability.
import { RuleSet, type ApprovalSettings, type DecidingRule, type RuleTarget } from '../../approval';
import type { ToolDefinition } from '../../contracts';
import type { ModuleName } from './profiles';

/** The wire protocol a turn speaks: `openai` becomes `responses` while the built-in `responses` module runs. */
export function wireProtocol(protocol: string, active: ReadonlySet<ModuleName>): string {
  return protocol === 'openai' && active.has('responses') ? 'responses' : protocol;
}

/** The model settings with the wire protocol of `wireProtocol` (everything else as it was). */
export function withWireProtocol<T extends { protocol: string }>(model: T, active: ReadonlySet<ModuleName>): T {
  const protocol = wireProtocol(model.protocol, active);
  return protocol === model.protocol ? model : { ...model, protocol };
}

/** Only the deny rules of a rule set: what stays of the person's rules while the approval policy module is off. */
class DenyRulesOnly extends RuleSet {
  constructor(private readonly inner: RuleSet) {
    super([]);
  }
  override get size(): number {
    return this.inner.size;
  }
  // The strongest matching rule is a deny whenever any deny matches (rules.ts ranks deny above ask and allow).
  override decide(
    tool: ToolDefinition,
    target: string | RuleTarget | undefined,
    write = false,
    command?: string,
  ): DecidingRule | null {
    const rule = this.inner.decide(tool, target, write, command);
    return rule?.decision === 'deny' ? rule : null;
  }
}

/** The approval settings of a turn under the profile: unchanged while `approval` runs, else the bare gate. */
export function approvalUnderProfile(settings: ApprovalSettings, active: ReadonlySet<ModuleName>): ApprovalSettings {
  if (active.has('approval')) return settings;
  return {
    mode: 'ask',
    deny_tools: [...settings.deny_tools],
    yolo: settings.yolo,
    ...(settings.rules ? { rules: new DenyRulesOnly(settings.rules) } : {}),
    ...(settings.sandbox !== undefined ? { sandbox: settings.sandbox } : {}),
  };
}

/** Modules Settings → Agent offers as toggles: every module that changes something (not `search`, see above). */
export const OFFERED_MODULES: readonly ModuleName[] = [
  'approval',
  'budget',
  'compact',
  'cache',
  'responses',
  'responses-budget',
  'responses-compact',
  'memory',
  'skills',
  'web',
];
