import { describe, expect, it } from 'vitest';
import { guardedLookup, ipv6Groups, isPublicAddress } from './public-address';

// [address, public?]. Every IPv6 form that carries an IPv4 address is judged by that address, whatever its
// spelling: compressed, expanded, dotted tail, upper case, zone id.
const TABLE: Array<[string, boolean]> = [
  // IPv4
  ['8.8.8.8', true],
  ['1.1.1.1', true],
  ['127.0.0.1', false],
  ['10.1.2.3', false],
  ['172.16.0.1', false],
  ['172.31.255.255', false],
  ['172.32.0.1', true],
  ['192.168.1.1', false],
  ['169.254.169.254', false],
  ['100.64.0.1', false],
  ['0.0.0.0', false],
  ['224.0.0.1', false],
  ['255.255.255.255', false],
  ['198.18.0.1', false],
  ['192.0.2.1', false],
  // native IPv6
  ['2606:4700:4700::1111', true],
  ['2a00:1450:4001:82b::200e', true],
  ['::1', false],
  ['::', false],
  ['fe80::1', false],
  ['FE80::1%eth0', false],
  ['fe80::1%25eth0', false],
  ['fd00::1', false],
  ['fc00::1', false],
  ['ff02::1', false],
  ['fec0::1', false],
  ['2001:db8::1', false],
  ['3fff::1', false],
  ['100::1', false],
  ['2001:2::1', false],
  // ::/96, IPv4-compatible
  ['::127.0.0.1', false],
  ['::7f00:1', false],
  ['0:0:0:0:0:0:7f00:1', false],
  ['::10.0.0.1', false],
  ['::8.8.8.8', true],
  ['::808:808', true],
  // ::ffff:0:0/96, mapped
  ['::ffff:127.0.0.1', false],
  ['::ffff:7f00:1', false],
  ['::FFFF:7F00:0001', false],
  ['0:0:0:0:0:ffff:127.0.0.1', false],
  ['0000:0000:0000:0000:0000:ffff:7f00:0001', false],
  ['::ffff:10.0.0.1', false],
  ['::ffff:169.254.169.254', false],
  ['::ffff:a9fe:a9fe', false],
  ['::ffff:8.8.8.8', true],
  ['::ffff:808:808', true],
  ['::ffff:127.0.0.1%lo', false],
  // ::ffff:0:0:0/96, SIIT
  ['::ffff:0:127.0.0.1', false],
  ['::ffff:0:7f00:1', false],
  ['0:0:0:0:ffff:0:a00:1', false],
  ['::ffff:0:8.8.8.8', true],
  // 64:ff9b::/96 and 64:ff9b:1::/48, NAT64
  ['64:ff9b::7f00:1', false],
  ['64:ff9b::10.0.0.1', false],
  ['64:FF9B::192.168.0.1', false],
  ['64:ff9b:0:0:0:0:a9fe:a9fe', false],
  ['64:ff9b::8.8.8.8', true],
  ['64:ff9b::808:808', true],
  ['64:ff9b:1::7f00:1', false],
  ['64:ff9b:1::10.0.0.1', false],
  ['64:ff9b:1::8.8.8.8', true],
  ['64:ff9b:1:7f00:0:100::', false],
  ['64:ff9b:1:abcd::808:808', false],
  // 2002::/16, 6to4: bits 16–47
  ['2002:7f00:1::', false],
  ['2002:7f00:0001:0000::1', false],
  ['2002:a00:1::1', false],
  ['2002:c0a8:101::', false],
  ['2002:808:808::1', true],
  ['2002:0808:0808:0:0:0:0:1', true],
  // 2001::/32, Teredo: server bits 32–63, client = last 32 bits XOR 0xffffffff
  ['2001:0:4136:e378:8000:63bf:80ff:fffe', false], // client 127.0.0.1
  ['2001:0:4136:e378:8000:63bf:f5ff:fffe', false], // client 10.0.0.1
  ['2001:0:7f00:1:8000:63bf:f7f7:f7f7', false], // server 127.0.0.1, client 8.8.8.8
  ['2001:0:4136:e378:8000:63bf:f7f7:f7f7', true], // server 65.54.227.120, client 8.8.8.8
  ['2001::4136:e378:8000:63bf:f7f7:f7f7', true],
  // not addresses
  ['not-an-ip', false],
  ['', false],
  ['127.1', false],
  ['::ffff:127.0.0.256', false],
];

describe('public address check', () => {
  it.each(TABLE)('%s public: %s', (address, expected) => {
    expect(isPublicAddress(address)).toBe(expected);
  });

  it('reads every textual IPv6 form into the same eight groups', () => {
    const loop = [0, 0, 0, 0, 0, 0xffff, 0x7f00, 1];
    for (const form of [
      '::ffff:127.0.0.1',
      '::FFFF:7F00:1',
      '0:0:0:0:0:ffff:7f00:0001',
      '0000:0000:0000:0000:0000:FFFF:127.0.0.1',
      '::ffff:7f00:1%eth0',
    ]) {
      expect([form, ipv6Groups(form)]).toEqual([form, loop]);
    }
    expect(ipv6Groups('1::')).toEqual([1, 0, 0, 0, 0, 0, 0, 0]);
    expect(ipv6Groups('10.0.0.1')).toBeUndefined();
  });

  it('judges the addresses a URL parser produces (it rewrites dotted tails to hex)', () => {
    for (const url of [
      'http://[::ffff:127.0.0.1]/',
      'http://[64:ff9b::10.0.0.1]/',
      'http://[::ffff:0:7f00:1]/',
      'http://[2002:7f00:1::]/',
    ]) {
      const host = new URL(url).hostname.slice(1, -1);
      expect([url, host, isPublicAddress(host)]).toEqual([url, host, false]);
    }
  });

  it("checks every DNS answer: a name resolving to loopback is refused with the caller's hint", async () => {
    const error = await new Promise<unknown>((resolve) =>
      guardedLookup(false, 'the test allows it')('localhost', { all: true }, (e) => resolve(e)),
    );
    expect((error as { code: string }).code).toBe('E_WEB_PRIVATE_ADDRESS');
    expect((error as Error).message).toMatch(/unless the test allows it\.$/);
    const ok = await new Promise<unknown>((resolve) =>
      guardedLookup(true)('localhost', { all: true }, (e, a) => resolve(e ?? a)),
    );
    expect(Array.isArray(ok)).toBe(true);
  });
});
