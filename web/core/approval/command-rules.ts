// Approval rules with a command prefix (issue 31): `{"decision": "allow", "tool": "shell", "command": "npm test"}`.
// Commands are parsed with shell-quote, a tokenizer that is close to bash but not bash, so each reading leans to the
// safe side where the two can disagree:
// - An ALLOW matches only a command that is, beyond doubt, ONE simple command of literal words whose first words are
//   the prefix's words. Anything a shell would expand or connect asks instead: operators (`;`, `&&`, `||`, `|`, `&`),
//   redirections, `$` in any form (variables, `$(…)`, `$'…'`), backticks, globs (`*`, `?`, `[`), comments, and any
//   line break, control, format or non-ASCII space character (shell-quote reads a newline as a space, bash as `;`;
//   it reads U+00A0 as a space, bash as part of a word). Brace expansion and `~` are left alone: they only make more
//   argument words of the same program, which a prefix rule allows anyway.
// - A DENY (or ASK) matches when ANY simple command in the line starts with the prefix: after `;`/`&&`/`|`…, inside
//   `$(…)`, backticks and `<(…)` (even quoted: over-matching is the safe side), in a comment shell-quote saw where
//   bash sees none (`a#b`), behind assignments, keywords (`if`, `then`, `!`, `{`…) and wrapper programs (`sudo`,
//   `env`, `xargs`, `timeout`, `find -exec`…: any later word may be the program), and inside `sh -c '…'` / `eval`.
//   The program word is compared by its base name too (`/bin/rm` is `rm`). When the program cannot be seen (a
//   variable or a glob in its place, or a line shell-quote cannot parse) the deny cannot decide: the call asks.
// A deny rule is a tripwire, not a boundary: a script file, an alias or a program that runs others (`make`, `npm
// run`) is not looked into. The sandbox is the boundary (web/core/shell/CONTEXT.md).
import { parse, type ParseEntry } from 'shell-quote';

/** The built-in tool that runs commands; command rules apply to it only (it is reserved: no plugin may take it). */
export const SHELL_TOOL = 'shell';

/** Rule `command` prefixes: at most this many characters and words. */
export const COMMAND_PREFIX_MAX_CHARS = 1000;
export const COMMAND_PREFIX_MAX_WORDS = 64;
/** Nested `sh -c` / `eval` / substitutions a deny rule looks into. */
const MAX_DEPTH = 4;
/** Commands longer than this are not parsed for rules (an allow does not match; a deny cannot decide: ask). */
export const COMMAND_MATCH_MAX_CHARS = 64 * 1024;

/** What a deny or ask rule makes of a command: it matches, it does not, or the command hides its program. */
export type CommandMatch = 'match' | 'no' | 'unsure';

// A variable's value is unknown: shell-quote asks us for it, we answer with a marker no literal command contains
// (control characters are refused before parsing for an allow, and a deny treats any marked word as unknown).
const DYNAMIC = '\u0001';
const env = (key: string) => `${DYNAMIC}${key}${DYNAMIC}`;

// C0 controls but tab, DEL, C1 controls, every Unicode space but the plain one, line/paragraph separators, and format
// characters (zero-width, bidi controls): none belongs in a command a rule may allow unasked.
const UNSAFE_FOR_ALLOW =
  // eslint-disable-next-line no-control-regex -- finding control characters is the point
  /[\u0000-\u0008\u000a-\u001f\u007f-\u009f\u00a0\u1680\u2000-\u200f\u2028-\u202f\u205f\u3000\ufeff]|\p{Cf}/u;
// Characters that make bash do something with a word beyond taking it literally.
const EXPANDING = /[`$*?[\]]/;

/**
 * The words of `command` when it is exactly one simple command of literal words, else null. Used for an allow
 * rule's prefix (at load) and for the command an allow rule is asked to match.
 */
export function literalWords(command: string): string[] | null {
  if (command.length > COMMAND_MATCH_MAX_CHARS || UNSAFE_FOR_ALLOW.test(command) || EXPANDING.test(command))
    return null;
  let tokens: ParseEntry[];
  try {
    tokens = parse(command, env);
  } catch {
    return null;
  }
  const words: string[] = [];
  for (const token of tokens) {
    if (typeof token !== 'string' || token.includes(DYNAMIC)) return null;
    words.push(token);
  }
  return words.length > 0 ? words : null;
}

/** Problems of a rule's `command` (a literal simple command: words only), `at` its path. */
export function checkCommandPrefix(value: unknown, at: string): string[] {
  if (typeof value !== 'string' || value.trim() === '')
    return [`${at}: expected the words a command starts with, e.g. "npm test"`];
  if (value.length > COMMAND_PREFIX_MAX_CHARS) return [`${at}: at most ${COMMAND_PREFIX_MAX_CHARS} characters`];
  const words = literalWords(value);
  if (!words)
    return [
      `${at}: must be plain words of one command (no ;, &&, |, redirections, $, backticks, globs, comments or line breaks), e.g. "npm test"`,
    ];
  if (words.length > COMMAND_PREFIX_MAX_WORDS) return [`${at}: at most ${COMMAND_PREFIX_MAX_WORDS} words`];
  return [];
}

/** An allow rule: `command` is one literal simple command whose first words are `prefix`. */
export function allowsCommand(command: string, prefix: readonly string[]): boolean {
  const words = literalWords(command);
  return words !== null && startsWith(words, 0, prefix);
}

function startsWith(words: readonly string[], at: number, prefix: readonly string[]): boolean {
  if (words.length - at < prefix.length) return false;
  return prefix.every((p, i) => words[at + i] === p);
}

/** A deny or ask rule: does any simple command in `command` start with `prefix`? */
export function commandMatches(command: string, prefix: readonly string[]): CommandMatch {
  if (command.length > COMMAND_MATCH_MAX_CHARS) return 'unsure';
  return matchLine(command, prefix, 0);
}

const SHELLS = new Set(['sh', 'bash', 'dash', 'zsh', 'ksh', 'mksh', 'ash', 'busybox']);
const KEYWORDS = new Set([
  '!',
  '{',
  '}',
  'if',
  'then',
  'else',
  'elif',
  'fi',
  'do',
  'done',
  'while',
  'until',
  'for',
  'in',
  'case',
  'esac',
  'select',
  'function',
  'time',
  'coproc',
]);
// Programs that run the program named by a later word; once one is seen, any later word may be the program.
const WRAPPERS = new Set([
  'sudo',
  'doas',
  'env',
  'command',
  'builtin',
  'exec',
  'nohup',
  'nice',
  'ionice',
  'timeout',
  'stdbuf',
  'setsid',
  'xargs',
  'parallel',
  'watch',
  'find',
  'unbuffer',
  'chronic',
  'strace',
  'ltrace',
  'taskset',
  'chroot',
  'flock',
  'script',
  'runuser',
  'su',
]);
const REDIRECTS = new Set(['>', '>>', '<', '>&', '<&', '&>', '&>>', '>|', '<<', '<<<', '<>']);
const ASSIGNMENT = /^[A-Za-z_][A-Za-z0-9_]*\+?=/;

const baseName = (word: string) => word.slice(word.lastIndexOf('/') + 1);

function worse(a: CommandMatch, b: CommandMatch): CommandMatch {
  if (a === 'match' || b === 'match') return 'match';
  return a === 'unsure' || b === 'unsure' ? 'unsure' : 'no';
}

function matchLine(text: string, prefix: readonly string[], depth: number): CommandMatch {
  if (depth > MAX_DEPTH) return 'unsure';
  // bash ends a command at a line break, shell-quote reads it as a space: read each line alone (a quoted line
  // break then splits a word in two, which can only over-match).
  const lines = text.split(/[\n\r\u2028\u2029]/);
  if (lines.length > 1)
    return lines.reduce<CommandMatch>((r, l) => (r === 'match' ? r : worse(r, matchLine(l, prefix, depth))), 'no');
  const line = text;
  let result: CommandMatch = 'no';
  // Substitutions anywhere in the text, quoted or not (over-matching a quoted one is the safe side).
  for (const inner of substitutions(line)) {
    result = worse(result, matchLine(inner, prefix, depth + 1));
    if (result === 'match') return result;
  }
  let tokens: ParseEntry[];
  try {
    tokens = parse(line, env);
  } catch {
    return worse(result, 'unsure');
  }
  let words: string[] = [];
  let skipTarget = false;
  const flush = () => {
    if (words.length > 0) result = worse(result, matchSimple(words, prefix, depth));
    words = [];
  };
  for (const token of tokens) {
    if (typeof token === 'string') {
      if (skipTarget) skipTarget = false;
      else words.push(token);
      continue;
    }
    if ('comment' in token) {
      // shell-quote starts a comment at `#` inside a word too (`a#b`), where bash does not: read it as more commands.
      flush();
      result = worse(result, matchLine(token.comment, prefix, depth + 1));
      continue;
    }
    if (token.op === 'glob') {
      words.push(`${DYNAMIC}glob${DYNAMIC}`);
      continue;
    }
    if (REDIRECTS.has(token.op)) {
      // `2>f`: the fd digit is read as a word before the operator; the word after it is a file, not an argument.
      if (words.length > 0 && /^[0-9]+$/.test(words[words.length - 1]!)) words.pop();
      skipTarget = true;
      continue;
    }
    flush(); // ; & && || | |& ( ) <( >( ;; and the like end a simple command
  }
  flush();
  return result;
}

function matchSimple(words: readonly string[], prefix: readonly string[], depth: number): CommandMatch {
  let result: CommandMatch = 'no';
  let wrapped = false;
  let first = true;
  for (let i = 0; i < words.length; i++) {
    const word = words[i]!;
    // Before the program: assignments and keywords are skipped; after a wrapper, every word may be the program.
    if (first && (ASSIGNMENT.test(word) || KEYWORDS.has(word))) continue;
    if (!first && !wrapped) break;
    first = false;
    if (word.includes(DYNAMIC)) {
      result = worse(result, 'unsure');
      continue;
    }
    const name = baseName(word);
    if (name === baseName(prefix[0]!) && startsWith(words, i + 1, prefix.slice(1))) return 'match';
    if (SHELLS.has(name)) {
      const script = shellScript(words.slice(i + 1));
      if (script !== null) result = worse(result, matchLine(script, prefix, depth + 1));
    } else if (name === 'eval') {
      result = worse(result, matchLine(words.slice(i + 1).join(' '), prefix, depth + 1));
    }
    if (WRAPPERS.has(name) || name === 'eval' || SHELLS.has(name)) wrapped = true;
  }
  return result;
}

/** The script of `sh -c SCRIPT` (an option cluster holding `c` counts: `-lc`, `-ec`), or null. */
function shellScript(args: readonly string[]): string | null {
  for (let i = 0; i < args.length; i++) {
    const a = args[i]!;
    if (!a.startsWith('-')) return null;
    if (/^-[a-zA-Z]*c[a-zA-Z]*$/.test(a)) return args[i + 1] ?? null;
  }
  return null;
}

/** The text inside each `$(…)`, `<(…)`, `>(…)` and backtick pair of `line`, outermost first. */
function substitutions(line: string): string[] {
  const out: string[] = [];
  for (let i = 0; i < line.length; i++) {
    const c = line[i]!;
    if ((c === '$' || c === '<' || c === '>') && line[i + 1] === '(') {
      let depth = 0;
      let j = i + 1;
      for (; j < line.length; j++) {
        if (line[j] === '(') depth++;
        else if (line[j] === ')' && --depth === 0) break;
      }
      out.push(line.slice(i + 2, j)); // an unclosed one runs to the end
      i = j;
    } else if (c === '`') {
      const end = line.indexOf('`', i + 1);
      out.push(line.slice(i + 1, end < 0 ? undefined : end));
      if (end < 0) break;
      i = end;
    }
  }
  return out;
}

/** The command of a call when it is a call of the built-in shell tool (rules judge it), else undefined. */
export function shellCommandOf(
  tool: { external: boolean; schema: { name: string } },
  args: Record<string, unknown>,
): string | undefined {
  return !tool.external && tool.schema.name === SHELL_TOOL && typeof args.command === 'string'
    ? args.command
    : undefined;
}

/**
 * Why mode `auto` still asks about a shell call, or undefined when it may run unasked: auto runs a command inside
 * the sandbox without network; one outside the sandbox (`--sandbox off`) or asking for the network asks.
 */
export function shellAutoAsks(
  tool: { external: boolean; schema: { name: string } },
  args: Record<string, unknown>,
  sandbox: boolean | undefined,
): string | undefined {
  if (shellCommandOf(tool, args) === undefined) return undefined;
  if (sandbox !== true) return 'commands run outside the sandbox (--sandbox off)';
  if (args.network === true) return 'the command asks for network access';
  return undefined;
}
