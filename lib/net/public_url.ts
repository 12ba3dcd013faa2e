/**
 * Whether the server may connect to a URL someone else chose (a browser's push endpoint): the
 * server sits inside a network (cloud metadata, private services, its own loopback ports) that
 * such a URL must never reach. A URL passes when it is https, names an admitted host (by default
 * only the browser vendors' push services), and that host resolves to public addresses only.
 * Numeric hosts in any spelling (`127.1`, `2130706433`, `0x7f.1`, octal) reach here already
 * rewritten to dotted quads by the URL parser, and are judged as the address they are.
 */

/** The push services real browsers subscribe at (Chromium browsers, Firefox, Edge, Safari). */
export const PUSH_SERVICE_HOSTS: readonly string[] = [
  "fcm.googleapis.com", // Chrome, Opera, Samsung Internet, Brave
  "*.push.services.mozilla.com", // Firefox (updates.push.services.mozilla.com)
  "*.notify.windows.com", // Edge on Windows (WNS)
  "web.push.apple.com", // Safari
  "*.push.apple.com",
];

/** Who may be connected to. */
export interface OutboundPolicy {
  /** Host names admitted (`*.` admits every name below); default PUSH_SERVICE_HOSTS. */
  hosts?: readonly string[];
  /** Also admit this machine's loopback (http or https), for tests and benches (PUSH_ALLOW_LOCAL). */
  allowLocal?: boolean;
}

/** The addresses a host name resolves to (A and AAAA); throws when it cannot be resolved. */
export type Resolver = (host: string) => Promise<string[]>;

/** Why a URL is refused, in words that follow "Push endpoint" (the field it came in). */
export type Refusal = { refused: string; transient?: false } | {
  refused: string;
  /** Resolution failed for now (no answer, no records): not the URL's fault, try later. */
  transient: true;
};

/** A URL admitted (with the addresses its host resolved to), or why not. */
export type Verdict = { url: URL; addresses: string[] } | Refusal;

const LOCAL_NAMES = /(^|\.)(localhost|local|internal|intranet|lan|home|corp|home\.arpa)$/;

/** The four bytes of a dotted-quad IPv4 address, or null when `text` is not one. */
export function parseIPv4(text: string): number[] | null {
  const parts = text.split(".");
  if (parts.length !== 4 || !parts.every((p) => /^(0|[1-9]\d{0,2})$/.test(p))) return null;
  const bytes = parts.map(Number);
  return bytes.every((b) => b <= 255) ? bytes : null;
}

/** The eight 16-bit groups of an IPv6 address (brackets allowed, dotted tail allowed), or null. */
export function parseIPv6(text: string): number[] | null {
  let s = text.startsWith("[") && text.endsWith("]") ? text.slice(1, -1) : text;
  if (!s.includes(":") || s.includes("%")) return null;
  const dotted = /(\d+\.\d+\.\d+\.\d+)$/.exec(s);
  if (dotted) {
    const v4 = parseIPv4(dotted[1]);
    if (!v4 || !s.slice(0, dotted.index).endsWith(":")) return null;
    const hex = (hi: number, lo: number) => ((hi << 8) | lo).toString(16);
    s = s.slice(0, dotted.index) + `${hex(v4[0], v4[1])}:${hex(v4[2], v4[3])}`;
  }
  const halves = s.split("::");
  if (halves.length > 2) return null;
  const group = (h: string) => h === "" ? [] : h.split(":");
  const head = group(halves[0]);
  const rest = halves.length === 2 ? group(halves[1]) : [];
  if (![...head, ...rest].every((g) => /^[0-9a-fA-F]{1,4}$/.test(g))) return null;
  const known = head.length + rest.length;
  if (halves.length === 1 ? known !== 8 : known > 7) return null;
  const hex = (g: string) => parseInt(g, 16);
  return [...head.map(hex), ...new Array(8 - known).fill(0), ...rest.map(hex)];
}

/** Why an IPv4 address is not a public one (null: it is). */
function ipv4Refusal([a, b, c, d]: number[]): string | null {
  if (a === 127) return "a loopback address";
  if (a === 0) return "an unspecified address (0.0.0.0/8)";
  if (a === 10 || (a === 172 && b >= 16 && b <= 31) || (a === 192 && b === 168)) {
    return "a private address";
  }
  if (a === 169 && b === 254) return "a link-local address";
  if (a === 100 && b >= 64 && b <= 127) return "a shared (CGNAT) address";
  if (a >= 224 && a <= 239) return "a multicast address";
  if (a === 255 && b === 255 && c === 255 && d === 255) return "the broadcast address";
  if (a >= 240) return "a reserved address";
  if (
    (a === 192 && b === 0 && (c === 0 || c === 2)) || (a === 192 && b === 88 && c === 99) ||
    (a === 198 && (b === 18 || b === 19)) || (a === 198 && b === 51 && c === 100) ||
    (a === 203 && b === 0 && c === 113)
  ) return "a reserved address";
  return null;
}

/**
 * Why an IPv6 address is not a public one (null: it is). Only global unicast (2000::/3) passes,
 * less the ranges that carry or reach IPv4 or nothing (6to4, Teredo, documentation): so `::1`,
 * `::`, mapped and compatible IPv4 (`::ffff:127.0.0.1`), NAT64 (64:ff9b::/96), unique-local
 * (fc00::/7), link-local (fe80::/10) and multicast are all refused.
 */
function ipv6Refusal(g: number[]): string | null {
  if (g.slice(0, 7).every((x) => x === 0) && g[7] === 1) return "a loopback address";
  if (g.slice(0, 5).every((x) => x === 0) && (g[5] === 0xffff || g[5] === 0)) {
    return "an IPv4 address in IPv6 form";
  }
  if (g[0] === 0x64 && g[1] === 0xff9b) return "a NAT64 address";
  if ((g[0] & 0xfe00) === 0xfc00) return "a unique-local address";
  if ((g[0] & 0xffc0) === 0xfe80) return "a link-local address";
  if ((g[0] & 0xff00) === 0xff00) return "a multicast address";
  if ((g[0] & 0xe000) !== 0x2000) return "a reserved address";
  if (g[0] === 0x2002) return "a 6to4 address";
  if (g[0] === 0x2001 && g[1] < 0x200) return "a reserved address"; // Teredo, ORCHID, …
  if ((g[0] === 0x2001 && g[1] === 0xdb8) || (g[0] & 0xfff0) === 0x3ff0) {
    return "a documentation address";
  }
  return null;
}

/** Why `address` (an IPv4 or IPv6 literal) is not a public address; null when it is. */
export function addressRefusal(address: string): string | null {
  const v4 = parseIPv4(address);
  if (v4) return ipv4Refusal(v4);
  const v6 = parseIPv6(address);
  if (v6) return ipv6Refusal(v6);
  return "not an IP address";
}

/** Whether `address` (a literal) is this machine's loopback. */
function isLoopback(address: string): boolean {
  const v4 = parseIPv4(address);
  if (v4) return v4[0] === 127;
  const v6 = parseIPv6(address);
  return v6 !== null && v6.slice(0, 7).every((x) => x === 0) && v6[7] === 1;
}

/** Whether `host` is one of `patterns` (`*.example.com` admits every name below it). */
export function hostAdmitted(host: string, patterns: readonly string[]): boolean {
  return patterns.some((p) =>
    p.startsWith("*.") ? host.endsWith(p.slice(1)) && host.length > p.length - 1 : host === p
  );
}

/** The addresses `host` resolves to, from DNS (A and AAAA); throws when it has none. */
export const resolveHost: Resolver = async (host) => {
  const answers = await Promise.allSettled([
    Deno.resolveDns(host, "A"),
    Deno.resolveDns(host, "AAAA"),
  ]);
  const addresses = answers.flatMap((a) => a.status === "fulfilled" ? a.value : []);
  if (addresses.length === 0) {
    const failed = answers.find((a) => a.status === "rejected");
    throw failed?.reason ?? new Error(`${host} has no address`);
  }
  return addresses;
};

/**
 * The verdict on `raw` without resolving its host: refused, or admitted pending resolution
 * (`addresses` is filled only for a loopback that `allowLocal` admits: it needs no resolution).
 */
export function judgeUrl(raw: string, policy: OutboundPolicy = {}): Verdict {
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    return { refused: "must be a URL" };
  }
  if (url.protocol !== "https:" && url.protocol !== "http:") return { refused: "must use https" };
  if (url.username || url.password) return { refused: "must not carry a user name or password" };
  const host = url.hostname.toLowerCase().replace(/\.$/, "");
  const literal = parseIPv4(host) || parseIPv6(host) ? host : null;
  const loopback = literal ? isLoopback(literal) : host === "localhost";
  if (policy.allowLocal && loopback) return { url, addresses: [literal ?? "127.0.0.1"] };
  if (url.protocol !== "https:") return { refused: "must use https" };
  if (literal) {
    const why = addressRefusal(literal);
    return { refused: why ? `points at ${why}` : "must name a push service, not an address" };
  }
  if (!host.includes(".") || LOCAL_NAMES.test(host)) return { refused: "names a local host" };
  if (!hostAdmitted(host, policy.hosts ?? PUSH_SERVICE_HOSTS)) {
    return { refused: "must be a browser's push service" };
  }
  return { url, addresses: [] };
}

/**
 * Judges `raw` and resolves its host: every address it resolves to must be public (a name that
 * resolves to a private address is refused for good; one that does not resolve now is a
 * transient refusal). Call it right before each connection, so a name changed since is caught.
 */
export async function checkOutboundUrl(
  raw: string,
  policy: OutboundPolicy = {},
  resolve: Resolver = resolveHost,
): Promise<Verdict> {
  const verdict = judgeUrl(raw, policy);
  if ("refused" in verdict || verdict.addresses.length > 0) return verdict;
  const host = verdict.url.hostname.replace(/\.$/, "");
  let addresses: string[];
  try {
    addresses = await resolve(host);
  } catch (err) {
    const why = err instanceof Error ? err.message : String(err);
    return { refused: `host does not resolve (${why})`, transient: true };
  }
  for (const address of addresses) {
    if (policy.allowLocal && isLoopback(address)) continue;
    const why = addressRefusal(address);
    if (why) return { refused: `resolves to ${why}` };
  }
  return { url: verdict.url, addresses };
}

/**
 * The network a client address stands for in per-requester limits: an IPv4 address itself, an
 * IPv6 address's /64 (one subscriber holds a whole /64 and can pick any address in it).
 */
export function requesterNetwork(address: string): string {
  const v6 = parseIPv6(address);
  if (!v6 || parseIPv4(address)) return address;
  return `${v6.slice(0, 4).map((g) => g.toString(16)).join(":")}::/64`;
}
