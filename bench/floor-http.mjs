// The floor on node:http, the transport mq uses by default: the same pages and the same ndjson on
// stdout as floor.mjs (the bare undici loop), over one keep-alive connection, with nothing on top
// (no validation, no retries, no deadline). Usage: floor-http.mjs URL TOKEN
import http from "node:http";

const [first, token] = process.argv.slice(2);
const agent = new http.Agent({ keepAlive: true });
const headers = { authorization: `Bearer ${token}` };
const NEXT = /<([^>]*)>\s*;\s*rel="?next"?/;

function get(url) {
  return new Promise((resolve, reject) => {
    http
      .get(url, { agent, headers }, (res) => {
        let body = "";
        res.setEncoding("utf8");
        res.on("data", (c) => (body += c));
        res.on("end", () => resolve({ status: res.statusCode, link: res.headers.link, body }));
        res.on("error", reject);
      })
      .on("error", reject);
  });
}

function write(chunk) {
  return process.stdout.write(chunk) ? undefined : new Promise((resolve) => process.stdout.once("drain", resolve));
}

let url = first;
while (url) {
  const res = await get(url);
  if (res.status !== 200) throw new Error(`HTTP ${res.status} for ${url}: ${res.body.slice(0, 300)}`);
  const page = JSON.parse(res.body);
  let out = "";
  for (const event of page.events) out += JSON.stringify(event) + "\n";
  await write(out);
  // a Link URL may be a relative reference (RFC 8288; mq serve sends those): resolved against this page's
  const next = typeof res.link === "string" ? NEXT.exec(res.link)?.[1] : undefined;
  url = next === undefined ? undefined : new URL(next, url).href;
}
agent.destroy();
