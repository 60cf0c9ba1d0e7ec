import { BlockList, isIP } from 'node:net';

/**
 * Which addresses a webhook may connect to. Refused: loopback, "this network", private (RFC 1918),
 * CGNAT (100.64/10), link-local (169.254/16: cloud metadata), benchmarking, multicast, reserved and
 * broadcast IPv4; unspecified, loopback, unique-local (fc00::/7), link-local, site-local and multicast
 * IPv6; and the IPv6 forms that embed an IPv4 address (mapped ::ffff:a.b.c.d, compatible ::a.b.c.d,
 * NAT64 64:ff9b::/96, 6to4 2002::/16) when the embedded address is refused. An allow-list of
 * ranges (configuration) exempts addresses, e.g. 127.0.0.1/32 for a development receiver.
 */
const BLOCKED_V4: [string, number][] = [
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
];
const BLOCKED_V6: [string, number][] = [
  ['::', 128],
  ['::1', 128],
  ['fc00::', 7],
  ['fe80::', 10],
  ['fec0::', 10],
  ['ff00::', 8],
  ['100::', 64],
  ['2001:db8::', 32],
];

const blockList = new BlockList();
for (const [net, prefix] of BLOCKED_V4) blockList.addSubnet(net, prefix, 'ipv4');
for (const [net, prefix] of BLOCKED_V6) blockList.addSubnet(net, prefix, 'ipv6');

/** Parses an IPv6 address into 8 groups (handles :: and a dotted IPv4 tail). */
function ipv6Groups(address: string): number[] | null {
  let a = address.toLowerCase().split('%')[0];
  const dotted = a.match(/^(.*:)(\d+\.\d+\.\d+\.\d+)$/);
  if (dotted) {
    const o = dotted[2].split('.').map(Number);
    a = `${dotted[1]}${((o[0] << 8) | o[1]).toString(16)}:${((o[2] << 8) | o[3]).toString(16)}`;
  }
  const halves = a.split('::');
  if (halves.length > 2) return null;
  const head = halves[0] ? halves[0].split(':') : [];
  const tail = halves.length === 2 && halves[1] ? halves[1].split(':') : [];
  const missing = 8 - head.length - tail.length;
  if (halves.length === 1 ? missing !== 0 : missing < 0) return null;
  const groups = [...head, ...Array(halves.length === 2 ? missing : 0).fill('0'), ...tail].map((g) => parseInt(g, 16));
  return groups.length === 8 && groups.every((g) => g >= 0 && g <= 0xffff) ? groups : null;
}

const v4 = (hi: number, lo: number) => `${hi >> 8}.${hi & 0xff}.${lo >> 8}.${lo & 0xff}`;

/** The IPv4 address an IPv6 address stands for (mapped, compatible, NAT64, 6to4), if any. */
export function embeddedIpv4(address: string): string | null {
  const g = ipv6Groups(address);
  if (!g) return null;
  const zeros = (from: number, to: number) => g.slice(from, to).every((x) => x === 0);
  if (zeros(0, 5) && g[5] === 0xffff) return v4(g[6], g[7]); // ::ffff:a.b.c.d
  if (zeros(0, 5) && g[5] === 0 && (g[6] !== 0 || g[7] > 1)) return v4(g[6], g[7]); // ::a.b.c.d (deprecated)
  if (g[0] === 0x64 && g[1] === 0xff9b && zeros(2, 6)) return v4(g[6], g[7]); // 64:ff9b::/96
  if (g[0] === 0x2002) return v4(g[1], g[2]); // 6to4
  return null;
}

/** True when the address belongs to a refused class (ignoring any allow-list). */
export function isBlockedAddress(address: string): boolean {
  const family = isIP(address);
  if (family === 4) return blockList.check(address, 'ipv4');
  if (family === 6) {
    const inner = embeddedIpv4(address);
    if (inner) return blockList.check(inner, 'ipv4');
    return blockList.check(address.split('%')[0], 'ipv6');
  }
  return true; // not an address at all: refuse
}

export class AddressPolicy {
  private readonly allow = new BlockList();

  /** `allowCidrs`: ranges exempt from the block, e.g. ['127.0.0.1/32', '::1/128']. */
  constructor(allowCidrs: readonly string[] = []) {
    for (const cidr of allowCidrs) {
      const [net, prefixText] = cidr.split('/');
      const family = isIP(net);
      if (!family) throw new Error(`not an address range: ${cidr}`);
      const prefix = prefixText === undefined ? (family === 4 ? 32 : 128) : Number(prefixText);
      this.allow.addSubnet(net, prefix, family === 4 ? 'ipv4' : 'ipv6');
    }
  }

  /** Null when the address may be connected to, else the reason it may not. */
  check(address: string): string | null {
    const family = isIP(address);
    if (family && this.allow.check(address.split('%')[0], family === 4 ? 'ipv4' : 'ipv6')) return null;
    return isBlockedAddress(address) ? `address ${address} is not allowed (private, loopback, link-local or reserved)` : null;
  }
}
