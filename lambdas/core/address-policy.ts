import ipaddr from 'ipaddr.js';

/**
 * Which addresses the service may reach (SPEC 8). The guarded HTTP client applies it to every resolved
 * address; request validation applies it early to URLs whose host is an IP literal.
 */

/** ipaddr.js's range name (`unicast`, `private`, `loopback`, `linkLocal`, `multicast`, ...) or `invalid`. */
export type AddressRange = string;

interface Classified {
  readonly range: AddressRange;
  /**
   * The address reaches an IPv4 address only through a translator or tunnel (NAT64, 6to4, Teredo,
   * IPv4-compatible and IPv4-translated forms): an embedded loopback address is not this machine's.
   */
  readonly translated: boolean;
}

const NAT64_WELL_KNOWN = ipaddr.parseCIDR('64:ff9b::/96');
const IPV4_COMPATIBLE = ipaddr.parseCIDR('::/96');

const v4At = (bytes: readonly number[], offsets: readonly number[], mask = 0): ipaddr.IPv4 =>
  new ipaddr.IPv4(offsets.map((offset) => (bytes[offset] ?? 0) ^ mask));

/**
 * The IPv4 addresses an IPv6 address carries, by the form it has (ipaddr.js names the forms), or none.
 * Teredo carries two: its server, and its client obfuscated (inverted) in the last 32 bits.
 */
const embeddedIPv4 = (address: ipaddr.IPv6): { v4: ipaddr.IPv4[]; translated: boolean } | undefined => {
  const bytes = address.toByteArray();
  const last = [12, 13, 14, 15];
  switch (address.range()) {
    case 'ipv4Mapped':
      return { v4: [address.toIPv4Address()], translated: false };
    case 'rfc6145': // ::ffff:0:a.b.c.d (IPv4-translated, SIIT)
      return { v4: [v4At(bytes, last)], translated: true };
    case 'rfc6052': // NAT64: 64:ff9b::/96 carries it last; 64:ff9b:1::/48 around the `u` octet (RFC 6052 2.2)
      return address.match(NAT64_WELL_KNOWN)
        ? { v4: [v4At(bytes, last)], translated: true }
        : { v4: [v4At(bytes, [6, 7, 9, 10])], translated: true };
    case '6to4': // 2002:AABB:CCDD::/48
      return { v4: [v4At(bytes, [2, 3, 4, 5])], translated: true };
    case 'teredo': // 2001:0:SSSS:SSSS:flags:port:CCCC:CCCC, the client inverted
      return { v4: [v4At(bytes, [4, 5, 6, 7]), v4At(bytes, last, 0xff)], translated: true };
    case 'unicast': // ::a.b.c.d (IPv4-compatible, deprecated): ipaddr.js has no name for it
      return address.match(IPV4_COMPATIBLE) ? { v4: [v4At(bytes, last)], translated: true } : undefined;
    default:
      return undefined;
  }
};

/**
 * `::a.b.c.d` written with hex groups. ipaddr.js reads the deprecated IPv4-compatible spelling
 * `::127.0.0.1` as IPv4-mapped `::ffff:127.0.0.1`, which is another address (and, for 127/8, this
 * machine); resolvers print IPv4-compatible addresses that way, so the spelling must be read exactly.
 */
const hexTail = (address: string): string => {
  const m = /^(.*:)(\d{1,3})\.(\d{1,3})\.(\d{1,3})\.(\d{1,3})$/.exec(address);
  if (!m) return address;
  const [a, b, c, d] = m.slice(2).map(Number) as [number, number, number, number];
  if ([a, b, c, d].some((octet) => octet > 255)) return address;
  return `${m[1]}${((a << 8) | b).toString(16)}:${((c << 8) | d).toString(16)}`;
};

const classify = (address: string): Classified => {
  const unbracketed = address.startsWith('[') && address.endsWith(']') ? address.slice(1, -1) : address;
  const bare = unbracketed.includes(':') ? hexTail(unbracketed) : unbracketed;
  if (!ipaddr.isValid(bare)) return { range: 'invalid', translated: false };
  const parsed = ipaddr.parse(bare);
  if (parsed.kind() === 'ipv4') return { range: parsed.range(), translated: false };
  const embedded = embeddedIPv4(parsed as ipaddr.IPv6);
  if (!embedded) return { range: parsed.range(), translated: false };
  // The most restrictive of what it carries: one internal address makes the whole address internal.
  const ranges = embedded.v4.map((v4) => v4.range());
  return { range: ranges.find((r) => r !== 'unicast') ?? 'unicast', translated: embedded.translated };
};

/**
 * Classifies an IP address with ipaddr.js's range tables (IANA special-purpose registries). An IPv6
 * address that carries an IPv4 address (IPv4-mapped `::ffff:a.b.c.d`, IPv4-compatible `::a.b.c.d`,
 * IPv4-translated, NAT64 `64:ff9b::/96` and `64:ff9b:1::/48`, 6to4 `2002::/16`, Teredo `2001::/32`) is
 * classified as the IPv4 address it carries. Any IPv4 spelling ipaddr.js accepts (`127.1`, `0x7f.0.0.1`,
 * `2130706433`) is understood; host names are `invalid`.
 *
 * @example classifyAddress('169.254.169.254') // 'linkLocal'
 * @example classifyAddress('::a9fe:a9fe') // 'linkLocal' (IPv4-compatible)
 * @example classifyAddress('64:ff9b::808:808') // 'unicast' (NAT64 of 8.8.8.8)
 */
export const classifyAddress = (address: string): AddressRange => classify(address).range;

/**
 * SPEC 8: only global unicast addresses may be reached, directly or through the IPv4 address an IPv6
 * form carries; loopback too when `allowLoopback` (the local runtime), but only this machine's (127/8,
 * `::1`, `::ffff:127.x.x.x`), never a loopback address behind a translator. Everything else (private,
 * CGNAT, link-local and the metadata address, ULA, multicast, unspecified, broadcast, reserved,
 * documentation, benchmarking, ...) is refused.
 */
export const isAllowedAddress = (address: string, options: { readonly allowLoopback: boolean }): boolean => {
  const { range, translated } = classify(address);
  return range === 'unicast' || (options.allowLoopback && range === 'loopback' && !translated);
};

/**
 * `localhost`, `localhost.` and every name under `.localhost` (RFC 6761: they are this machine, and are
 * never sent to DNS).
 *
 * @example isLocalhostName('api.localhost.') // true
 */
export const isLocalhostName = (hostname: string): boolean => {
  const name = hostname.toLowerCase().replace(/\.$/, '');
  return name === 'localhost' || name.endsWith('.localhost');
};

/**
 * Refuses a URL early when its host is an IP literal outside what SPEC 8 allows (or a localhost name
 * without `allowLoopback`). Other host names are left to the guarded client, which checks what they
 * resolve to.
 *
 * @example literalHostAllowed(new URL('https://169.254.169.254/'), { allowLoopback: true }) // false
 */
export const literalHostAllowed = (url: URL, options: { readonly allowLoopback: boolean }): boolean => {
  const host = url.hostname.startsWith('[') ? url.hostname.slice(1, -1) : url.hostname;
  if (isLocalhostName(host)) return options.allowLoopback;
  if (!ipaddr.isValid(host)) return true;
  return isAllowedAddress(host, options);
};
