import { describe, expect, it } from 'vitest';
import { Pairing, TokenStore } from './auth';

describe('TokenStore', () => {
  it('accepts every issued token and nothing else', () => {
    const store = new TokenStore();
    const local = store.issue();
    const paired = store.issue();
    expect(local).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(store.check(`Bearer ${local}`)).toBe(true);
    expect(store.check(`Bearer ${paired}`)).toBe(true);
    const flipped = local.slice(0, -1) + (local.endsWith('A') ? 'B' : 'A');
    for (const header of [
      undefined,
      '',
      local,
      `bearer ${local}`,
      `Bearer  ${local}`,
      `Bearer ${local} `,
      `Bearer ${local}x`,
      `Bearer ${local.slice(1)}`,
      `Bearer ${flipped}`,
      `Basic ${local}`,
      // A character outside base64url whose low byte is one of the token's own characters.
      `Bearer ${local.slice(0, -1)}${String.fromCharCode(0x100 + local.charCodeAt(local.length - 1))}`,
    ]) {
      expect(store.check(header), String(header)).toBe(false);
    }
  });

  it('accepts no token before one is issued', () => {
    expect(new TokenStore().check(`Bearer ${'A'.repeat(43)}`)).toBe(false);
  });
});

describe('Pairing', () => {
  it('exchanges the code once for a token the store accepts, whatever the spelling of the code', () => {
    const store = new TokenStore();
    const pairing = new Pairing(store);
    const typed = ` ${pairing.code.slice(0, 4).toLowerCase()}-${pairing.code.slice(4)} `;
    const token = pairing.pair(typed);
    expect(store.check(`Bearer ${token}`)).toBe(true);
    expect(() => pairing.pair(pairing.code)).toThrow(expect.objectContaining({ code: 'E_PAIRING_USED' }));
  });

  it('locks after the allowed wrong attempts and expires', () => {
    let now = 0;
    const locked = new Pairing(new TokenStore(), 1000, 2, () => now);
    expect(() => locked.pair('WRONG')).toThrow(expect.objectContaining({ code: 'E_PAIRING_WRONG' }));
    expect(() => locked.pair('WRONG')).toThrow(expect.objectContaining({ code: 'E_PAIRING_WRONG' }));
    expect(() => locked.pair(locked.code)).toThrow(expect.objectContaining({ code: 'E_PAIRING_LOCKED' }));
    const expiring = new Pairing(new TokenStore(), 1000, 5, () => now);
    now = 1001;
    expect(() => expiring.pair(expiring.code)).toThrow(expect.objectContaining({ code: 'E_PAIRING_EXPIRED' }));
  });
});
