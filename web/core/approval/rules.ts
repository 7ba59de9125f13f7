// Approval rules (issue 16): the person's standing answers, per workspace and global, so a trusted edit in src/ is
// not asked about forty times and a write to secrets/ is never allowed by accident. A rule names a tool (or a
// group) and optionally a path glob; its decision is allow | ask | deny.
//
// Order (documented in web/core/approval/CONTEXT.md):
//   1. deny_tools and `.git` refusals stay above everything (gate.ts, tool prepare).
//   2. Of the rules that match a call, the strongest decision wins: deny > ask > allow. A matching deny can never be
//      outvoted by a more specific allow — the safe reading of two rules that disagree.
//   3. Within that decision, the most specific rule is the one recorded as having decided (exact tool name over a
//      group over `*`; a path rule over a tool-wide one; the longer literal folder prefix first; workspace over global).
//   4. Protected paths (the write policy's always-ask files: .vscode/, .envrc, CI workflows…) still ask under an allow
//      rule; a deny rule still denies them.
// Matching is on the tool's public name and the normalised workspace path the tool's prepare names
// (`prepared.target.path`: write, edit); a rule with a path never matches a call without one. Paths the model typed
// into other tools' arguments are not normalised, so matching them would let `./secrets/x` slip past `secrets/**`.
import { HarnessError } from '../errors';
import { compileGlob, type GlobMatcher } from '../tools/builtin';
import type { ToolDefinition } from '../tools/types';
import type { ApprovalDecision } from './types';

export interface ApprovalRule {
  decision: ApprovalDecision;
  /**
   * A tool's public name (`edit`), or a group: `group:writes` (the built-in file writers `write` and `edit`, and each
   * file write a plugin makes),
   * `plugin:<plugin id>`, `group:bridge` (i-bridge workers' tools), `mcp:<server>`, or `*` (every tool).
   */
  tool: string;
  /** A workspace-relative glob (`src/**`, `package.json`); absent: every call of the tool. */
  path?: string;
}

export type RuleScope = 'workspace' | 'global';

export interface ScopedRule extends ApprovalRule {
  scope: RuleScope;
}

/** The rule that decided a call, as recorded on the decision and shown on the tool card. */
export interface DecidingRule extends ScopedRule {
  /** Its position in its scope's list (Settings lists them in that order). */
  index: number;
}

export const MAX_RULES = 200;
export const FILE_WRITE_TOOLS: readonly string[] = ['write', 'edit'];
const TOOL_SELECTOR = /^(\*|group:writes|group:bridge|plugin:[a-z0-9][a-z0-9._-]{0,63}|mcp:[A-Za-z0-9_-]{1,64}|[a-zA-Z0-9_-]{1,64})$/;
const DECISIONS: readonly ApprovalDecision[] = ['allow', 'ask', 'deny'];
const STRENGTH: Record<ApprovalDecision, number> = { allow: 0, ask: 1, deny: 2 };

/** Problems of a rules list (strict: unknown keys, bad selectors and bad globs are refused), `at` the list's path. */
export function checkRules(value: unknown, at: string): string[] {
  if (!Array.isArray(value)) return [`${at}: expected a list of rules`];
  if (value.length > MAX_RULES) return [`${at}: at most ${MAX_RULES} rules`];
  const problems: string[] = [];
  value.forEach((raw, i) => {
    const where = `${at}[${i}]`;
    if (typeof raw !== 'object' || raw === null || Array.isArray(raw)) return void problems.push(`${where}: expected {"decision", "tool", "path"?}`);
    const rule = raw as Record<string, unknown>;
    for (const key of Object.keys(rule)) if (!['decision', 'tool', 'path'].includes(key)) problems.push(`${where}.${key}: unknown key`);
    if (!DECISIONS.includes(rule.decision as ApprovalDecision)) problems.push(`${where}.decision: expected "allow", "ask" or "deny"`);
    if (typeof rule.tool !== 'string' || !TOOL_SELECTOR.test(rule.tool)) {
      problems.push(`${where}.tool: expected a tool name, "group:writes", "group:bridge", "plugin:<id>", "mcp:<server>" or "*"`);
    }
    if (rule.path !== undefined) {
      if (typeof rule.path !== 'string') problems.push(`${where}.path: expected a glob such as "src/**"`);
      else if (rule.path.split('/').includes('..')) problems.push(`${where}.path: ".." never matches: rules see workspace paths, e.g. "src/**"`);
      else {
        try {
          compileGlob(rule.path);
        } catch (error) {
          problems.push(`${where}.path: ${HarnessError.isInstance(error) ? error.message : String(error)}`);
        }
      }
    }
  });
  return problems;
}

/** Parses a rules list, refusing it whole (E_APPROVAL_RULES_INVALID) when any rule is bad. */
export function parseRules(value: unknown, at: string): ApprovalRule[] {
  const problems = checkRules(value, at);
  if (problems.length) throw new HarnessError('E_APPROVAL_RULES_INVALID', `The approval rules are invalid: ${problems.slice(0, 5).join('; ')}. Fix or remove those rules.`, { problems });
  return (value as ApprovalRule[]).map((r) => ({ decision: r.decision, tool: r.tool, ...(r.path !== undefined ? { path: r.path } : {}) }));
}

function selects(selector: string, tool: ToolDefinition, write: boolean): boolean {
  const name = tool.schema.name;
  if (selector === '*') return true;
  if (selector === 'group:writes') return write || (!tool.external && FILE_WRITE_TOOLS.includes(name));
  if (selector === 'group:bridge') return tool.origin?.kind === 'bridge';
  if (selector.startsWith('plugin:')) return tool.origin?.kind === 'plugin' && tool.origin.pluginId === selector.slice(7);
  if (selector.startsWith('mcp:')) return tool.origin?.kind === 'mcp' && tool.origin.server === selector.slice(4);
  return selector === name;
}

const toolRank = (selector: string) => (selector === '*' ? 0 : selector.startsWith('group:') ? 1 : selector.includes(':') ? 2 : 3);

/**
 * A path as a case-insensitive folder may name the same file: NFC, lower case, no trailing dots or spaces per
 * segment (the write policy's folding, plugin-host/fs/write-policy.ts). Deny and ask rules also match on it, so
 * `Secrets/key` on macOS or Windows cannot slip past `deny … secrets/**`; allow rules stay exact.
 */
const fold = (path: string) =>
  path
    .split('/')
    .map((s) => s.normalize('NFC').toLowerCase().replace(/[. ]+$/, ''))
    .join('/');

/** Rules compiled once per turn (globs are not re-parsed per call). */
export class RuleSet {
  private readonly compiled: Array<{ rule: DecidingRule; glob: GlobMatcher | null; folded: GlobMatcher | null }>;

  constructor(rules: readonly ScopedRule[]) {
    const seen: Record<RuleScope, number> = { workspace: 0, global: 0 };
    this.compiled = rules.map((r) => ({
      rule: { ...r, index: seen[r.scope]++ },
      glob: r.path !== undefined ? compileGlob(r.path) : null,
      folded: r.path !== undefined && r.decision !== 'allow' ? compileGlob(fold(r.path)) : null,
    }));
  }

  get size(): number {
    return this.compiled.length;
  }

  /**
   * The deciding rule for a call of `tool` on `path` (null: no rule matches; the mode's default stands). `write`: the
   * call is one mediated file write (a plugin's fs.write), which `group:writes` covers as it covers write and edit.
   */
  decide(tool: ToolDefinition, path: string | undefined, write = false): DecidingRule | null {
    let best: { rule: DecidingRule; key: number[] } | null = null;
    for (const { rule, glob, folded } of this.compiled) {
      if (!selects(rule.tool, tool, write)) continue;
      if (glob && (path === undefined || !(glob.matches(path) || (folded !== null && folded.matches(fold(path)))))) continue;
      const key = [STRENGTH[rule.decision], glob ? 1 : 0, toolRank(rule.tool), glob ? glob.base.length : 0, rule.scope === 'workspace' ? 1 : 0, -rule.index];
      if (!best || greater(key, best.key)) best = { rule, key };
    }
    return best?.rule ?? null;
  }
}

function greater(a: number[], b: number[]): boolean {
  for (let i = 0; i < a.length; i++) if (a[i] !== b[i]) return a[i]! > b[i]!;
  return false;
}

/** The workspace's rules first, then the global ones (the order Settings shows; scope breaks specificity ties). */
export function scopedRules(workspace: readonly ApprovalRule[], global: readonly ApprovalRule[]): ScopedRule[] {
  return [...workspace.map((r) => ({ ...r, scope: 'workspace' as const })), ...global.map((r) => ({ ...r, scope: 'global' as const }))];
}

/** One line naming a rule, for the tool card and the CLI: `allow edit on src/**`. */
export function describeRule(rule: ApprovalRule): string {
  return `${rule.decision} ${rule.tool}${rule.path !== undefined ? ` on ${rule.path}` : ''}`;
}
