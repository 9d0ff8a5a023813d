// Nothing mq prints may show a token: neither the ones it knows (flag, environment, config) nor
// one a user pasted in the wrong place (`mq ghp_...`, `mq config get mqk_...`), which commander
// and mq would otherwise echo back in "unknown command" and "bad value" errors.

/** Token shapes worth hiding wherever they appear: GitHub's prefixed tokens and mq's own keys. */
const LIKELY_TOKEN = /\b(gh[pousr]_|github_pat_|mqk_)[A-Za-z0-9_-]{8,}/g;

export function redact(text: string, secrets: Iterable<string>): string {
  let out = text;
  for (const secret of secrets) {
    if (secret.length >= 4) out = out.split(secret).join("****");
  }
  return out.replace(LIKELY_TOKEN, "$1****");
}
