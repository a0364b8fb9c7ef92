#!/usr/bin/env bash
# What the tests need beyond npm, installed from Debian when absent (run by `npm test` as its
# `pretest` step, so the README's test command works on a fresh machine; needs root for apt-get).
set -uo pipefail

# What the tests need beyond npm: python3 (Python's xmlrpc.client is Odoo's own client).
if ! command -v python3 >/dev/null 2>&1; then
  (apt-get update -qq && apt-get install -y -qq python3) >/dev/null 2>&1 || echo "warning: could not install python3"
fi

# --- interop clients (test/interop, issue #7): the legacy client libraries, from Debian, when absent ---
# python3-odoorpc (OdooRPC 0.9.0, into Debian's own python3), librpc-xml-perl (RPC::XML::Client),
# ruby + ruby-xmlrpc (XMLRPC::Client; ruby-xmlrpc does not pull ruby in), php-cli + php-xmlrpc (PECL).
interop_packages="python3 python3-odoorpc perl librpc-xml-perl ruby ruby-xmlrpc php-cli php-xmlrpc"
interop_missing=$(for p in $interop_packages; do dpkg-query -W -f='${Status}\n' "$p" 2>/dev/null | grep -q '^install ok installed$' || echo "$p"; done)
if [ -n "$interop_missing" ]; then
  # shellcheck disable=SC2086 # one word per package
  (apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq $interop_missing) >/dev/null 2>&1 \
    || echo "warning: could not install" $interop_missing
fi
# --- end interop clients ---

# --- Redis (test/integration/replica*.test.ts, redis-outage, shared-report; issue #10) ---
# the tests use the one on 127.0.0.1:6379 (REDIS_URL to point elsewhere) and spawn throw-away
# redis-servers of their own to stop and restart.
bash "$(dirname "$0")/start-redis.sh"
# --- end Redis ---

# --- report page (test/integration/report-page.test.ts, issue #6): Debian's headless Chromium ---
# driven by playwright-core (npm) at /usr/bin/chromium; under CI the test fails rather than skips without it.
if ! command -v chromium >/dev/null 2>&1; then
  (apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq chromium) >/dev/null 2>&1 \
    || echo "warning: could not install chromium"
fi
# --- end report page ---
