/** The URL guard's judgement of addresses and of allow_hosts entries. */
import { describe, expect, it } from "vitest";
import { addressRefusal, hostAllowed } from "../../../server/src/util/address-guard.js";

describe("addressRefusal", () => {
  it.each(["8.8.8.8", "93.184.216.34", "2606:2800:220:1:248:1893:25c8:1946", "::ffff:8.8.8.8"])("lets the public address %s through", (a) => {
    expect(addressRefusal(a)).toBeUndefined();
  });

  it.each([
    ["127.0.0.1", "loopback"],
    ["127.8.9.10", "loopback"],
    ["10.0.0.1", "private"],
    ["172.16.5.4", "private"],
    ["192.168.0.1", "private"],
    ["169.254.1.1", "link-local"],
    ["100.64.0.1", "carrier-grade NAT"],
    ["224.0.0.251", "multicast"],
    ["255.255.255.255", "broadcast"],
    ["0.0.0.0", "unspecified"],
    ["240.0.0.1", "reserved"],
    ["169.254.169.254", "metadata"],
    ["168.63.129.16", "metadata"],
    ["100.100.100.200", "metadata"],
    ["::1", "loopback"],
    ["::", "unspecified"],
    ["fe80::1", "link-local"],
    ["fc00::1", "unique local"],
    ["fd00:ec2::254", "metadata"],
    ["ff02::1", "multicast"],
    ["::ffff:10.0.0.1", "private"],
    ["::ffff:169.254.169.254", "metadata"],
    ["64:ff9b::a00:1", "NAT64"],
    ["2002:a00:1::", "6to4"],
  ])("refuses %s (%s)", (a, word) => {
    expect(addressRefusal(a)).toContain(word);
  });
});

describe("hostAllowed", () => {
  it("matches exact names and *.suffix subdomains, case and trailing dot aside", () => {
    expect(hostAllowed("Docs.Internal.", ["docs.internal"])).toBe(true);
    expect(hostAllowed("a.corp.example", ["*.corp.example"])).toBe(true);
    expect(hostAllowed("corp.example", ["*.corp.example"])).toBe(false);
    expect(hostAllowed("evilcorp.example", ["*.corp.example"])).toBe(false);
    expect(hostAllowed("[::1]", ["::1"])).toBe(true);
    expect(hostAllowed("docs.internal.evil.com", ["docs.internal"])).toBe(false);
  });
});
