/**
 * The URL guard's judgement of an address: web tools, and sandboxed commands through the
 * network proxy (exec/sandbox/proxy.ts), reach the public internet only. Loopback, private,
 * link-local, carrier-grade NAT, multicast, reserved and cloud metadata addresses (IPv4, IPv6,
 * and IPv4 inside IPv6) are refused unless the user listed the host in `[web] allow_hosts`.
 * Every address a name resolves to is judged, and the connection is then pinned to one that
 * passed (see web/guarded-fetch.ts), so a name cannot resolve to a public address here and a
 * private one when the connection is made. A leaf, so that both web/ and exec/ can use it.
 */
import ipaddr from "ipaddr.js";

/**
 * Metadata services that answer on ordinary-looking addresses (the link-local and unique-local
 * ones are refused by range anyway; Azure's wire server is a public address).
 */
const METADATA_ADDRESSES = new Set(["169.254.169.254", "169.254.170.2", "169.254.170.23", "100.100.100.200", "168.63.129.16", "192.0.0.192", "fd00:ec2::254", "fd00:ec2::23"]);

/** Why an address is refused, in words for the model and the user; undefined when it is public. */
export function addressRefusal(address: string): string | undefined {
  let parsed: ipaddr.IPv4 | ipaddr.IPv6;
  try {
    parsed = ipaddr.parse(address);
  } catch {
    return `${address} is not an IP address`;
  }
  // An IPv4 address written as IPv6 (::ffff:10.0.0.1) is judged as the IPv4 address it is.
  if (parsed.kind() === "ipv6" && (parsed as ipaddr.IPv6).isIPv4MappedAddress()) parsed = (parsed as ipaddr.IPv6).toIPv4Address();
  const normal = parsed.toString();
  if (METADATA_ADDRESSES.has(normal)) return `${address} is a cloud metadata address`;
  const range = parsed.range();
  if (range === "unicast") return undefined;
  return `${address} is ${RANGE_WORDS[range] ?? `not a public address (${range})`}`;
}

const RANGE_WORDS: Record<string, string> = {
  loopback: "a loopback address (this machine)",
  private: "a private network address",
  linkLocal: "a link-local address",
  carrierGradeNat: "a carrier-grade NAT address",
  multicast: "a multicast address",
  unspecified: "the unspecified address",
  broadcast: "the broadcast address",
  reserved: "a reserved address",
  uniqueLocal: "a private (unique local) IPv6 address",
  rfc6052: "an IPv6 address that embeds an IPv4 address (NAT64)",
  rfc6145: "an IPv6 address that embeds an IPv4 address",
  "6to4": "a 6to4 address that embeds an IPv4 address",
  teredo: "a Teredo address that embeds an IPv4 address",
  benchmarking: "a benchmarking address",
  amt: "an AMT address",
  as112: "an AS112 address",
  deprecated: "a deprecated address",
  orchid2: "an ORCHID address",
  droneRemoteIdProtocolEntityTags: "a reserved address",
};

/**
 * True when `host` is listed in `allowHosts`: exactly (case-insensitive, trailing dot ignored),
 * or under a `*.suffix` entry (which covers subdomains, not the suffix itself).
 */
export function hostAllowed(host: string, allowHosts: readonly string[]): boolean {
  const h = normalHost(host);
  return allowHosts.some((entry) => {
    const e = normalHost(entry);
    if (e.startsWith("*.")) return h.endsWith(e.slice(1)) && h.length > e.length - 1;
    return h === e;
  });
}

/** A host name as compared: lower case, no trailing dot, IPv6 brackets taken off. */
export function normalHost(host: string): string {
  return host.trim().toLowerCase().replace(/\.$/, "").replace(/^\[(.*)\]$/, "$1");
}

/** True when `host` is an IP address literal (so no name is resolved). */
export function isIpLiteral(host: string): boolean {
  return ipaddr.isValid(normalHost(host));
}
