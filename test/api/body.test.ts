// The capped body reader against a real loopback server: a 600 MB page is cut off at the cap (the
// server stops sending long before the end), invalid UTF-8 is reported, a BOM is dropped.
import { afterEach, describe, expect, it } from "vitest";
import { request } from "undici";
import { BodyTooLargeError, readBodyText } from "../../src/api/body.js";
import { startFaultServer, type FaultServer } from "../helpers/fault-server.js";

let server: FaultServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

describe("readBodyText", () => {
  it("stops reading a 600 MB body at the cap and drops the connection", async () => {
    const chunk = Buffer.alloc(1024 * 1024, 0x20);
    let sent = 0;
    server = await startFaultServer(() => ({
      kind: "stream",
      chunks: function* () {
        for (let i = 0; i < 600; i++) {
          sent += chunk.length;
          yield chunk;
        }
      },
    }));
    const res = await request(`${server.url}/big`);
    const failure = await readBodyText(res.body, 8 * 1024 * 1024).catch((e: unknown) => e);
    expect(failure).toBeInstanceOf(BodyTooLargeError);
    // the socket buffers hold a few MB; nowhere near the 600 MB the server meant to send
    await new Promise((r) => setTimeout(r, 50));
    expect(sent).toBeLessThan(100 * 1024 * 1024);
  });

  it("fails at once on a Content-Length above the cap", async () => {
    let destroyed = false;
    let read = false;
    const body = {
      destroy() {
        destroyed = true;
      },
      async *[Symbol.asyncIterator]() {
        read = true;
        yield Buffer.from("x");
      },
    };
    const failure = await readBodyText(body, 1024, "99999999999").catch((e: unknown) => e);
    expect(failure).toBeInstanceOf(BodyTooLargeError);
    expect((failure as BodyTooLargeError).announced).toBe(99999999999);
    expect([destroyed, read]).toEqual([true, false]);
  });

  it("reports invalid UTF-8 and drops a byte order mark", async () => {
    const body = (bytes: number[]) => ({
      destroy() {},
      async *[Symbol.asyncIterator]() {
        yield Buffer.from(bytes);
      },
    });
    expect(await readBodyText(body([0x7b, 0xff, 0x7d]))).toEqual({ text: "{\uFFFD}", bytes: 3, invalidUtf8: true });
    expect(await readBodyText(body([0xef, 0xbb, 0xbf, 0x31]))).toEqual({ text: "1", bytes: 4, invalidUtf8: false });
    // ASCII without a byte order mark: the bytes are the text, one a character
    expect((await readBodyText(body([0x31, 0x32]))).ascii).toEqual(Buffer.from("12"));
    expect((await readBodyText(body([0x22, 0xc3, 0xa9, 0x22]))).ascii).toBeUndefined();
  });
});
