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
// (`prepared.target`: write, edit, read, view_image; a plugin's fs.write) — and, on a backend that follows symbolic
// links (Node), the path it really reaches (`target.realPath`): a deny or ask matches when either path does, an allow
// only when both do. A rule with a path never matches a call without one; a path rule on a tool whose calls never
// carry one (glob, search, module tools, group:bridge, mcp:…) is refused by checkRules. Paths the model typed into
// other tools' arguments are not normalised, so matching them would let `./secrets/x` slip past `secrets/**`.
// Globs: a trailing `/` means the folder and everything under it (`secrets/` is `secrets/**`); in an allow rule `*`,
// `?`, classes and `**` do not match a leading '.' of a segment (`src/**` does not allow `src/.env`; `src/.*` does),
// in a deny or ask rule they do. Details: CONTEXT.md.
// Commands (issue 31): a rule on the tool `shell` may name a `command` prefix instead of a path; how an allow and a
// deny read a command is in command-rules.ts (an allow needs one literal simple command; a deny matches any part).
import { HarnessError } from '../contracts';
import { compileGlob, type GlobMatcher } from '../contracts';
import type { ToolDefinition } from '../contracts';
import { allowsCommand, checkCommandPrefix, commandMatches, literalWords, SHELL_TOOL } from './command-rules';
/** What the rules (or the mode) decide for one call. */
export type ApprovalDecision = 'allow' | 'ask' | 'deny';

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
  /**
   * Only with `tool: "shell"`: the words a command starts with (`npm test`). An allow matches one simple command of
   * literal words starting with them; a deny or ask matches when any part of the command does (command-rules.ts).
   */
  command?: string;
}

export type RuleScope = 'workspace' | 'global';

export interface ScopedRule extends ApprovalRule {
  scope: RuleScope;
}

/** The rule that decided a call, as recorded on the decision and shown on the tool card. */
export interface DecidingRule extends ScopedRule {
  /** Its position in its scope's list (Settings lists them in that order). */
  index: number;
  /**
   * Set on a deny (or ask) command rule that may match: the command hides its program (a variable or glob in its
   * place, or a line the parser cannot read), so the rule cannot tell; the call asks instead of being denied.
   */
  unsure?: true;
}

export const MAX_RULES = 200;
export const FILE_WRITE_TOOLS: readonly string[] = ['write', 'edit'];
/** Built-in tools whose prepare names the file they act on (`prepared.target`), so path rules judge them. */
export const PATH_RULE_TOOLS: readonly string[] = [...FILE_WRITE_TOOLS, 'read', 'view_image'];
/**
 * Built-in tools whose calls carry no file path a rule could judge: glob and search walk folders (their `path` is
 * where to start, not what they read), the module tools name keys, URLs, skills or stored results. Written out (the
 * tool lists import this module while they load); approval-rules.test.ts holds it to every built-in name.
 */
export const PATHLESS_RULE_TOOLS: readonly string[] = [
  'glob',
  'search',
  'memory_get',
  'memory_set',
  'skill_load',
  'skill_read',
  'web_fetch',
  'web_search',
  'read_result',
  'shell',
  'shell_output',
  'shell_stop',
];

/** What a rule's path is matched against: the normalised path, and the path it reaches through links when that differs. */
export interface RuleTarget {
  path: string;
  realPath?: string;
}
const TOOL_SELECTOR =
  /^(\*|group:writes|group:bridge|plugin:[a-z0-9][a-z0-9._-]{0,63}|mcp:[A-Za-z0-9_-]{1,64}|[a-zA-Z0-9_-]{1,64})$/;
const DECISIONS: readonly ApprovalDecision[] = ['allow', 'ask', 'deny'];
const STRENGTH: Record<ApprovalDecision, number> = { allow: 0, ask: 1, deny: 2 };

/** Problems of a rules list (strict: unknown keys, bad selectors and bad globs are refused), `at` the list's path. */
export function checkRules(value: unknown, at: string): string[] {
  if (!Array.isArray(value)) return [`${at}: expected a list of rules`];
  if (value.length > MAX_RULES) return [`${at}: at most ${MAX_RULES} rules`];
  const problems: string[] = [];
  value.forEach((raw, i) => {
    const where = `${at}[${i}]`;
    if (typeof raw !== 'object' || raw === null || Array.isArray(raw))
      return void problems.push(`${where}: expected {"decision", "tool", "path"?, "command"?}`);
    const rule = raw as Record<string, unknown>;
    for (const key of Object.keys(rule))
      if (!['decision', 'tool', 'path', 'command'].includes(key)) problems.push(`${where}.${key}: unknown key`);
    if (!DECISIONS.includes(rule.decision as ApprovalDecision))
      problems.push(`${where}.decision: expected "allow", "ask" or "deny"`);
    if (typeof rule.tool !== 'string' || !TOOL_SELECTOR.test(rule.tool)) {
      problems.push(
        `${where}.tool: expected a tool name, "group:writes", "group:bridge", "plugin:<id>", "mcp:<server>" or "*"`,
      );
    }
    if (rule.path !== undefined) {
      const tool = typeof rule.tool === 'string' ? rule.tool : '';
      if (typeof rule.path !== 'string') problems.push(`${where}.path: expected a glob such as "src/**"`);
      else if (PATHLESS_RULE_TOOLS.includes(tool) || tool === 'group:bridge' || tool.startsWith('mcp:')) {
        problems.push(
          `${where}.path: calls of "${tool}" carry no file path the rules can judge (${tool === 'glob' || tool === 'search' ? 'it walks folders' : 'it names no workspace file'}), so this rule would never match; remove the path to cover every call of "${tool}", or name a tool that acts on one file (${PATH_RULE_TOOLS.join(', ')}, group:writes, plugin:<id>)`,
        );
      } else if (rule.path.split('/').includes('..'))
        problems.push(`${where}.path: ".." never matches: rules see workspace paths, e.g. "src/**"`);
      else {
        try {
          compileGlob(rule.path);
        } catch (error) {
          problems.push(`${where}.path: ${HarnessError.isInstance(error) ? error.message : String(error)}`);
        }
      }
    }
    if (rule.command !== undefined) {
      if (rule.tool !== SHELL_TOOL)
        problems.push(
          `${where}.command: only rules for the tool "${SHELL_TOOL}" take a command (calls of ${JSON.stringify(rule.tool)} run none), so this rule would never match; remove the command or set "tool": "${SHELL_TOOL}"`,
        );
      problems.push(...checkCommandPrefix(rule.command, `${where}.command`));
    }
  });
  return problems;
}

/** Parses a rules list, refusing it whole (E_APPROVAL_RULES_INVALID) when any rule is bad. */
export function parseRules(value: unknown, at: string): ApprovalRule[] {
  const problems = checkRules(value, at);
  if (problems.length)
    throw new HarnessError(
      'E_APPROVAL_RULES_INVALID',
      `The approval rules are invalid: ${problems.slice(0, 5).join('; ')}. Fix or remove those rules.`,
      { problems },
    );
  return (value as ApprovalRule[]).map((r) => ({
    decision: r.decision,
    tool: r.tool,
    ...(r.path !== undefined ? { path: r.path } : {}),
    ...(r.command !== undefined ? { command: r.command } : {}),
  }));
}

function selects(selector: string, tool: ToolDefinition, write: boolean): boolean {
  const name = tool.schema.name;
  if (selector === '*') return true;
  if (selector === 'group:writes') return write || (!tool.external && FILE_WRITE_TOOLS.includes(name));
  if (selector === 'group:bridge') return tool.origin?.kind === 'bridge';
  if (selector.startsWith('plugin:'))
    return tool.origin?.kind === 'plugin' && tool.origin.pluginId === selector.slice(7);
  if (selector.startsWith('mcp:')) return tool.origin?.kind === 'mcp' && tool.origin.server === selector.slice(4);
  return selector === name;
}

const toolRank = (selector: string) =>
  selector === '*' ? 0 : selector.startsWith('group:') ? 1 : selector.includes(':') ? 2 : 3;

/**
 * A path as a case-insensitive folder may name the same file: NFC, lower case, no trailing dots or spaces per
 * segment (the write policy's folding, plugin-host/fs/write-policy.ts). Deny and ask rules also match on it, so
 * `Secrets/key` on macOS or Windows cannot slip past `deny … secrets/**`; allow rules stay exact.
 */
const fold = (path: string) =>
  path
    .split('/')
    .map((s) =>
      s
        .normalize('NFC')
        .toLowerCase()
        .replace(/[. ]+$/, ''),
    )
    .join('/');

/** A rule's glob as matched: a trailing `/` names the folder and everything under it (`secrets/` → `secrets/**`). */
export const ruleGlob = (path: string) => (path.endsWith('/') ? `${path}**` : path);

/** Rules compiled once per turn (globs and command prefixes are not re-parsed per call). */
export class RuleSet {
  private readonly compiled: Array<{
    rule: DecidingRule;
    glob: GlobMatcher | null;
    folded: GlobMatcher | null;
    prefix: string[] | null;
  }>;

  constructor(rules: readonly ScopedRule[]) {
    const seen: Record<RuleScope, number> = { workspace: 0, global: 0 };
    this.compiled = rules.map((r) => {
      const pattern = r.path !== undefined ? ruleGlob(r.path) : undefined;
      return {
        rule: { ...r, index: seen[r.scope]++ },
        // An allow's wildcards never match a leading dot: `src/**` must not allow `src/.env` or `src/.git-crypt/`.
        glob: pattern !== undefined ? compileGlob(pattern, { dot: r.decision !== 'allow' }) : null,
        folded: pattern !== undefined && r.decision !== 'allow' ? compileGlob(fold(pattern)) : null,
        // checkRules refused a prefix that is not literal words; a rule built around it never matches anything.
        prefix: r.command !== undefined ? (literalWords(r.command) ?? []) : null,
      };
    });
  }

  get size(): number {
    return this.compiled.length;
  }

  /**
   * The deciding rule for a call of `tool` on `target` (null: no rule matches; the mode's default stands). `target`: the
   * normalised path, or it and the path it reaches through links (`realPath`): a deny or ask matches when either
   * does, an allow only when both do, so a link can neither detour a deny nor widen an allow. `write`: the call is one
   * mediated file write (a plugin's fs.write), which `group:writes` covers as it covers write and edit. `command`: the
   * command of a `shell` call, which command rules judge (a rule with a command never matches a call without one).
   */
  decide(
    tool: ToolDefinition,
    target: string | RuleTarget | undefined,
    write = false,
    command?: string,
  ): DecidingRule | null {
    const path = typeof target === 'string' ? target : target?.path;
    const real = typeof target === 'object' ? (target.realPath ?? target.path) : path;
    let best: { rule: DecidingRule; key: number[] } | null = null;
    for (const { rule: stored, glob, folded, prefix } of this.compiled) {
      let rule = stored;
      if (!selects(rule.tool, tool, write)) continue;
      if (glob) {
        if (path === undefined || real === undefined) continue;
        const hit = (p: string) => glob.matches(p) || (folded !== null && folded.matches(fold(p)));
        if (!(rule.decision === 'allow' ? hit(path) && hit(real) : hit(path) || hit(real))) continue;
      }
      if (prefix) {
        if (command === undefined || prefix.length === 0 || tool.external || tool.schema.name !== SHELL_TOOL) continue;
        if (rule.decision === 'allow') {
          if (!allowsCommand(command, prefix)) continue;
        } else {
          const match = commandMatches(command, prefix);
          if (match === 'no') continue;
          // A deny that cannot tell whether the hidden program is the one it names asks instead.
          if (match === 'unsure' && rule.decision === 'deny') rule = { ...rule, unsure: true };
        }
      }
      const key = [
        rule.unsure ? STRENGTH.ask : STRENGTH[rule.decision],
        glob || prefix ? 1 : 0,
        toolRank(rule.tool),
        glob ? glob.base.length : (prefix?.length ?? 0),
        rule.scope === 'workspace' ? 1 : 0,
        -rule.index,
      ];
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
  return [
    ...workspace.map((r) => ({ ...r, scope: 'workspace' as const })),
    ...global.map((r) => ({ ...r, scope: 'global' as const })),
  ];
}

/** One line naming a rule, for the tool card and the CLI: `allow edit on src/**`. */
export function describeRule(rule: ApprovalRule): string {
  const command = rule.command !== undefined ? ` ${JSON.stringify(rule.command)}` : '';
  return `${rule.decision} ${rule.tool}${command}${rule.path !== undefined ? ` on ${rule.path}` : ''}`;
}
