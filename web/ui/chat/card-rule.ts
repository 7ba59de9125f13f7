// The rule an approval card offers ("Always allow edit in src/app/"): for a built-in file write that names its
// normalised target, allow that tool in the target's folder (or on the file itself at the workspace root). Never for
// a file the write policy always asks about, nor for tools without a target (their arguments are not normalised, so
// a path rule could not be trusted to match them).
import { FILE_WRITE_TOOLS, RuleSet, scopedRules, type ApprovalRequest, type ApprovalRule } from '../../core/page';

/** Glob metacharacters in a folder name are matched literally. */
const literal = (text: string) => text.replace(/[\\*?[\]{}]/g, (c) => `\\${c}`);

export interface CardRule {
  rule: ApprovalRule;
  /** What the button names: the folder with a trailing `/`, or the file at the root. */
  where: { folder: string } | { path: string };
}

export function cardRule(request: ApprovalRequest): CardRule | null {
  const path = request.prepared?.target?.path;
  if (request.external || !FILE_WRITE_TOOLS.includes(request.name) || !path || request.prepared?.alwaysAsk) return null;
  const cut = path.lastIndexOf('/');
  if (cut < 0) return { rule: { decision: 'allow', tool: request.name, path: literal(path) }, where: { path } };
  const folder = path.slice(0, cut);
  return {
    rule: { decision: 'allow', tool: request.name, path: `${literal(folder)}/**` },
    where: { folder: `${folder}/` },
  };
}

/** Rules added from cards while this page is open: they cover later calls of the turn already running. */
export function cardRuleMemory() {
  let rules: ApprovalRule[] = [];
  let set = new RuleSet([]);
  return {
    add(rule: ApprovalRule) {
      rules = [...rules, rule];
      set = new RuleSet(scopedRules(rules, []));
    },
    allows(request: ApprovalRequest): boolean {
      if (request.prepared?.alwaysAsk) return false;
      const tool = {
        schema: { name: request.name, description: '', parameters: {} },
        approval: 'ask' as const,
        external: request.external,
        execute: async () => ({ output: '' }),
      };
      return set.decide(tool, request.prepared?.target)?.decision === 'allow';
    },
  };
}
