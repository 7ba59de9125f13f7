// Public-address checks for the Node web_fetch backend (seed 000 §9). Every address a name resolves to must be
// public (dns.lookup with all: true); the check runs inside the socket's own `lookup`, so the address connected to
// is the address checked (a DNS answer changing between check and connect cannot slip through). Refused: private
// (10/8, 172.16/12, 192.168/16), loopback, link-local, CGNAT, ULA (fc00::/7), multicast, documentation and
// reserved ranges, unspecified, and IPv4-mapped / NAT64 forms of those. Node-only.
import { lookup as dnsLookup, type LookupAddress } from 'node:dns';
import { BlockList, isIP, type LookupFunction } from 'node:net';
import { HarnessError } from '../../errors';

const blocked = new BlockList();
for (const [net, prefix] of [
  ['0.0.0.0', 8], ['10.0.0.0', 8], ['100.64.0.0', 10], ['127.0.0.0', 8], ['169.254.0.0', 16], ['172.16.0.0', 12],
  ['192.0.0.0', 24], ['192.0.2.0', 24], ['192.88.99.0', 24], ['192.168.0.0', 16], ['198.18.0.0', 15],
  ['198.51.100.0', 24], ['203.0.113.0', 24], ['224.0.0.0', 4], ['240.0.0.0', 4],
] as const) blocked.addSubnet(net, prefix, 'ipv4');
for (const [net, prefix] of [
  ['::', 128], ['::1', 128], ['fc00::', 7], ['fe80::', 10], ['fec0::', 10], ['ff00::', 8], ['2001:db8::', 32], ['100::', 64],
] as const) blocked.addSubnet(net, prefix, 'ipv6');

/** True for globally routable unicast addresses; IPv4-mapped and NAT64 forms are judged by their IPv4 part. */
export function isPublicAddress(address: string): boolean {
  const family = isIP(address);
  if (family === 4) return !blocked.check(address, 'ipv4');
  if (family !== 6) return false;
  const lower = address.toLowerCase();
  const mapped = /^(?:::ffff:|64:ff9b::)(\d+\.\d+\.\d+\.\d+)$/.exec(lower);
  if (mapped) return isPublicAddress(mapped[1]!);
  const hex = /^(?:::ffff:|64:ff9b::)([0-9a-f]{1,4}):([0-9a-f]{1,4})$/.exec(lower);
  if (hex) {
    const hi = parseInt(hex[1]!, 16);
    const lo = parseInt(hex[2]!, 16);
    return isPublicAddress(`${hi >> 8}.${hi & 255}.${lo >> 8}.${lo & 255}`);
  }
  return !blocked.check(lower, 'ipv6');
}

export const refusedAddress = (host: string, address: string) =>
  new HarnessError('E_WEB_PRIVATE_ADDRESS', `${host} resolves to ${address}, a private or local address. web_fetch only reaches public addresses unless private access is configured (web.json "fetch": {"allow_private": true}).`, { host, address });

/** A `lookup` for http.request that resolves every address and refuses the name if any answer is not public. */
export function guardedLookup(allowPrivate: boolean): LookupFunction {
  return (hostname, options, callback) => {
    dnsLookup(hostname, { ...options, all: true }, (error, addresses) => {
      if (error) return callback(error, '', 0);
      const list = addresses as LookupAddress[];
      const bad = allowPrivate ? undefined : list.find((a) => !isPublicAddress(a.address));
      if (bad) return callback(refusedAddress(hostname, bad.address) as unknown as NodeJS.ErrnoException, '', 0);
      if (options.all) return (callback as unknown as (e: null, a: LookupAddress[]) => void)(null, list);
      const first = list[0];
      if (!first) return callback(Object.assign(new Error(`No address for ${hostname}`), { code: 'ENOTFOUND' }), '', 0);
      callback(null, first.address, first.family);
    });
  };
}
