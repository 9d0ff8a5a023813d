// The proxy variables (HTTP_PROXY, HTTPS_PROXY and their lower-case forms) are input like a flag:
// checked before any request. undici threw a bare "Invalid URL" TypeError for a value that is not
// a URL, which mq reported as an internal error (exit 70).
import { UsageError } from "../errors.js";
import { messageText } from "../iostreams/terminal-text.js";

/**
 * The proxy URL for undici, from an environment value: `host:port` without a scheme means http://,
 * as curl reads it. Anything else that is not an http:// or https:// URL with a host is a usage
 * error naming the variable (exit 2).
 */
export function proxyUrl(name: string, value: string): string {
  const trimmed = value.trim();
  const withScheme = /^[a-z][a-z0-9+.-]*:\/\//i.test(trimmed) ? trimmed : `http://${trimmed}`;
  let url: URL;
  try {
    url = new URL(withScheme);
  } catch {
    throw notAProxy(name, value);
  }
  if (url.protocol !== "http:" && url.protocol !== "https:") {
    throw new UsageError(
      `${name} uses ${messageText(url.protocol)}//, which mq does not support: "${messageText(value)}"`,
      "set it to an HTTP proxy, http://host:port (or unset it)",
    );
  }
  if (url.hostname === "" || /\s/.test(trimmed)) throw notAProxy(name, value);
  return withScheme;
}

function notAProxy(name: string, value: string): UsageError {
  return new UsageError(`${name} is not a proxy URL: "${messageText(value)}"`, "set it to http://host:port (or unset it)");
}
