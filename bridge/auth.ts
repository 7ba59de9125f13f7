// Tokens and pairing. The local token (written to bridge.json for local tools) and every token handed out by
// pairing are kept only as SHA-256 digests, so lookups do not compare secrets byte by byte. The pairing code is
// printed once at start: single use, expiring, and a handful of wrong guesses disables it until restart.
import { createHash, randomBytes, randomInt, timingSafeEqual } from 'node:crypto';
import { BridgeError } from './errors';
import { PAIRING_MAX_ATTEMPTS, PAIRING_TTL_MS } from './limits';

const digest = (value: string) => createHash('sha256').update(value, 'utf8').digest('hex');
export const newToken = () => randomBytes(32).toString('base64url');

export class TokenStore {
  private readonly digests = new Set<string>();

  issue(): string {
    const token = newToken();
    this.digests.add(digest(token));
    return token;
  }

  /** Checks an `Authorization: Bearer <token>` header value. */
  check(header: string | undefined): boolean {
    if (!header) return false;
    const match = /^Bearer ([A-Za-z0-9_-]{20,200})$/.exec(header);
    return match !== null && this.digests.has(digest(match[1]!));
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
    if (this.used) throw new BridgeError('E_PAIRING_USED', 'This pairing code was already used. Restart i-bridge for a new code.');
    if (this.now() > this.expiresAt) throw new BridgeError('E_PAIRING_EXPIRED', 'The pairing code has expired. Restart i-bridge for a new code.');
    if (this.attempts >= this.maxAttempts) throw new BridgeError('E_PAIRING_LOCKED', 'Too many wrong pairing codes. Restart i-bridge for a new code.');
    this.attempts++;
    const given = typeof code === 'string' ? code.trim().toUpperCase().replace(/[\s-]/g, '') : '';
    const a = Buffer.from(digest(given));
    const b = Buffer.from(digest(this.code));
    if (!timingSafeEqual(a, b)) {
      throw new BridgeError('E_PAIRING_WRONG', `Wrong pairing code (${this.maxAttempts - this.attempts} attempts left). Copy the code i-bridge printed.`);
    }
    this.used = true;
    return this.tokens.issue();
  }
}
