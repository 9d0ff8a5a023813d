// A response whose body stops before its end, from a raw TCP server (node:net: it writes the bytes
// it likes and closes or resets the connection where it likes, which node:http's server will not).
// The headers arrive, then part of the body, then the connection goes: the message said "the
// connection to HOST was reset" even when the server had closed it cleanly. It now says what
// happened and how much came, on both wires; the cut is retried as a reset is (exit 6 after 4
// attempts). A body with no length at all ends where the connection closes: its JSON is cut.
import { createServer, type Server, type Socket } from "node:net";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { eventRange, pageBody } from "../helpers/fault-server.js";
import { lines, onEachWire, runMq, TOKEN } from "./harness.js";

const BODY = JSON.stringify(pageBody(eventRange(100, 5)));
const SENT = 300;

type Cut = (socket: Socket) => void;
const head = (...headers: string[]) =>
  `HTTP/1.1 200 OK\r\ncontent-type: application/json\r\n${headers.map((h) => `${h}\r\n`).join("")}\r\n`;
/** write, then close (FIN) or reset (RST) once the bytes have left */
const then = (socket: Socket, bytes: string, end: "close" | "reset") =>
  socket.write(bytes, () => setTimeout(() => (end === "close" ? socket.end() : socket.resetAndDestroy()), 20));

const CUTS: Record<string, Cut> = {
  "Content-Length, then closed": (s) => then(s, head(`content-length: ${BODY.length}`) + BODY.slice(0, SENT), "close"),
  "Content-Length, then reset": (s) => then(s, head(`content-length: ${BODY.length}`) + BODY.slice(0, SENT), "reset"),
  "chunked, closed in the middle of a chunk": (s) =>
    then(s, head("transfer-encoding: chunked") + `${BODY.length.toString(16)}\r\n${BODY.slice(0, SENT)}`, "close"),
  "chunked, closed between chunks (no last chunk)": (s) =>
    then(s, head("transfer-encoding: chunked") + `${SENT.toString(16)}\r\n${BODY.slice(0, SENT)}\r\n`, "close"),
  "no length (ends where the connection closes)": (s) => then(s, head("connection: close") + BODY.slice(0, SENT), "close"),
};

let server: Server;
let url = "";
let cut: Cut = () => undefined;
/** the request line and authorization header of each request received */
const received: string[] = [];

beforeAll(async () => {
  server = createServer((socket) => {
    socket.on("error", () => undefined);
    let text = "";
    socket.on("data", (d: Buffer) => {
      text += d.toString("latin1");
      if (!text.includes("\r\n\r\n")) return;
      const [requestLine, ...headers] = text.split("\r\n\r\n")[0]!.split("\r\n");
      received.push(`${requestLine} ${headers.find((h) => /^authorization:/i.test(h)) ?? "(no authorization)"}`);
      text = "";
      cut(socket);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));
beforeEach(() => {
  received.length = 0;
});

const REQUEST = `GET /v1/repos/acme/web/logs?per_page=5 HTTP/1.1 authorization: Bearer ${TOKEN}`;
const host = () => url.replace("http://", "");

onEachWire(() => {
  describe("a body cut short of its end", () => {
    it.each([
      ["Content-Length, then closed", `(got 300 of ${BODY.length.toLocaleString("en-US")} bytes)`],
      ["Content-Length, then reset", `(got 300 of ${BODY.length.toLocaleString("en-US")} bytes)`],
      ["chunked, closed in the middle of a chunk", "(got 300 bytes)"],
      ["chunked, closed between chunks (no last chunk)", "(got 300 bytes)"],
    ])("%s: says the connection closed before the whole response arrived and how much came; retried, exit 6", async (name, got) => {
      cut = CUTS[name]!;
      const r = await runMq(["logs", "-o", "ndjson", "--per-page", "5"], { apiUrl: url });
      expect(r.code).toBe(6);
      expect(r.stdout).toBe("");
      expect(lines(r.stderr)).toEqual([
        `mq: the connection to ${host()} closed before the whole response arrived ${got}, after 4 attempts`,
      ]);
      expect(received).toEqual([REQUEST, REQUEST, REQUEST, REQUEST]);
      expect(r.sleeps).toHaveLength(3);
    });

    it("--no-retry: one request, the same message without the attempts", async () => {
      cut = CUTS["Content-Length, then closed"]!;
      const r = await runMq(["logs", "-o", "ndjson", "--per-page", "5", "--no-retry"], { apiUrl: url });
      expect(r.code).toBe(6);
      expect(lines(r.stderr)).toEqual([
        `mq: the connection to ${host()} closed before the whole response arrived (got 300 of ${BODY.length.toLocaleString("en-US")} bytes)`,
      ]);
      expect(received).toEqual([REQUEST]);
    });

    it.each([
      ["closed", (s: Socket) => s.end(), "closed the connection without answering"],
      ["reset", (s: Socket) => s.resetAndDestroy(), "was reset"],
    ] as const)("before any answer, %s: says which, after 4 attempts", async (_name, act, what) => {
      cut = act;
      const r = await runMq(["logs", "-o", "ndjson", "--per-page", "5"], { apiUrl: url });
      expect(r.code).toBe(6);
      const said = what === "was reset" ? `the connection to ${host()} was reset` : `${host()} ${what}`;
      expect(lines(r.stderr)).toEqual([`mq: ${said} after 4 attempts`]);
      expect(received).toEqual([REQUEST, REQUEST, REQUEST, REQUEST]);
    });

    it("no length: the JSON stops before its end (not retried: nothing says it was cut but the JSON)", async () => {
      cut = CUTS["no length (ends where the connection closes)"]!;
      const r = await runMq(["logs", "-o", "ndjson", "--per-page", "5"], { apiUrl: url });
      expect(r.code).toBe(6);
      expect(r.stdout).toBe("");
      expect(lines(r.stderr)).toEqual([
        "mq: GET /v1/repos/acme/web/logs returned HTTP 200 with JSON that stops before its end (300 bytes)",
        "the answer was cut short on the way (the connection closed early, or the server sent it so); try again",
      ]);
      expect(received).toEqual([REQUEST]);
    });
  });
});
