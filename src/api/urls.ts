// API URLs and URLs as they may be printed. A URL a user or a server gave (an API URL, a git
// remote, a redirect's Location) can carry credentials, and CI remotes do carry tokens.

/** The versioned base of an API URL, as requests (and the archive's record of a sync) use it. */
export function apiBaseUrl(root: string): string {
  return `${root.replace(/\/+$/, "")}/v1`;
}

/** Remove user:password@ from anything URL-like before it is printed. */
export function stripUserinfo(text: string): string {
  return text.replace(/^([a-z][a-z0-9+.-]*:\/\/)[^/@\s]*@/i, "$1");
}

/**
 * A host name that is this machine by its spelling alone: `localhost`, 127.0.0.0/8, `::1`. The token
 * may travel over plain http:// to these, and requests to them never go through a proxy (as curl
 * and Go do): the proxy would otherwise read the token in clear.
 */
export function isLoopbackHost(hostname: string): boolean {
  const h = hostname.toLowerCase();
  return h === "localhost" || h === "[::1]" || h === "::1" || /^127(\.\d{1,3}){3}$/.test(h);
}
