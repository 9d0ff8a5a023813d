import { describe, expect, it } from "vitest";
import { proxyUrl } from "../../src/api/proxy-env.js";
import { UsageError } from "../../src/errors.js";

describe("proxyUrl", () => {
  it.each([
    ["http://proxy.corp:3128", "http://proxy.corp:3128"],
    ["https://u:p@proxy.corp", "https://u:p@proxy.corp"],
    ["proxy.corp:3128", "http://proxy.corp:3128"],
    [" http://p:1 ", "http://p:1"],
  ])("%j → %s", (value, url) => {
    expect(proxyUrl("HTTPS_PROXY", value)).toBe(url);
  });

  it.each([
    ["not a url", 'HTTPS_PROXY is not a proxy URL: "not a url"'],
    ["http://", 'HTTPS_PROXY is not a proxy URL: "http://"'],
    ["http://[::1", 'HTTPS_PROXY is not a proxy URL: "http://[::1"'],
    ["socks5://p:1080", 'HTTPS_PROXY uses socks5://, which mq does not support: "socks5://p:1080"'],
    ["\x1b]0;x\x07", 'HTTPS_PROXY is not a proxy URL: "\\x1b]0;x\\x07"'],
  ])("%j is a usage error", (value, message) => {
    const err = (() => {
      try {
        proxyUrl("HTTPS_PROXY", value);
      } catch (e) {
        return e;
      }
    })();
    expect(err).toBeInstanceOf(UsageError);
    expect((err as UsageError).message).toBe(message);
  });
});
