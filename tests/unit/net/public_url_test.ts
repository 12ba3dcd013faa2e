/**
 * The decision whether the server may connect to a URL someone else chose: every loopback,
 * private, link-local, unique-local, shared, mapped, NAT64, multicast and numeric form refused,
 * local names refused, only the browser vendors' push services admitted, and a name refused
 * when it resolves to an inward address.
 */
import assert from "node:assert/strict";
import {
  addressRefusal,
  checkOutboundUrl,
  judgeUrl,
  parseIPv6,
  requesterNetwork,
  type Resolver,
} from "@/lib/net/public_url.ts";
import { ATTACK_ENDPOINTS } from "@/tests/helpers/push_service.ts";

const publicDns: Resolver = () => Promise.resolve(["142.250.74.42", "2a00:1450:4007:80e::200a"]);
const resolvesTo = (...addresses: string[]): Resolver => () => Promise.resolve(addresses);

Deno.test("[public url] refuses every address form of the attack run, resolving nothing", async (t) => {
  let asked = 0;
  const resolve: Resolver = (host) => {
    asked++;
    return publicDns(host);
  };
  for (const endpoint of ATTACK_ENDPOINTS) {
    await t.step(endpoint, async () => {
      const verdict = await checkOutboundUrl(endpoint, {}, resolve);
      assert.ok("refused" in verdict, `${endpoint} admitted`);
      assert.notEqual(verdict.transient, true);
    });
  }
  assert.equal(asked, 0, "refused before any DNS question");
});

Deno.test("[public url] inward addresses are refused, public ones are not", () => {
  const inward = [
    "127.0.0.1",
    "127.255.255.254",
    "0.0.0.0",
    "0.1.2.3",
    "10.0.0.1",
    "10.255.255.255",
    "172.16.0.1",
    "172.31.255.255",
    "192.168.1.1",
    "169.254.169.254",
    "100.64.0.1",
    "100.127.255.255",
    "224.0.0.1",
    "239.255.255.250",
    "255.255.255.255",
    "240.0.0.1",
    "192.0.2.1",
    "198.18.0.1",
    "::1",
    "::",
    "::ffff:127.0.0.1",
    "::ffff:7f00:1",
    "::ffff:a9fe:a9fe",
    "::127.0.0.1",
    "64:ff9b::7f00:1",
    "64:ff9b::a9fe:a9fe",
    "fc00::1",
    "fd00::1",
    "fdff:ffff::1",
    "fe80::1",
    "febf::1",
    "ff02::1",
    "2002:7f00:1::1",
    "2001:0:4136:e378::1",
    "2001:db8::1",
    "100::1",
    "[::1]",
  ];
  for (const address of inward) assert.ok(addressRefusal(address), `${address} admitted`);
  const outward = [
    "142.250.74.42",
    "8.8.8.8",
    "172.15.255.255",
    "172.32.0.1",
    "100.63.255.255",
    "100.128.0.1",
    "169.253.0.1",
    "2a00:1450:4007:80e::200a",
    "2606:4700::1111",
  ];
  for (const address of outward) assert.equal(addressRefusal(address), null, address);
});

Deno.test("[public url] IPv6 texts parse in every spelling", () => {
  assert.deepEqual(parseIPv6("::1"), [0, 0, 0, 0, 0, 0, 0, 1]);
  assert.deepEqual(parseIPv6("[::ffff:127.0.0.1]"), [0, 0, 0, 0, 0, 0xffff, 0x7f00, 1]);
  assert.deepEqual(parseIPv6("2001:db8::"), [0x2001, 0xdb8, 0, 0, 0, 0, 0, 0]);
  assert.deepEqual(parseIPv6("1:2:3:4:5:6:7:8"), [1, 2, 3, 4, 5, 6, 7, 8]);
  for (const bad of ["1::2::3", "1:2:3", "12345::1", "::1.2.3", "fe80::1%eth0", "example.com"]) {
    assert.equal(parseIPv6(bad), null, bad);
  }
});

Deno.test("[public url] only the browsers' push services are admitted by default", async () => {
  const admitted = [
    "https://fcm.googleapis.com/fcm/send/abc:def",
    "https://fcm.googleapis.com/wp/abc",
    "https://updates.push.services.mozilla.com/wpush/v2/gAAAA",
    "https://wns2-par02p.notify.windows.com/w/?token=BQYAAA",
    "https://web.push.apple.com/QOa8",
    "https://FCM.googleapis.com./fcm/send/x",
  ];
  for (const url of admitted) {
    const verdict = await checkOutboundUrl(url, {}, publicDns);
    assert.ok(!("refused" in verdict), `${url}: ${"refused" in verdict && verdict.refused}`);
  }
  const refused = [
    "https://push.services.mozilla.com.evil.example/x",
    "https://evilfcm.googleapis.com/x",
    "https://notify.windows.com.example/x",
    "https://example.com/x",
    "https://8.8.8.8/x",
    "https://push/x",
    "https://router.lan/x",
    "https://printer.local/x",
    "https://metadata.google.internal/x",
    "ftp://fcm.googleapis.com/x",
    "not a url",
  ];
  for (const url of refused) {
    const verdict = await checkOutboundUrl(url, {}, publicDns);
    assert.ok("refused" in verdict, `${url} admitted`);
  }
});

Deno.test("[public url] an admitted name that resolves inward is refused; one that does not resolve is transient", async () => {
  const url = "https://fcm.googleapis.com/fcm/send/x";
  for (const inward of ["127.0.0.1", "10.1.2.3", "169.254.169.254", "::1", "::ffff:10.0.0.1"]) {
    const verdict = await checkOutboundUrl(url, {}, resolvesTo("142.250.74.42", inward));
    assert.ok("refused" in verdict && !verdict.transient, inward);
    assert.match((verdict as { refused: string }).refused, /^resolves to /);
  }
  const nowhere = await checkOutboundUrl(url, {}, () => Promise.reject(new Error("timed out")));
  assert.ok("refused" in nowhere && nowhere.transient === true);
});

Deno.test("[public url] allowLocal admits this machine's loopback only, over http or https", async () => {
  const local = { allowLocal: true };
  for (
    const url of ["http://127.0.0.1:9000/push/x", "https://[::1]:9000/x", "http://localhost:1/x"]
  ) {
    assert.ok(!("refused" in judgeUrl(url, local)), url);
    assert.ok("refused" in judgeUrl(url), `${url} admitted without allowLocal`);
  }
  for (const url of ["http://10.0.0.1/x", "https://169.254.169.254/", "http://example.com/x"]) {
    assert.ok("refused" in await checkOutboundUrl(url, local, publicDns), url);
  }
});

Deno.test("[public url] a requester is its IPv4 address, or its IPv6 /64", () => {
  assert.equal(requesterNetwork("198.51.100.7"), "198.51.100.7");
  assert.equal(requesterNetwork("2001:db8:1:2:aaaa::1"), "2001:db8:1:2::/64");
  assert.equal(requesterNetwork("2001:db8:1:2:bbbb::9"), "2001:db8:1:2::/64");
});
