/**
 * Which network addresses a push target may reach (SSRF protection). Link-local, metadata,
 * unspecified, multicast and reserved addresses are refused always; private and loopback ones
 * unless the operator allows them (tests and on-premise set-ups push to 127.0.0.1 or a LAN).
 * Used at configuration time (on the DNS answer) and again at connect time by the sender.
 */
import dns from 'node:dns';
import net from 'node:net';

const ALWAYS_REFUSED = new net.BlockList();
ALWAYS_REFUSED.addSubnet('0.0.0.0', 8, 'ipv4'); // "this network"; 0.0.0.0 reaches the local host on Linux
ALWAYS_REFUSED.addSubnet('169.254.0.0', 16, 'ipv4'); // link-local, cloud metadata (169.254.169.254)
ALWAYS_REFUSED.addAddress('100.100.100.200', 'ipv4'); // Alibaba Cloud metadata
ALWAYS_REFUSED.addSubnet('192.0.0.0', 24, 'ipv4'); // IETF protocol assignments (incl. 192.0.0.192 metadata)
ALWAYS_REFUSED.addSubnet('224.0.0.0', 4, 'ipv4'); // multicast
ALWAYS_REFUSED.addSubnet('240.0.0.0', 4, 'ipv4'); // reserved, broadcast
ALWAYS_REFUSED.addAddress('::', 'ipv6'); // unspecified
ALWAYS_REFUSED.addSubnet('fe80::', 10, 'ipv6'); // link-local
ALWAYS_REFUSED.addSubnet('ff00::', 8, 'ipv6'); // multicast
ALWAYS_REFUSED.addAddress('fd00:ec2::254', 'ipv6'); // AWS metadata over IPv6

const PRIVATE = new net.BlockList();
PRIVATE.addSubnet('10.0.0.0', 8, 'ipv4');
PRIVATE.addSubnet('172.16.0.0', 12, 'ipv4');
PRIVATE.addSubnet('192.168.0.0', 16, 'ipv4');
PRIVATE.addSubnet('127.0.0.0', 8, 'ipv4'); // loopback
PRIVATE.addSubnet('100.64.0.0', 10, 'ipv4'); // carrier-grade NAT
PRIVATE.addSubnet('198.18.0.0', 15, 'ipv4'); // benchmarking
PRIVATE.addAddress('::1', 'ipv6'); // loopback
PRIVATE.addSubnet('fc00::', 7, 'ipv6'); // unique local

/** Metadata services reached by name; refused before any lookup. */
const REFUSED_NAMES = new Set(['metadata.google.internal', 'metadata', 'instance-data', 'instance-data.ec2.internal']);

export interface AddressPolicy {
  allowPrivate: boolean;
}

/** Why `ip` may not be reached, or null when it may. */
export function refusalReason(ip: string, policy: AddressPolicy): string | null {
  let address = ip;
  let family = net.isIP(address);
  if (family === 0) return `${ip} is not an IP address`;
  // An IPv4-mapped IPv6 address (::ffff:10.0.0.1) reaches the IPv4 host: judge that one.
  const mapped = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/i.exec(address);
  if (mapped) {
    address = mapped[1];
    family = 4;
  }
  const type = family === 4 ? 'ipv4' : 'ipv6';
  if (ALWAYS_REFUSED.check(address, type)) return `${ip} is a link-local, metadata or reserved address, which push targets may never use`;
  if (!policy.allowPrivate && PRIVATE.check(address, type)) return `${ip} is a private or loopback address, which push targets may not use here`;
  return null;
}

export function refusedHostName(host: string): string | null {
  const name = host.toLowerCase().replace(/\.$/, '');
  return REFUSED_NAMES.has(name) ? `${host} is a metadata service name` : null;
}

/** URL hostnames keep IPv6 literals in brackets; the resolver and net want them bare. */
export const bareHost = (hostname: string) => hostname.replace(/^\[(.*)\]$/, '$1');

export type ResolveOutcome = { ok: true; addresses: string[] } | { ok: false; reason: string };

/** Resolves a host (IP literals as themselves) and judges every address it gives. */
export async function resolveAllowed(hostname: string, policy: AddressPolicy): Promise<ResolveOutcome> {
  const host = bareHost(hostname);
  const byName = refusedHostName(host);
  if (byName) return { ok: false, reason: byName };
  let addresses: string[];
  if (net.isIP(host)) addresses = [host];
  else {
    try {
      addresses = (await dns.promises.lookup(host, { all: true, verbatim: true })).map((a) => a.address);
    } catch (err) {
      return { ok: false, reason: `${host} could not be resolved (${(err as NodeJS.ErrnoException).code ?? 'lookup failed'})` };
    }
  }
  if (addresses.length === 0) return { ok: false, reason: `${host} has no addresses` };
  // One refused address refuses the host: the client may pick any of them.
  for (const a of addresses) {
    const reason = refusalReason(a, policy);
    if (reason) return { ok: false, reason };
  }
  return { ok: true, addresses };
}
