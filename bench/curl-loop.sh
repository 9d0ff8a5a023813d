#!/usr/bin/env bash
# The script a shell user would write: fetch a page with curl, print its events with jq, follow the
# `Link: <...>; rel="next"` header until there is none. Usage: curl-loop.sh FIRST_URL TOKEN
set -euo pipefail
url=$1
token=$2
# a Link URL may be a relative reference (RFC 8288; mq serve sends path-absolute ones): the origin
origin=$(printf '%s' "$url" | sed -E 's#^(https?://[^/]+).*#\1#')
body=$(mktemp)
trap 'rm -f "$body"' EXIT
while [ -n "$url" ]; do
  # -w '%header{link}' (curl >= 7.84) hands back the Link header without a second process
  link=$(curl -sS --fail -H "Authorization: Bearer $token" -o "$body" -w '%header{link}' "$url")
  jq -c '.events[]' "$body"
  url=""
  IFS=',' read -ra parts <<< "$link"
  for part in "${parts[@]}"; do
    if [[ $part == *'rel="next"'* ]]; then
      url=${part#*<}
      url=${url%%>*}
      if [[ $url == /* ]]; then url="$origin$url"; fi
    fi
  done
done
