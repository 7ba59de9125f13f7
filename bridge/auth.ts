// Tokens and pairing. The local token (written to bridge.json for local tools) and every token handed out by
// pairing are compared in constant time (timingSafeEqual against every issued token), so a wrong guess takes
// the same time whatever its prefix. All tokens have the same length, so the length check leaks nothing. The
// pairing code is printed once at start: single use, expiring, and a handful of wrong guesses disables it until
// restart.
import { createHash, randomBytes, randomInt, timingSafeEqual } from 'node:crypto';
import { BridgeError } from './errors';
import { PAIRING_MAX_ATTEMPTS, PAIRING_TTL_MS } from './limits';

const digest = (value: string) => createHash('sha256').update(value, 'utf8').digest('hex');
export const newToken = () => randomBytes(32).toString('base64url');
/** 32 random bytes in base64url, without padding. */
const TOKEN_LENGTH = 43;
const BEARER = 'Bearer ';
const TOKEN_CHARS = /^[A-Za-z0-9_-]+$/;

export class TokenStore {
  private readonly tokens: Buffer[] = [];

  issue(): string {
    const token = newToken();
    this.tokens.push(Buffer.from(token, 'latin1'));
    return token;
  }

  /** Checks an `Authorization: Bearer <token>` header value. */
  check(header: string | undefined): boolean {
    if (header?.length !== BEARER.length + TOKEN_LENGTH || !header.startsWith(BEARER)) return false;
    const token = header.slice(BEARER.length);
    if (!TOKEN_CHARS.test(token)) return false;
    const given = Buffer.from(token, 'latin1');
    let match = false;
    for (const issued of this.tokens) match = timingSafeEqual(issued, given) || match;
    return match;
  }
}

// No 0/O/1/I/L: a code is read off a terminal and typed by a person.
const ALPHABET = 'ABCDEFGHJKMNPQRSTUVWXYZ23456789';

export class Pairing {
  readonly code: string;
  private readonly expiresAt: number;
  private attempts = 0;
  private used = false;

  constructor(
    private readonly tokens: TokenStore,
    ttlMs = PAIRING_TTL_MS,
    private readonly maxAttempts = PAIRING_MAX_ATTEMPTS,
    private readonly now: () => number = Date.now,
  ) {
    this.code = Array.from({ length: 8 }, () => ALPHABET[randomInt(ALPHABET.length)]).join('');
    this.expiresAt = now() + ttlMs;
  }

  /** Exchanges the code for a fresh token, once. */
  pair(code: unknown): string {
    if (this.used)
      throw new BridgeError('E_PAIRING_USED', 'This pairing code was already used. Restart i-bridge for a new code.');
    if (this.now() > this.expiresAt)
      throw new BridgeError('E_PAIRING_EXPIRED', 'The pairing code has expired. Restart i-bridge for a new code.');
    if (this.attempts >= this.maxAttempts)
      throw new BridgeError('E_PAIRING_LOCKED', 'Too many wrong pairing codes. Restart i-bridge for a new code.');
    this.attempts++;
    const given = typeof code === 'string' ? code.trim().toUpperCase().replace(/[\s-]/g, '') : '';
    const a = Buffer.from(digest(given));
    const b = Buffer.from(digest(this.code));
    if (!timingSafeEqual(a, b)) {
      throw new BridgeError(
        'E_PAIRING_WRONG',
        `Wrong pairing code (${this.maxAttempts - this.attempts} attempts left). Copy the code i-bridge printed.`,
      );
    }
    this.used = true;
    return this.tokens.issue();
  }
}
