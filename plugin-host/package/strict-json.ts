// A small strict JSON parser for manifest.json. JSON.parse keeps the last of duplicate keys silently and gives
// `__proto__` special meaning to later spreads and merges; a manifest from a stranger gets neither: duplicate keys
// and prototype-related keys are refused with their JSON path. Grammar is RFC 8259; strings must be valid Unicode
// (no lone surrogate escapes); nesting is bounded.
import { quoteUntrusted } from '../errors';
import { refuse, refuseAt } from './codes';
import { MANIFEST_LIMITS } from './limits';

export type JsonValue = null | boolean | number | string | JsonValue[] | { [key: string]: JsonValue };

const LONE_SURROGATE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;
const FORBIDDEN_KEYS = new Set(['__proto__', 'constructor', 'prototype']);
const utf8 = new TextDecoder('utf-8', { fatal: true, ignoreBOM: true });

/** Decodes strict UTF-8 (no byte-order mark) and parses strict JSON. */
export function parseStrictJson(source: Uint8Array | string, maxDepth: number = MANIFEST_LIMITS.jsonDepth): JsonValue {
  let text: string;
  if (typeof source === 'string') {
    text = source;
  } else {
    if (source[0] === 0xef && source[1] === 0xbb && source[2] === 0xbf) {
      throw refuse('E_MANIFEST_UTF8', 'manifest.json starts with a UTF-8 byte-order mark.');
    }
    try {
      text = utf8.decode(source);
    } catch {
      throw refuse('E_MANIFEST_UTF8', 'manifest.json is not valid UTF-8.');
    }
  }
  return new Parser(text, maxDepth).parseDocument();
}

/** Joins a JSON path the way messages show it: `tools.0.parameters.properties.path`. */
export function joinPath(base: string, key: string | number): string {
  return base === '' ? String(key) : `${base}.${key}`;
}

class Parser {
  private i = 0;
  constructor(
    private readonly s: string,
    private readonly maxDepth: number,
  ) {}

  parseDocument(): JsonValue {
    this.ws();
    const value = this.value('', 0);
    this.ws();
    if (this.i < this.s.length) this.fail('unexpected text after the JSON value');
    return value;
  }

  private fail(what: string): never {
    const before = this.s.slice(0, this.i);
    const line = before.split('\n').length;
    const column = this.i - before.lastIndexOf('\n');
    throw refuse('E_MANIFEST_JSON', `manifest.json line ${line} column ${column}: ${what}.`, { line, column });
  }

  private ws(): void {
    for (;;) {
      const c = this.s.charCodeAt(this.i);
      if (c === 0x20 || c === 0x09 || c === 0x0a || c === 0x0d) this.i++;
      else return;
    }
  }

  private value(path: string, depth: number): JsonValue {
    const c = this.s[this.i];
    if (c === '{') return this.object(path, depth + 1);
    if (c === '[') return this.array(path, depth + 1);
    if (c === '"') return this.string();
    if (c === '-' || (c !== undefined && c >= '0' && c <= '9')) return this.number();
    if (this.s.startsWith('true', this.i)) return ((this.i += 4), true);
    if (this.s.startsWith('false', this.i)) return ((this.i += 5), false);
    if (this.s.startsWith('null', this.i)) return ((this.i += 4), null);
    return this.fail(c === undefined ? 'unexpected end of input' : `unexpected character ${quoteUntrusted(c)}`);
  }

  private object(path: string, depth: number): JsonValue {
    if (depth > this.maxDepth) this.fail(`nesting deeper than ${this.maxDepth} levels`);
    this.i++;
    const out: { [key: string]: JsonValue } = {};
    const keys = new Set<string>();
    this.ws();
    if (this.s[this.i] === '}') return (this.i++, out);
    for (;;) {
      this.ws();
      if (this.s[this.i] !== '"') this.fail('expected a string key');
      const key = this.string();
      const keyPath = joinPath(path, key);
      if (FORBIDDEN_KEYS.has(key)) {
        throw refuseAt('E_MANIFEST_FORBIDDEN_KEY', keyPath, `the key ${quoteUntrusted(key)} is refused.`);
      }
      if (keys.has(key))
        throw refuseAt('E_MANIFEST_DUPLICATE_KEY', keyPath, `the key ${quoteUntrusted(key)} appears twice.`);
      keys.add(key);
      this.ws();
      if (this.s[this.i] !== ':') this.fail('expected ":"');
      this.i++;
      this.ws();
      out[key] = this.value(keyPath, depth);
      this.ws();
      const c = this.s[this.i++];
      if (c === '}') return out;
      if (c !== ',') {
        this.i--;
        this.fail('expected "," or "}"');
      }
    }
  }

  private array(path: string, depth: number): JsonValue {
    if (depth > this.maxDepth) this.fail(`nesting deeper than ${this.maxDepth} levels`);
    this.i++;
    const out: JsonValue[] = [];
    this.ws();
    if (this.s[this.i] === ']') return (this.i++, out);
    for (;;) {
      this.ws();
      out.push(this.value(joinPath(path, out.length), depth));
      this.ws();
      const c = this.s[this.i++];
      if (c === ']') return out;
      if (c !== ',') {
        this.i--;
        this.fail('expected "," or "]"');
      }
    }
  }

  private string(): string {
    this.i++;
    let out = '';
    let start = this.i;
    for (;;) {
      const code = this.s.charCodeAt(this.i);
      if (Number.isNaN(code)) this.fail('unterminated string');
      if (code === 0x22) {
        out += this.s.slice(start, this.i++);
        break;
      }
      if (code < 0x20) this.fail('control character in a string');
      if (code === 0x5c) {
        out += this.s.slice(start, this.i);
        out += this.escape();
        start = this.i;
        continue;
      }
      this.i++;
    }
    if (LONE_SURROGATE.test(out)) this.fail('a string holds a lone surrogate');
    return out;
  }

  private escape(): string {
    const c = this.s[this.i + 1];
    this.i += 2;
    switch (c) {
      case '"':
        return '"';
      case '\\':
        return '\\';
      case '/':
        return '/';
      case 'b':
        return '\b';
      case 'f':
        return '\f';
      case 'n':
        return '\n';
      case 'r':
        return '\r';
      case 't':
        return '\t';
      case 'u': {
        const hex = this.s.slice(this.i, this.i + 4);
        if (!/^[0-9a-fA-F]{4}$/.test(hex)) this.fail('invalid \\u escape');
        this.i += 4;
        return String.fromCharCode(parseInt(hex, 16));
      }
      default:
        this.i -= 2;
        return this.fail('invalid escape');
    }
  }

  /**
   * RFC 8259 number grammar, scanned by index whatever its length (a regex over a 400-character window cut long
   * numbers short and blamed the next character: 'expected "," or "}"').
   */
  private number(): number {
    const s = this.s;
    const start = this.i;
    const digits = () => {
      const from = this.i;
      while (this.i < s.length && s.charCodeAt(this.i) >= 0x30 && s.charCodeAt(this.i) <= 0x39) this.i++;
      return this.i - from;
    };
    if (s[this.i] === '-') this.i++;
    if (s[this.i] === '0') {
      this.i++;
      if (s.charCodeAt(this.i) >= 0x30 && s.charCodeAt(this.i) <= 0x39)
        this.fail('a number may not start with 0 followed by digits');
    } else if (digits() === 0) this.fail('a number needs a digit here');
    if (s[this.i] === '.') {
      this.i++;
      if (digits() === 0) this.fail('a number needs digits after "."');
    }
    if (s[this.i] === 'e' || s[this.i] === 'E') {
      this.i++;
      if (s[this.i] === '+' || s[this.i] === '-') this.i++;
      if (digits() === 0) this.fail('a number needs digits in its exponent');
    }
    const n = Number(s.slice(start, this.i));
    if (!Number.isFinite(n)) {
      const length = this.i - start;
      this.i = start;
      this.fail(`a number (${length} characters long) is out of range: JSON numbers here must be within ±1.8e308`);
    }
    return n;
  }
}
