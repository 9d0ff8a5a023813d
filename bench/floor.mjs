// The floor for a Node client: the same pages, the same ndjson on stdout, with nothing on top of a bare
// undici loop (no schema validation, no formatting options, no retries). Usage: floor.mjs URL TOKEN
import { request } from "undici";

const [first, token] = process.argv.slice(2);
const headers = { authorization: `Bearer ${token}` };
const NEXT = /<([^>]*)>\s*;\s*rel="?next"?/;

function write(chunk) {
  return process.stdout.write(chunk) ? undefined : new Promise((resolve) => process.stdout.once("drain", resolve));
}

let url = first;
while (url) {
  const res = await request(url, { headers });
  if (res.statusCode !== 200) throw new Error(`HTTP ${res.statusCode} for ${url}: ${await res.body.text()}`);
  const page = JSON.parse(await res.body.text());
  let out = "";
  for (const event of page.events) out += JSON.stringify(event) + "\n";
  await write(out);
  const link = res.headers.link;
  // a Link URL may be a relative reference (RFC 8288; mq serve sends those): resolved against this page's
  const next = typeof link === "string" ? NEXT.exec(link)?.[1] : undefined;
  url = next === undefined ? undefined : new URL(next, url).href;
}
