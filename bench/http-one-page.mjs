// The floor of a one-page Node client: node:http only (no undici, whose WebAssembly parser a short
// process pays for), one GET, the page's events as ndjson on stdout. Usage: http-one-page.mjs URL TOKEN
import http from "node:http";

const [url, token] = process.argv.slice(2);
http.get(url, { headers: { authorization: `Bearer ${token}` } }, (res) => {
  let body = "";
  res.setEncoding("utf8");
  res.on("data", (c) => (body += c));
  res.on("end", () => {
    if (res.statusCode !== 200) throw new Error(`HTTP ${res.statusCode}: ${body.slice(0, 300)}`);
    let out = "";
    for (const event of JSON.parse(body).events) out += JSON.stringify(event) + "\n";
    process.stdout.write(out);
  });
});
