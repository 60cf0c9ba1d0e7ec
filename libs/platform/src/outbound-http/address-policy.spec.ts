import { AddressPolicy, embeddedIpv4, isBlockedAddress } from './address-policy';

describe('SSRF address policy', () => {
  it.each([
    ['loopback v4', '127.0.0.1'],
    ['loopback v4 (whole /8)', '127.255.3.4'],
    ['this network', '0.0.0.0'],
    ['private 10/8', '10.1.2.3'],
    ['private 172.16/12', '172.31.255.255'],
    ['private 192.168/16', '192.168.0.10'],
    ['link-local / cloud metadata', '169.254.169.254'],
    ['CGNAT 100.64/10', '100.100.1.1'],
    ['multicast', '224.0.0.1'],
    ['reserved / broadcast', '255.255.255.255'],
    ['benchmarking', '198.18.0.1'],
    ['unspecified v6', '::'],
    ['loopback v6', '::1'],
    ['unique-local v6 fc00::/7', 'fd12:3456:789a::1'],
    ['unique-local v6 (fc)', 'fc00::5'],
    ['link-local v6', 'fe80::1'],
    ['link-local v6 with zone', 'fe80::1%eth0'],
    ['multicast v6', 'ff02::1'],
    ['IPv4-mapped loopback', '::ffff:127.0.0.1'],
    ['IPv4-mapped metadata (hex form)', '::ffff:a9fe:a9fe'],
    ['IPv4-mapped private', '::ffff:10.0.0.1'],
    ['IPv4-compatible loopback', '::127.0.0.1'],
    ['NAT64 of a private address', '64:ff9b::192.168.1.1'],
    ['6to4 of loopback', '2002:7f00:1::'],
    ['not an address', 'example.com'],
  ])('refuses %s (%s)', (_label, address) => {
    expect(isBlockedAddress(address)).toBe(true);
    expect(new AddressPolicy().check(address)).toMatch(/not allowed/);
  });

  it.each(['93.184.216.34', '8.8.8.8', '172.32.0.1', '100.128.0.1', '2606:4700::1111', '::ffff:8.8.8.8', '64:ff9b::8.8.8.8'])(
    'allows the public address %s',
    (address) => {
      expect(isBlockedAddress(address)).toBe(false);
      expect(new AddressPolicy().check(address)).toBeNull();
    },
  );

  it('reads the IPv4 address embedded in IPv6 forms', () => {
    expect(embeddedIpv4('::ffff:7f00:1')).toBe('127.0.0.1');
    expect(embeddedIpv4('::ffff:127.0.0.1')).toBe('127.0.0.1');
    expect(embeddedIpv4('2002:c0a8:0101::1')).toBe('192.168.1.1');
    expect(embeddedIpv4('2606:4700::1111')).toBeNull();
  });

  it('lets configured ranges through (a development receiver on localhost), and only those', () => {
    const policy = new AddressPolicy(['127.0.0.1/32', '::1']);
    expect(policy.check('127.0.0.1')).toBeNull();
    expect(policy.check('::1')).toBeNull();
    expect(policy.check('127.0.0.2')).toMatch(/not allowed/);
    expect(policy.check('10.0.0.1')).toMatch(/not allowed/);
    expect(() => new AddressPolicy(['localhost/8'])).toThrow(/not an address range/);
  });
});
