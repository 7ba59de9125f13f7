// A small regular-expression engine that runs in time linear in the line length (a Thompson NFA simulated as a
// Pike VM), for `search`. JavaScript's own RegExp backtracks and cannot be interrupted: measured here,
// `\w+\s*\w+\s*=` on one 4000-character line took 20 s and `.*a.*b.*c.*d` on 500 characters over two minutes. User
// patterns therefore never reach RegExp. Cost per line is O(line length × program size); the program is capped.
//
// Syntax (JavaScript flavour, no `u` flag): literals, `.`, `[...]` / `[^...]` with ranges, `\d \D \w \W \s \S`,
// `\b \B`, `^ $`, escapes `\t \n \r \f \v \0 \xHH \uHHHH` and escaped punctuation, groups `( )`, `(?: )`,
// `(?<name> )`, alternation `|`, quantifiers `* + ? {n} {n,} {n,m}` (lazy forms accepted; laziness does not change
// where the leftmost match starts). Not supported (E_SEARCH_REGEX_UNSUPPORTED): backreferences, lookahead and
// lookbehind. Case-insensitive matching folds each character with toLowerCase/toUpperCase.
import { HarnessError } from '../errors';

export const REGEX_MAX_PROGRAM = 4000;
export const REGEX_MAX_REPEAT = 100;

type Test = (c: number) => boolean;
type Node =
  | { t: 'char'; test: Test; lit?: number }
  | { t: 'seq'; items: Node[] }
  | { t: 'alt'; items: Node[] }
  | { t: 'rep'; node: Node; min: number; max: number }
  | { t: 'assert'; kind: '^' | '$' | 'b' | 'B' };

type Ins =
  | { op: 'char'; test: Test }
  | { op: 'split'; x: number; y: number }
  | { op: 'jmp'; to: number }
  | { op: 'assert'; kind: '^' | '$' | 'b' | 'B' }
  | { op: 'match' };

const invalid = (why: string) =>
  new HarnessError(
    'E_SEARCH_REGEX_INVALID',
    `The regular expression is not valid: ${why}. Fix it, or set regex to false for a literal search.`,
  );
const unsupported = (what: string) =>
  new HarnessError(
    'E_SEARCH_REGEX_UNSUPPORTED',
    `The regular expression uses ${what}, which search does not support (it guarantees linear-time matching). Rewrite the pattern without it.`,
  );

const isDigit: Test = (c) => c >= 48 && c <= 57;
const isWord: Test = (c) => (c >= 48 && c <= 57) || (c >= 65 && c <= 90) || (c >= 97 && c <= 122) || c === 95;
const isSpace: Test = (c) =>
  c === 32 ||
  (c >= 9 && c <= 13) ||
  c === 0xa0 ||
  c === 0x1680 ||
  (c >= 0x2000 && c <= 0x200a) ||
  c === 0x2028 ||
  c === 0x2029 ||
  c === 0x202f ||
  c === 0x205f ||
  c === 0x3000 ||
  c === 0xfeff;
const not =
  (t: Test): Test =>
  (c) =>
    !t(c);

/** toLowerCase / toUpperCase of each ASCII code unit (always ASCII again), for folding without building strings. */
const ASCII_LOWER = Uint8Array.from({ length: 128 }, (_, c) => String.fromCharCode(c).toLowerCase().charCodeAt(0));
const ASCII_UPPER = Uint8Array.from({ length: 128 }, (_, c) => String.fromCharCode(c).toUpperCase().charCodeAt(0));

const literal = (code: number): Node => ({ t: 'char', test: (x) => x === code, lit: code });

class Parser {
  private i = 0;
  constructor(private readonly src: string) {}

  parse(): Node {
    const node = this.alt();
    if (this.i < this.src.length) throw invalid(`unmatched ")" at position ${this.i}`);
    return node;
  }

  private peek(): string | undefined {
    return this.src[this.i];
  }

  private alt(): Node {
    const items = [this.seq()];
    while (this.peek() === '|') {
      this.i++;
      items.push(this.seq());
    }
    return items.length === 1 ? items[0]! : { t: 'alt', items };
  }

  private seq(): Node {
    const items: Node[] = [];
    while (this.i < this.src.length && this.peek() !== '|' && this.peek() !== ')') items.push(this.quantified());
    return { t: 'seq', items };
  }

  private quantified(): Node {
    const atom = this.atom();
    for (;;) {
      const c = this.peek();
      let min: number;
      let max: number;
      if (c === '*') [min, max] = [0, Infinity];
      else if (c === '+') [min, max] = [1, Infinity];
      else if (c === '?') [min, max] = [0, 1];
      else if (c === '{') {
        const m = /^\{(\d+)(,(\d*))?\}/.exec(this.src.slice(this.i));
        if (!m) return atom; // a literal "{", as JavaScript reads it without the u flag
        min = Number(m[1]);
        max = m[2] === undefined ? min : m[3] === '' ? Infinity : Number(m[3]);
        if (max < min) throw invalid(`the repeat {${m[1]},${m[3]}} is out of order`);
        if (min > REGEX_MAX_REPEAT || (max !== Infinity && max > REGEX_MAX_REPEAT))
          throw invalid(`repeat counts above ${REGEX_MAX_REPEAT} are not supported`);
        this.i += m[0].length - 1;
      } else return atom;
      this.i++;
      if (atom.t === 'assert') throw invalid('an anchor cannot be repeated');
      if (this.peek() === '?') this.i++; // lazy: same leftmost start
      if (this.peek() === '*' || this.peek() === '+') throw invalid('nothing to repeat');
      return { t: 'rep', node: atom, min, max };
    }
  }

  private atom(): Node {
    const c = this.src[this.i++]!;
    switch (c) {
      case '.':
        return { t: 'char', test: (x) => x !== 10 && x !== 13 && x !== 0x2028 && x !== 0x2029 };
      case '^':
        return { t: 'assert', kind: '^' };
      case '$':
        return { t: 'assert', kind: '$' };
      case '[':
        return { t: 'char', test: this.charClass() };
      case '(': {
        if (this.src.startsWith('?:', this.i)) this.i += 2;
        else if (this.src.startsWith('?=', this.i) || this.src.startsWith('?!', this.i))
          throw unsupported('lookahead ((?=…), (?!…))');
        else if (this.src.startsWith('?<=', this.i) || this.src.startsWith('?<!', this.i))
          throw unsupported('lookbehind ((?<=…), (?<!…))');
        else if (this.src.startsWith('?<', this.i)) {
          const end = this.src.indexOf('>', this.i);
          if (end < 0) throw invalid('a group name is not closed with ">"');
          this.i = end + 1;
        } else if (this.peek() === '?') throw invalid('unknown group type "(?"');
        const inner = this.alt();
        if (this.peek() !== ')') throw invalid('a "(" is never closed');
        this.i++;
        return inner;
      }
      case ')':
        throw invalid('unmatched ")"');
      case '*':
      case '+':
      case '?':
        throw invalid(`nothing to repeat before "${c}"`);
      case '\\':
        return this.escape(false);
      default:
        return literal(c.charCodeAt(0));
    }
  }

  /** After a backslash. Inside a class, `\b` is backspace and assertions are not allowed. */
  private escape(inClass: boolean): Node {
    const c = this.src[this.i++];
    if (c === undefined) throw invalid('it ends with a lone "\\"');
    const lit = literal;
    switch (c) {
      case 'd':
        return { t: 'char', test: isDigit };
      case 'D':
        return { t: 'char', test: not(isDigit) };
      case 'w':
        return { t: 'char', test: isWord };
      case 'W':
        return { t: 'char', test: not(isWord) };
      case 's':
        return { t: 'char', test: isSpace };
      case 'S':
        return { t: 'char', test: not(isSpace) };
      case 'b':
        return inClass ? lit(8) : { t: 'assert', kind: 'b' };
      case 'B':
        if (inClass) throw invalid('\\B inside a character class');
        return { t: 'assert', kind: 'B' };
      case 't':
        return lit(9);
      case 'n':
        return lit(10);
      case 'r':
        return lit(13);
      case 'f':
        return lit(12);
      case 'v':
        return lit(11);
      case '0':
        return lit(0);
      case 'x':
      case 'u': {
        const len = c === 'x' ? 2 : 4;
        const hex = this.src.slice(this.i, this.i + len);
        if (!new RegExp(`^[0-9a-fA-F]{${len}}$`).test(hex)) return lit(c.charCodeAt(0));
        this.i += len;
        return lit(parseInt(hex, 16));
      }
      case 'k':
        throw unsupported('named backreferences (\\k<name>)');
      default:
        if (/[1-9]/.test(c)) throw unsupported('backreferences (\\1 … \\9)');
        return lit(c.charCodeAt(0));
    }
  }

  private charClass(): Test {
    const negate = this.peek() === '^';
    if (negate) this.i++;
    const tests: Test[] = [];
    let first = true;
    for (;;) {
      const c = this.src[this.i];
      if (c === undefined) throw invalid('a "[" is never closed');
      if (c === ']' && !first) {
        this.i++;
        break;
      }
      first = false;
      const lo = this.classAtom();
      if (this.peek() === '-' && this.src[this.i + 1] !== ']' && this.src[this.i + 1] !== undefined) {
        this.i++;
        const hi = this.classAtom();
        if (typeof lo !== 'number' || typeof hi !== 'number')
          throw invalid('a range in [...] uses a class like \\d as an end');
        if (hi < lo) throw invalid('a range in [...] is out of order');
        tests.push((x) => x >= lo && x <= hi);
      } else tests.push(typeof lo === 'number' ? (x) => x === lo : lo);
    }
    const any: Test = (x) => tests.some((t) => t(x));
    return negate ? not(any) : any;
  }

  /** One class member: a code unit, or a predicate for \d-like escapes. */
  private classAtom(): number | Test {
    const c = this.src[this.i++]!;
    if (c !== '\\') return c.charCodeAt(0);
    const node = this.escape(true);
    if (node.t !== 'char') throw invalid('an assertion inside [...]');
    return node.lit ?? node.test;
  }
}

function compile(node: Node, out: Ins[]): void {
  if (out.length > REGEX_MAX_PROGRAM)
    throw invalid(`it is too large once repeats are expanded (more than ${REGEX_MAX_PROGRAM} steps)`);
  switch (node.t) {
    case 'char':
      out.push({ op: 'char', test: node.test });
      return;
    case 'assert':
      out.push({ op: 'assert', kind: node.kind });
      return;
    case 'seq':
      for (const item of node.items) compile(item, out);
      return;
    case 'alt': {
      const jumps: Array<{ op: 'jmp'; to: number }> = [];
      node.items.forEach((item, k) => {
        if (k < node.items.length - 1) {
          const split: Ins = { op: 'split', x: out.length + 1, y: -1 };
          out.push(split);
          compile(item, out);
          const jmp = { op: 'jmp' as const, to: -1 };
          out.push(jmp);
          jumps.push(jmp);
          split.y = out.length;
        } else compile(item, out);
      });
      for (const j of jumps) j.to = out.length;
      return;
    }
    case 'rep': {
      for (let k = 0; k < node.min; k++) compile(node.node, out);
      if (node.max === Infinity) {
        const loop = out.length;
        const split: Ins = { op: 'split', x: loop + 1, y: -1 };
        out.push(split);
        compile(node.node, out);
        out.push({ op: 'jmp', to: loop });
        split.y = out.length;
      } else {
        const splits: Array<{ op: 'split'; x: number; y: number }> = [];
        for (let k = node.min; k < node.max; k++) {
          const split = { op: 'split' as const, x: out.length + 1, y: -1 };
          out.push(split);
          splits.push(split);
          compile(node.node, out);
        }
        for (const s of splits) s.y = out.length;
      }
      return;
    }
  }
}

export interface LinearRegex {
  /** Index where the leftmost match starts, or -1. */
  search(line: string): number;
  /** False when `text` (a whole file) cannot contain a match: it lacks a literal every match needs. */
  mayMatch(text: string): boolean;
  /**
   * The literals every match contains, longest first (lower-cased when ignoring case; then look for them in
   * `text.toLowerCase()`). Empty when the pattern has none. A line without all of them never matches.
   */
  readonly literals: readonly string[];
}

/** The literal characters every match starts with (top-level sequence only): matches can only start where they occur. */
function literalPrefix(ast: Node): string {
  const items = ast.t === 'seq' ? ast.items : [ast];
  let out = '';
  for (const item of items) {
    if (item.t !== 'char' || item.lit === undefined) break;
    out += String.fromCharCode(item.lit);
  }
  return out;
}

/**
 * The runs of literal characters every match must contain (top-level sequence only), longest first: a line (or a
 * file) lacking any of them cannot match, which decides most lines without running the VM. ripgrep does the same
 * with its "required literals"; `handler\d+_99\b` needs both `handler` and `_99`.
 */
function requiredLiterals(ast: Node): string[] {
  const items = ast.t === 'seq' ? ast.items : [ast];
  const runs = new Set<string>();
  let run = '';
  for (const item of items) {
    if (item.t === 'char' && item.lit !== undefined) run += String.fromCharCode(item.lit);
    else {
      if (run) runs.add(run);
      run = '';
    }
  }
  if (run) runs.add(run);
  return [...runs].sort((a, b) => b.length - a.length);
}

export function compileLinearRegex(pattern: string, options: { ignoreCase?: boolean } = {}): LinearRegex {
  const ast = new Parser(pattern).parse();
  const fold = options.ignoreCase === true;
  const literals = requiredLiterals(ast).map((l) => (fold ? l.toLowerCase() : l));
  const hasAll = (hay: string) => literals.every((l) => hay.includes(l));
  const prefix = fold ? literalPrefix(ast).toLowerCase() : literalPrefix(ast);
  const prog: Ins[] = [];
  compile(ast, prog);
  prog.push({ op: 'match' });
  if (prog.length > REGEX_MAX_PROGRAM)
    throw invalid(`it is too large once repeats are expanded (more than ${REGEX_MAX_PROGRAM} steps)`);
  const size = prog.length;
  // The program as flat arrays, and each character step's answer for an ASCII code unit remembered the first time it
  // is asked (0 unknown, 1 no, 2 yes; case folding applied): the per-character loop then reads typed arrays instead
  // of calling a predicate per thread, and compiling costs nothing per step (a schema pattern is compiled per call).
  const OP_CHAR = 0,
    OP_SPLIT = 1,
    OP_JMP = 2,
    OP_ASSERT = 3,
    OP_MATCH = 4;
  const ops = new Uint8Array(size);
  const xs = new Int32Array(size);
  const ys = new Int32Array(size);
  const tests: Array<Test | undefined> = new Array(size);
  const ascii = new Uint8Array(size * 128);
  prog.forEach((ins, pc) => {
    switch (ins.op) {
      case 'char':
        ops[pc] = OP_CHAR;
        tests[pc] = ins.test;
        break;
      case 'split':
        ops[pc] = OP_SPLIT;
        xs[pc] = ins.x;
        ys[pc] = ins.y;
        break;
      case 'jmp':
        ops[pc] = OP_JMP;
        xs[pc] = ins.to;
        break;
      case 'assert':
        ops[pc] = OP_ASSERT;
        xs[pc] = ['^', '$', 'b', 'B'].indexOf(ins.kind);
        break;
      case 'match':
        ops[pc] = OP_MATCH;
    }
  });
  const mark = new Uint32Array(size);
  let generation = 0;
  // Thread lists as (pc, start) pairs: each pc is added at most once per step, so `size` pairs suffice; the
  // closure stack gets at most two pushes per pc marked, plus the first.
  let clist = new Int32Array(size * 2);
  let nlist = new Int32Array(size * 2);
  let clen = 0;
  let nlen = 0;
  const stack = new Int32Array(size * 2 + 2);
  // The line being searched, for assertions.
  let subject = '';
  let best = -1;
  const wordAt = (i: number) => i >= 0 && i < subject.length && isWord(subject.charCodeAt(i));

  /** Follows jumps, splits and assertions from pc0 at `pos`, appending the character steps reached to nlist. */
  const add = (pc0: number, start: number, pos: number) => {
    let top = 0;
    stack[top++] = pc0;
    while (top > 0) {
      const pc = stack[--top]!;
      if (mark[pc] === generation) continue;
      mark[pc] = generation;
      switch (ops[pc]) {
        case OP_JMP:
          stack[top++] = xs[pc]!;
          break;
        case OP_SPLIT:
          stack[top++] = ys[pc]!; // x on top: keeps priority order
          stack[top++] = xs[pc]!;
          break;
        case OP_ASSERT: {
          const kind = xs[pc];
          const ok =
            kind === 0
              ? pos === 0
              : kind === 1
                ? pos === subject.length
                : kind === 2
                  ? wordAt(pos - 1) !== wordAt(pos)
                  : wordAt(pos - 1) === wordAt(pos);
          if (ok) stack[top++] = pc + 1;
          break;
        }
        case OP_MATCH:
          if (best < 0 || start < best) best = start;
          break;
        default:
          nlist[nlen++] = pc;
          nlist[nlen++] = start;
      }
    }
  };
  const swap = () => {
    const t = clist;
    clist = nlist;
    nlist = t;
    clen = nlen;
    nlen = 0;
  };

  return {
    literals,
    mayMatch(text: string): boolean {
      return literals.length === 0 || hasAll(fold ? text.toLowerCase() : text);
    },
    search(line: string): number {
      const hay = fold && (literals.length > 0 || prefix) ? line.toLowerCase() : line;
      if (!hasAll(hay)) return -1;
      const n = line.length;
      subject = line;
      best = -1;
      clen = 0;
      nlen = 0;
      // With a literal prefix, a match can start only where the prefix occurs: start threads only there, and jump
      // straight to the next occurrence whenever no thread is alive.
      let i = 0;
      if (prefix) {
        i = hay.indexOf(prefix);
        if (i < 0) return -1;
      }
      generation++;
      add(0, i, i);
      swap();
      for (; i < n; i++) {
        if (best >= 0) {
          // Only threads that started before the best match can still improve it.
          let alive = false;
          for (let k = 1; k < clen; k += 2) if (clist[k]! < best) alive = true;
          if (!alive) return best;
        }
        generation++;
        const c = line.charCodeAt(i);
        let lower = c;
        let upper = c;
        if (fold && c >= 128) {
          const ch = line[i]!;
          lower = ch.toLowerCase().charCodeAt(0);
          upper = ch.toUpperCase().charCodeAt(0);
        }
        for (let k = 0; k < clen; k += 2) {
          const pc = clist[k]!;
          let ok: boolean;
          if (c < 128) {
            const known = ascii[pc * 128 + c];
            if (known === 0) {
              const test = tests[pc]!;
              ok = test(c) || (fold && (test(ASCII_LOWER[c]!) || test(ASCII_UPPER[c]!)));
              ascii[pc * 128 + c] = ok ? 2 : 1;
            } else ok = known === 2;
          } else ok = tests[pc]!(c) || (fold && (tests[pc]!(lower) || tests[pc]!(upper)));
          if (ok) add(pc + 1, clist[k + 1]!, i + 1);
        }
        if (best < 0) {
          if (prefix && nlen === 0) {
            const j = hay.indexOf(prefix, i + 1);
            if (j < 0) return -1;
            generation++;
            add(0, j, j);
            swap();
            i = j - 1;
            continue;
          }
          if (!prefix || hay.startsWith(prefix, i + 1)) add(0, i + 1, i + 1);
        }
        swap();
        if (clen === 0 && best >= 0) return best;
      }
      return best;
    },
  };
}
