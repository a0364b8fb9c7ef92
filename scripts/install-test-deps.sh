#!/usr/bin/env bash
# What the tests drive besides Node, installed from Debian when absent: `npm test` runs this as its
# `pretest` step, so the README's test command works on a fresh machine.
# - Everything present: prints nothing and takes a few milliseconds (one dpkg-query, one Redis ping).
# - Something missing, as root: says what it installs and why, then installs it with apt's progress
#   condensed to two lines.
# - Something missing, not root: fails at once with the command to run.
set -uo pipefail
say() { printf 'install-test-deps: %s\n' "$*"; }

# package|why: the tests that need it
wanted=(
  "python3|Python's xmlrpc.client (Odoo's own client): conformance, hardening and interop tests"
  "python3-odoorpc|OdooRPC, a legacy client the interop tests drive (test/interop)"
  "perl|Perl, for RPC::XML::Client (test/interop)"
  "librpc-xml-perl|RPC::XML::Client, a legacy client the interop tests drive (test/interop)"
  "ruby|Ruby, for XMLRPC::Client (test/interop)"
  "ruby-xmlrpc|XMLRPC::Client, a legacy client the interop tests drive (test/interop)"
  "php-cli|PHP, for the xmlrpc extension (test/interop)"
  "php-xmlrpc|PHP's xmlrpc extension, a legacy client the interop tests drive (test/interop)"
  "chromium|headless Chromium for the report page test (test/integration/report-page.test.ts)"
)
# redis-server: the replica tests' Redis when none answers on 127.0.0.1:6379 (the run starts one of
# its own and stops it: test/support/redis-global-setup.ts), and the outage tests' private ones.
wanted+=(
  "redis-server|Redis for the replica and outage tests (test/integration/replica*.test.ts, redis-*.test.ts), started and stopped by the run"
)
names=()
for entry in "${wanted[@]}"; do names+=("${entry%%|*}"); done

if ! command -v dpkg-query >/dev/null 2>&1; then
  say "not a Debian system: install ${names[*]} (or their equivalents) yourself; the tests that drive them fail without them" >&2
  exit 0
fi

# One dpkg-query for all of them: the fast path when everything is there.
installed=$(dpkg-query -W -f='${Package} ${Status}\n' "${names[@]}" 2>/dev/null | awk '$NF == "installed" { print $1 }')
missing=()
for name in "${names[@]}"; do [[ $'\n'"$installed"$'\n' == *$'\n'"$name"$'\n'* ]] || missing+=("$name"); done

if [ ${#missing[@]} -gt 0 ]; then
  say "the tests need these Debian packages, which are not installed:"
  for entry in "${wanted[@]}"; do
    name=${entry%%|*}
    [[ " ${missing[*]} " == *" $name "* ]] && printf '  %-16s %s\n' "$name" "${entry#*|}"
  done
  if [ "$(id -u)" != 0 ]; then
    say "installing them needs root. Run this, then npm test again:" >&2
    printf '  sudo apt-get update && sudo apt-get install -y %s\n' "${missing[*]}" >&2
    exit 1
  fi
  started=$SECONDS
  log=$(mktemp)
  trap 'rm -f "$log"' EXIT
  export DEBIAN_FRONTEND=noninteractive
  say "apt-get update (an apt already running, as on a fresh machine installing its updates, is waited for up to 5 minutes)"
  if ! apt-get update -q -o DPkg::Lock::Timeout=300 >"$log" 2>&1; then
    tail -n 20 "$log" >&2
    say "apt-get update failed (full output above)" >&2
    exit 1
  fi
  # What apt is about to do, from its own dry run: "12 newly installed", "Need to get 98.3 MB".
  plan=$(apt-get install --assume-no "${missing[@]}" 2>/dev/null | sed -nE 's/^([0-9]+) upgraded, ([0-9]+) newly installed.*/\2 packages with dependencies/p; s/^Need to get ([^ ]+ [^ /]+).*/\1 to download/p' | paste -sd ',' | sed 's/,/, /')
  say "apt-get install ${missing[*]}${plan:+ ($plan)}"
  # apt's machine-readable progress (APT::Status-Fd) condensed to one line per phase, every 10 %;
  # its usual output goes to the log, shown when it fails.
  apt-get install -y -q -o DPkg::Lock::Timeout=300 -o APT::Status-Fd=3 "${missing[@]}" 3>&1 >"$log" 2>&1 | awk -F: '
    function step(phase, pct,   p) {
      if (phase != current) { if (current != "") printf "\n"; printf "  %-11s", phase; current = phase; shown = -10 }
      p = int(pct / 10) * 10
      if (p > shown) { printf " %d%%", p; shown = p; fflush() }
    }
    $1 == "dlstatus" { step("downloading", $3) }
    $1 == "pmstatus" { step("installing", $3) }
    END { if (current != "") printf "\n" }'
  status=${PIPESTATUS[0]}
  if [ "$status" != 0 ]; then
    tail -n 20 "$log" >&2
    say "apt-get install failed (exit $status; its last lines above)" >&2
    exit 1
  fi
  say "installed in $((SECONDS - started)) s"
fi

