import ipaddr from 'ipaddr.js';

/**
 * Which addresses the service may reach (SPEC 8). The guarded HTTP client applies it to every resolved
 * address; request validation applies it early to URLs whose host is an IP literal.
 */

/** ipaddr.js's range name (`unicast`, `private`, `loopback`, `linkLocal`, `rfc6052`, ...) or `invalid`. */
export type AddressRange = string;

/**
 * Classifies an IP address with ipaddr.js's range tables (IANA special-purpose registries). IPv4-mapped
 * IPv6 addresses (`::ffff:10.0.0.1`) are classified as the IPv4 address they carry. Any IPv4 spelling
 * ipaddr.js accepts (`127.1`, `0x7f.0.0.1`, `2130706433`) is understood; host names are `invalid`.
 *
 * @example classifyAddress('169.254.169.254') // 'linkLocal'
 * @example classifyAddress('::ffff:a00:1') // 'private'
 */
export const classifyAddress = (address: string): AddressRange => {
  const bare = address.startsWith('[') && address.endsWith(']') ? address.slice(1, -1) : address;
  if (!ipaddr.isValid(bare)) return 'invalid';
  let parsed = ipaddr.parse(bare);
  if (parsed.kind() === 'ipv6' && (parsed as ipaddr.IPv6).isIPv4MappedAddress()) {
    parsed = (parsed as ipaddr.IPv6).toIPv4Address();
  }
  return parsed.range();
};

/**
 * SPEC 8: only global unicast addresses may be reached; loopback too when `allowLoopback` (the local
 * runtime). Everything else (private, CGNAT, link-local and the metadata address, ULA, multicast,
 * unspecified, broadcast, reserved, documentation, benchmarking, NAT64, 6to4, Teredo, ...) is refused.
 */
export const isAllowedAddress = (address: string, options: { readonly allowLoopback: boolean }): boolean => {
  const range = classifyAddress(address);
  return range === 'unicast' || (options.allowLoopback && range === 'loopback');
};

/**
 * Refuses a URL early when its host is an IP literal outside what SPEC 8 allows (or `localhost` without
 * `allowLoopback`). Host names are left to the guarded client, which checks what they resolve to.
 *
 * @example literalHostAllowed(new URL('https://169.254.169.254/'), { allowLoopback: true }) // false
 */
export const literalHostAllowed = (url: URL, options: { readonly allowLoopback: boolean }): boolean => {
  const host = url.hostname.startsWith('[') ? url.hostname.slice(1, -1) : url.hostname;
  if (host === 'localhost' || host.endsWith('.localhost')) return options.allowLoopback;
  if (!ipaddr.isValid(host)) return true;
  return isAllowedAddress(host, options);
};
