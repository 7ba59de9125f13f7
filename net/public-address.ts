// web_fetch reaches only public addresses unless the operator allows private ones (seed 000 §9). The check runs
// on the address the socket actually connects to (a custom `lookup`), so a DNS answer that changes between check
// and connect (rebinding) cannot slip through. The ONE copy, in net/: the bridge and headless `i` both reach it
// through net/web-fetch.ts.
// IPv6 forms that carry an IPv4 address are judged by that address, since the network in between (a NAT64
// gateway, a 6to4 relay, a Teredo server, a host's dual stack) delivers them to it: ::/96 (IPv4-compatible, which
// also covers :: and ::1), ::ffff:0:0/96 (mapped), ::ffff:0:0:0/96 (SIIT), 64:ff9b::/96 and 64:ff9b:1::/48
// (NAT64), 2002::/16 (6to4, bits 16–47) and 2001::/32 (Teredo: server bits 32–63, client the last 32 bits
// inverted; both must be public).
import { lookup as dnsLookup, type LookupAddress } from 'node:dns';
import { BlockList, isIP, type LookupFunction } from 'node:net';
import { NetError } from './errors';

const blocked = new BlockList();
for (const [net, prefix] of [
  ['0.0.0.0', 8],
  ['10.0.0.0', 8],
  ['100.64.0.0', 10],
  ['127.0.0.0', 8],
  ['169.254.0.0', 16],
  ['172.16.0.0', 12],
  ['192.0.0.0', 24],
  ['192.0.2.0', 24],
  ['192.88.99.0', 24],
  ['192.168.0.0', 16],
  ['198.18.0.0', 15],
  ['198.51.100.0', 24],
  ['203.0.113.0', 24],
  ['224.0.0.0', 4],
  ['240.0.0.0', 4],
] as const)
  blocked.addSubnet(net, prefix, 'ipv4');
// Native IPv6 ranges that are not globally reachable (IANA special-purpose registry): ULA, link-local, old
// site-local, multicast, documentation (2001:db8::/32, 3fff::/20), benchmarking, discard-only.
for (const [net, prefix] of [
  ['fc00::', 7],
  ['fe80::', 10],
  ['fec0::', 10],
  ['ff00::', 8],
  ['2001:db8::', 32],
  ['3fff::', 20],
  ['2001:2::', 48],
  ['100::', 64],
] as const)
  blocked.addSubnet(net, prefix, 'ipv6');

/** The eight 16-bit groups of an IPv6 address in any textual form (`::`, dotted tail, zone id, any case). */
export function ipv6Groups(address: string): number[] | undefined {
  if (isIP(address) !== 6) return undefined;
  const zone = address.indexOf('%');
  let text = (zone < 0 ? address : address.slice(0, zone)).toLowerCase();
  const dot = text.indexOf('.');
  if (dot >= 0) {
    // A dotted IPv4 tail (::ffff:127.0.0.1) becomes the last two groups.
    const colon = text.lastIndexOf(':');
    const [a, b, c, d] = text
      .slice(colon + 1)
      .split('.')
      .map(Number) as [number, number, number, number];
    text = `${text.slice(0, colon + 1)}${((a << 8) | b).toString(16)}:${((c << 8) | d).toString(16)}`;
  }
  const gap = text.indexOf('::');
  const part = (s: string) => (s === '' ? [] : s.split(':').map((h) => parseInt(h, 16)));
  if (gap < 0) return part(text);
  const head = part(text.slice(0, gap));
  const tail = part(text.slice(gap + 2));
  return [...head, ...new Array<number>(8 - head.length - tail.length).fill(0), ...tail];
}

const dotted = (hi: number, lo: number) => `${hi >> 8}.${hi & 255}.${lo >> 8}.${lo & 255}`;
const zero = (g: number[], from: number, to: number) => g.slice(from, to).every((x) => x === 0);

/** The IPv4 addresses an IPv6 address delivers to, or undefined for a native IPv6 address. */
export function embeddedIPv4(g: number[]): string[] | undefined {
  const [g0, g1, g2, g3, g4, g5, g6, g7] = g as [number, number, number, number, number, number, number, number];
  if (zero(g, 0, 5) && (g5 === 0 || g5 === 0xffff)) return [dotted(g6, g7)]; // ::/96, ::ffff:0:0/96
  if (zero(g, 0, 4) && g4 === 0xffff && g5 === 0) return [dotted(g6, g7)]; // ::ffff:0:0:0/96 (SIIT)
  if (g0 === 0x64 && g1 === 0xff9b) {
    if (zero(g, 2, 6)) return [dotted(g6, g7)]; // 64:ff9b::/96
    // 64:ff9b:1::/48 (local-use NAT64, RFC 8215): the operator picks the prefix length and so where the IPv4
    // address sits. Read as /96 when bits 48–95 are zero; any other layout is refused (never globally reachable).
    if (g2 === 1) return zero(g, 3, 6) ? [dotted(g6, g7)] : ['0.0.0.0'];
  }
  if (g0 === 0x2002) return [dotted(g1, g2)]; // 6to4
  if (g0 === 0x2001 && g1 === 0) return [dotted(g2, g3), dotted(g6 ^ 0xffff, g7 ^ 0xffff)]; // Teredo server, client
  return undefined;
}

/** True for globally routable unicast addresses; IPv6 forms that carry an IPv4 address are judged by it. */
export function isPublicAddress(address: string): boolean {
  const family = isIP(address);
  if (family === 4) return !blocked.check(address, 'ipv4');
  const groups = ipv6Groups(address);
  if (!groups) return false;
  const v4 = embeddedIPv4(groups);
  if (v4) return v4.every((a) => !blocked.check(a, 'ipv4'));
  return !blocked.check(groups.map((x) => x.toString(16)).join(':'), 'ipv6');
}

/** Each caller passes its own setting's name (bridge.json's `web_fetch.allow_private`, web.json's `fetch.allow_private`). */
export const DEFAULT_PRIVATE_HINT = 'private access is configured';

/** `hint` completes "web_fetch only reaches public addresses unless …" with the caller's own setting. */
export const refusedAddress = (host: string, address: string, hint = DEFAULT_PRIVATE_HINT) =>
  new NetError(
    'E_WEB_PRIVATE_ADDRESS',
    `${host} resolves to ${address}, a private or local address. web_fetch only reaches public addresses unless ${hint}.`,
    { host, address },
  );

/** A `lookup` for http.request that resolves every address and refuses the name if any answer is not public. */
export function guardedLookup(allowPrivate: boolean, hint = DEFAULT_PRIVATE_HINT): LookupFunction {
  return (hostname, options, callback) => {
    dnsLookup(hostname, { ...options, all: true }, (error, addresses) => {
      if (error) return callback(error, '', 0);
      const list = addresses as LookupAddress[];
      const bad = allowPrivate ? undefined : list.find((a) => !isPublicAddress(a.address));
      if (bad) return callback(refusedAddress(hostname, bad.address, hint) as unknown as NodeJS.ErrnoException, '', 0);
      if (options.all) return (callback as unknown as (e: null, a: LookupAddress[]) => void)(null, list);
      const first = list[0];
      if (!first) return callback(Object.assign(new Error(`No address for ${hostname}`), { code: 'ENOTFOUND' }), '', 0);
      callback(null, first.address, first.family);
    });
  };
}
