import { BlockList, isIP } from 'node:net';
import { z } from 'zod';

/** Names for common ranges, as Express and Fastify (proxy-addr) spell them. */
const NAMED_RANGES: Record<string, string[]> = {
  loopback: ['127.0.0.0/8', '::1/128'],
  linklocal: ['169.254.0.0/16', 'fe80::/10'],
  uniquelocal: ['10.0.0.0/8', '172.16.0.0/12', '192.168.0.0/16', 'fc00::/7'],
};

/** One entry of TRUST_PROXY_ADDRESSES as CIDRs, or null when it is neither a name, an address nor a CIDR. */
function cidrsOf(entry: string): string[] | null {
  if (NAMED_RANGES[entry]) return NAMED_RANGES[entry];
  const [address, bits, extra] = entry.split('/');
  const family = isIP(address);
  if (!family || extra !== undefined) return null;
  const max = family === 4 ? 32 : 128;
  if (bits === undefined) return [`${address}/${max}`];
  if (!/^\d{1,3}$/.test(bits) || Number(bits) > max) return null;
  return [`${address}/${bits}`];
}

/**
 * Which hops in front of the gateway are its own proxies, whose X-Forwarded-For entry is believed
 * (docs/operations.md, "Client address"): the client address (sign-in throttle) is the first
 * untrusted hop, walking from the connection back through X-Forwarded-For.
 */
export const TrustProxyConfigSchema = z.object({
  /** How many proxies stand between the clients and the gateway (0: the connection's own address). */
  TRUST_PROXY_HOPS: z.preprocess((v) => (v === '' ? undefined : v), z.coerce.number().int().min(0).max(10).default(1)),
  /** The addresses those proxies connect from: comma-separated addresses, CIDRs, or loopback / linklocal / uniquelocal. */
  TRUST_PROXY_ADDRESSES: z
    .string()
    .default('loopback')
    .transform((s, ctx) => {
      const entries = s
        .split(',')
        .map((e) => e.trim())
        .filter(Boolean);
      if (!entries.length) {
        ctx.addIssue({ code: 'custom', message: 'must name at least one address, CIDR or range (loopback, linklocal, uniquelocal)' });
        return z.NEVER;
      }
      const bad = entries.filter((e) => !cidrsOf(e));
      if (bad.length) {
        ctx.addIssue({ code: 'custom', message: `not an address, CIDR or range name: ${bad.join(', ')}` });
        return z.NEVER;
      }
      return entries;
    }),
});
export type TrustProxyConfig = z.infer<typeof TrustProxyConfigSchema>;

/** An IPv4 address in IPv6 form (::ffff:10.0.0.1, as a dual-stack socket reports it) is checked as IPv4. */
const unmapped = (address: string) => (/^::ffff:\d+\.\d+\.\d+\.\d+$/i.test(address) ? address.slice(7) : address);

/**
 * Fastify's `trustProxy` for this config: hop `i` (0 = the connection) is trusted when it is one of
 * the first TRUST_PROXY_HOPS and comes from a listed address. `false` (never trust) for 0 hops.
 */
export function trustProxyOption(config: TrustProxyConfig): false | ((address: string, hop: number) => boolean) {
  if (config.TRUST_PROXY_HOPS === 0) return false;
  const list = new BlockList();
  for (const cidr of config.TRUST_PROXY_ADDRESSES.flatMap((e) => cidrsOf(e) ?? [])) {
    const [address, bits] = cidr.split('/');
    list.addSubnet(address, Number(bits), isIP(address) === 4 ? 'ipv4' : 'ipv6');
  }
  return (address, hop) => {
    if (hop >= config.TRUST_PROXY_HOPS) return false;
    const plain = unmapped(address);
    const family = isIP(plain);
    return family !== 0 && list.check(plain, family === 4 ? 'ipv4' : 'ipv6');
  };
}
