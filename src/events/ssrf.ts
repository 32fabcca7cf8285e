import { lookup as dnsLookup, type LookupAddress } from 'node:dns';
import { BlockList, isIP } from 'node:net';

/**
 * Outbound requests to subscriber URLs must not reach the operator's own network (SSRF): loopback,
 * private, link-local, unique-local, carrier-grade NAT, multicast and reserved ranges are refused unless
 * the operator allows them (`--allow-private-targets`). The check runs on the resolved address, inside the
 * connection's own lookup, so the socket connects to exactly the address that was checked: a DNS answer
 * cannot change between the check and the connect (DNS rebinding).
 */
const blocked = new BlockList();
for (const [network, prefix] of [
  ['0.0.0.0', 8],
  ['10.0.0.0', 8],
  ['100.64.0.0', 10],
  ['127.0.0.0', 8],
  ['169.254.0.0', 16],
  ['172.16.0.0', 12],
  ['192.0.0.0', 24],
  ['192.0.2.0', 24],
  ['192.168.0.0', 16],
  ['198.18.0.0', 15],
  ['198.51.100.0', 24],
  ['203.0.113.0', 24],
  ['224.0.0.0', 4],
  ['240.0.0.0', 4],
] as const)
  blocked.addSubnet(network, prefix, 'ipv4');
for (const [network, prefix] of [
  ['::', 128],
  ['::1', 128],
  ['64:ff9b::', 96],
  ['100::', 64],
  ['2001:db8::', 32],
  ['fc00::', 7],
  ['fe80::', 10],
  ['fec0::', 10],
  ['ff00::', 8],
] as const)
  blocked.addSubnet(network, prefix, 'ipv6');

export class PrivateTargetError extends Error {
  readonly code = 'FW_PRIVATE_TARGET';
  constructor(host: string, address: string) {
    super(
      `refused: ${host} resolves to ${address}, a private or loopback address (see --allow-private-targets)`,
    );
  }
}

/** Loopback, private, link-local, unique-local or otherwise not a public unicast address. */
export function isPrivateAddress(address: string): boolean {
  const family = isIP(address);
  if (family === 4) return blocked.check(address, 'ipv4');
  if (family !== 6) return true;
  // IPv4-mapped (::ffff:a.b.c.d) and IPv4-compatible forms: judge the IPv4 address they carry.
  const mapped = /^(?:0*:)*(?:ffff:)?(\d+\.\d+\.\d+\.\d+)$/i.exec(address)?.[1];
  if (mapped) return blocked.check(mapped, 'ipv4');
  const hexMapped = /^(?:0*:)*ffff:([0-9a-f]{1,4}):([0-9a-f]{1,4})$/i.exec(address);
  if (hexMapped) {
    const [high, low] = [Number.parseInt(hexMapped[1] ?? '0', 16), Number.parseInt(hexMapped[2] ?? '0', 16)];
    return blocked.check(`${high >> 8}.${high & 255}.${low >> 8}.${low & 255}`, 'ipv4');
  }
  return blocked.check(address, 'ipv6');
}

/** A URL's host without IPv6 brackets. */
export function urlHost(url: URL): string {
  return url.hostname.replace(/^\[(.*)\]$/, '$1');
}

/** An IP-literal host never goes through a lookup, so it is checked here, before connecting. */
export function assertPublicLiteral(url: URL): void {
  const host = urlHost(url);
  if (isIP(host) && isPrivateAddress(host)) throw new PrivateTargetError(host, host);
}

type LookupCallback = (error: Error | null, address: string | LookupAddress[], family?: number) => void;

/**
 * A drop-in for `dns.lookup` as `net.connect` calls it: resolves every address, refuses the host when any
 * of them is private, and hands the connection only the addresses it checked.
 */
export function guardedLookup(hostname: string, options: { all?: boolean }, callback: LookupCallback): void {
  dnsLookup(hostname, { all: true }, (error, addresses) => {
    if (error) return callback(error, []);
    const bad = addresses.find((entry) => isPrivateAddress(entry.address));
    if (bad) return callback(new PrivateTargetError(hostname, bad.address), []);
    if (options.all) return callback(null, addresses);
    const first = addresses[0];
    if (!first) return callback(new Error(`${hostname} has no address`), []);
    callback(null, first.address, first.family);
  });
}
