// The agent part's trust-widening changes on import (web/core/settings/import-trust.ts says why they are gated).
// For one scope of the file it finds, against what is stored here now:
// - key_origin: the model config (api_key_env) or web_search (auth.secret) names a key stored here and would send it
//   to an origin no stored config sends it to now (a changed base_url, or a config new to this browser);
// - provider_operations: provider_operations / provider_cleanup turned on;
// - approval_mode: ask → auto / yolo, auto → yolo;
// - allow_rule: an allow rule not there now; rule_removed: a deny or ask rule there now that the file drops (a
//   part the file has replaces the scope's part);
// - deny_tools_removed: tools denied now (the scope's own modules, else for a workspace the global ones it follows)
//   that the file's modules leave out; skill_workspaces: other workspaces added as skill folders.
// A held-back change keeps the current value of just that piece (the whole model config for its two kinds: a
// half-applied config could point the old key at the new address); everything else in the part is written.
import {
  AGENT_GLOBAL_SCOPE,
  APPROVAL_MODES,
  checkAgentModules,
  storedModulesOf,
  type StoredModules,
} from './agent-settings';
import { describeRule, MAX_RULES, parseRules, type ApprovalRule } from '../approval';
import { originOf, type SectionContext, type TrustChange } from '../settings';
import type { SettingsRecord } from '../storage';
import { stableJson } from '../contracts';
import { MAX_DENY_TOOLS } from './agent-parity-settings';

type Obj = Record<string, unknown>;
const isObj = (v: unknown): v is Obj => typeof v === 'object' && v !== null && !Array.isArray(v);

/** Key name → the origins stored configs send it to now. */
export type KeyOrigins = Map<string, Set<string>>;

function keyUses(values: unknown): [string, string | null][] {
  if (!isObj(values)) return [];
  const out: [string, string | null][] = [];
  const config = isObj(values.model) && isObj(values.model.config) ? values.model.config : null;
  if (config && typeof config.api_key_env === 'string') out.push([config.api_key_env, originOf(config.base_url)]);
  const search = isObj(values.modules) && isObj(values.modules.web_search) ? values.modules.web_search : null;
  if (search && isObj(search.auth) && typeof search.auth.secret === 'string')
    out.push([search.auth.secret, originOf(search.url)]);
  return out;
}

/** Where each key goes now, from every stored agent scope (read before anything of the import is written). */
export function keyOriginsOf(records: readonly SettingsRecord[]): KeyOrigins {
  const map: KeyOrigins = new Map();
  for (const r of records) {
    if (r.scope !== AGENT_GLOBAL_SCOPE && !r.scope.startsWith('agent-workspace:')) continue;
    for (const [key, origin] of keyUses(r.values)) if (origin) map.set(key, (map.get(key) ?? new Set()).add(origin));
  }
  return map;
}

function modulesOf(values: unknown): StoredModules | null {
  if (!isObj(values) || values.modules === undefined) return null;
  try {
    return storedModulesOf(checkAgentModules(values.modules));
  } catch {
    return null; // unreadable stored modules: the turn refuses to start until fixed; nothing to compare with
  }
}

function rulesOf(values: unknown): ApprovalRule[] {
  if (!isObj(values) || values.rules === undefined) return [];
  try {
    return parseRules(values.rules, 'rules');
  } catch {
    return [];
  }
}

export interface ScopeGateInput {
  /** 'global' or the local workspace id: part of every change's id. */
  scopeKey: string;
  /** The workspace's name here; null for the global scope. */
  workspace: string | null;
  /** What the scope stores now. */
  current: Obj;
  /** For a workspace: what the global scope stores now (its modules apply where the workspace has none). */
  global: Obj | null;
  keyOrigins: KeyOrigins;
  ctx: SectionContext;
  /** A workspace id's name here (skill folders are named by id), or the id when there is none. */
  nameOf(id: string): Promise<string>;
}

/** The parts to write for one scope: `parts` (checked, stored form) with every held-back change set back. */
export async function gateScopeParts(parts: Obj, input: ScopeGateInput): Promise<Obj> {
  const { scopeKey, workspace, current, ctx } = input;
  const out: Obj = { ...parts };
  const change = (
    kind: TrustChange['kind'],
    detail: string,
    message: string,
    data: TrustChange['data'],
  ): TrustChange => ({ id: `${kind}:${scopeKey}:${detail}`, kind, workspace, message, data });
  const keepCurrent = (part: string) => {
    if (current[part] === undefined) delete out[part];
    else out[part] = current[part];
  };
  const newKeyOrigin = async (key: unknown, url: unknown): Promise<string | null> => {
    const origin = originOf(url);
    if (typeof key !== 'string' || !origin || input.keyOrigins.get(key)?.has(origin)) return null;
    return (await ctx.secretExists(key)) ? origin : null;
  };

  if (isObj(parts.model) && isObj(parts.model.config)) {
    const config = parts.model.config;
    const was = isObj(current.model) && isObj(current.model.config) ? current.model.config : {};
    const found: TrustChange[] = [];
    const origin = await newKeyOrigin(config.api_key_env, config.base_url);
    if (origin) {
      const from = originOf(was.base_url);
      found.push(
        change(
          'key_origin',
          `model:${String(config.api_key_env)}:${origin}`,
          `the model config would send your stored key ${String(config.api_key_env)} to ${origin}${from && from !== origin ? ` instead of ${from}` : ''}.`,
          { key: String(config.api_key_env), origin, from: from && from !== origin ? from : null, part: 'model' },
        ),
      );
    }
    for (const field of ['provider_operations', 'provider_cleanup']) {
      if (config[field] === true && was[field] !== true) {
        const what =
          field === 'provider_operations'
            ? 'lets the provider worker upload and run file operations with your key'
            : 'lets the provider worker delete its uploads without asking';
        found.push(
          change('provider_operations', field, `turns on ${field} in the model config, which ${what}.`, { field }),
        );
      }
    }
    // Every change is asked about (and so reported), not just the first.
    const verdicts = found.map((c) => ctx.gate.allows(c));
    if (verdicts.includes(false)) keepCurrent('model');
  }

  if (typeof parts.approval === 'string') {
    const from =
      typeof current.approval === 'string' && APPROVAL_MODES.includes(current.approval as never)
        ? current.approval
        : 'ask';
    const to = parts.approval;
    if (APPROVAL_MODES.indexOf(to as never) > APPROVAL_MODES.indexOf(from as never)) {
      const what =
        to === 'yolo' ? 'every tool not in deny_tools would run without asking' : 'more tools would run without asking';
      if (
        !ctx.gate.allows(
          change('approval_mode', to, `moves the approval mode from ${from} to ${to}: ${what}.`, { from, to }),
        )
      )
        keepCurrent('approval');
    }
  }

  if (Array.isArray(parts.rules)) {
    const now = rulesOf(current);
    const keyOf = (r: ApprovalRule) => stableJson({ decision: r.decision, tool: r.tool, path: r.path ?? null });
    const nowKeys = new Set(now.map(keyOf));
    const fileKeys = new Set((parts.rules as ApprovalRule[]).map(keyOf));
    const rules: ApprovalRule[] = [];
    for (const r of parts.rules as ApprovalRule[]) {
      const added = r.decision === 'allow' && !nowKeys.has(keyOf(r));
      if (
        added &&
        !ctx.gate.allows(
          change(
            'allow_rule',
            keyOf(r),
            `adds the approval rule "${describeRule(r)}": matching calls would run without asking.`,
            { rule: describeRule(r), tool: r.tool, path: r.path ?? null },
          ),
        )
      )
        continue;
      rules.push(r);
    }
    for (const r of now) {
      if (r.decision === 'allow' || fileKeys.has(keyOf(r))) continue;
      if (
        !ctx.gate.allows(
          change(
            'rule_removed',
            keyOf(r),
            `removes the approval rule "${describeRule(r)}": matching calls would no longer be ${r.decision === 'deny' ? 'refused' : 'asked about'}.`,
            { rule: describeRule(r), decision: r.decision, tool: r.tool, path: r.path ?? null },
          ),
        )
      )
        rules.push(r);
    }
    if (rules.length > MAX_RULES) keepCurrent('rules');
    else out.rules = rules;
  }

  if (isObj(parts.modules)) {
    const modules = { ...(parts.modules as StoredModules) };
    const own = modulesOf(current);
    const now = own ?? (input.global ? modulesOf(input.global) : null) ?? {};
    const denied = new Set(modules.deny_tools ?? []);
    const removed = (now.deny_tools ?? []).filter((t) => !denied.has(t)).sort();
    if (
      removed.length &&
      !ctx.gate.allows(
        change(
          'deny_tools_removed',
          removed.join(','),
          `stops denying ${removed.join(', ')} (deny_tools): ${removed.length === 1 ? 'it' : 'they'} could run again.`,
          { tools: removed },
        ),
      )
    ) {
      const union = [...(modules.deny_tools ?? []), ...removed];
      modules.deny_tools = union.length > MAX_DENY_TOOLS ? [...(now.deny_tools ?? [])] : union;
    }
    const search = modules.web_search;
    if (search?.auth) {
      const origin = await newKeyOrigin(search.auth.secret, search.url);
      if (
        origin &&
        !ctx.gate.allows(
          change(
            'key_origin',
            `web_search:${search.auth.secret}:${origin}`,
            `web_search would send your stored key ${search.auth.secret} to ${origin}.`,
            { key: search.auth.secret, origin, from: null, part: 'web_search' },
          ),
        )
      ) {
        if (own?.web_search) modules.web_search = own.web_search;
        else delete modules.web_search;
      }
    }
    const had = new Set(own?.skill_workspaces ?? []);
    const addedRoots = (modules.skill_workspaces ?? []).filter((w) => !had.has(w));
    const names = await Promise.all(addedRoots.map((id) => input.nameOf(id)));
    if (
      addedRoots.length &&
      !ctx.gate.allows(
        change(
          'skill_workspaces',
          [...addedRoots].sort().join(','),
          `lets the agent read skills from the folder${names.length === 1 ? '' : 's'} of ${names.map((n) => `"${n}"`).join(', ')}.`,
          { workspaces: names },
        ),
      )
    ) {
      if (own?.skill_workspaces) modules.skill_workspaces = own.skill_workspaces;
      else delete modules.skill_workspaces;
    }
    out.modules = modules;
  }
  return out;
}
