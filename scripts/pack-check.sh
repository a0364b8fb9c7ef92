#!/usr/bin/env bash
# pack-check.sh — what an operator installing the npm package gets: packs the project from a clean
# copy of its files (no dist/: `npm pack` must build it, prepack), checks the tarball's contents (the
# compiled gateway, the simulator and its data for --demo, LICENSE; no source maps, no tests, no
# TypeScript sources), installs it into an empty directory with the production dependencies only,
# and runs the installed `legacy-rpc-gateway`: --help, --demo answering legacy XML-RPC calls, and
# --log-format pretty refused with a clear message (pino-pretty is a development dependency).
# Needs the project's dev dependencies installed (npm ci) and the npm registry or its cache.
# Prints "pack-check: ok" and exits 0, or says what failed and exits 1. About a minute.
set -euo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
work="$(mktemp -d)"
gateway_pid=""
cleanup() {
  if [ -n "$gateway_pid" ]; then kill "$gateway_pid" 2>/dev/null || true; fi
  rm -rf "$work"
}
trap cleanup EXIT
fail() { printf 'pack-check: FAIL: %s\n' "$*" >&2; exit 1; }
say() { printf 'pack-check: %s\n' "$*"; }

# 1. A clean copy: the files git tracks (or would track), no dist/, the installed node_modules linked.
mkdir -p "$work/src" "$work/install"
(cd "$root" && git ls-files -z --cached --others --exclude-standard | while IFS= read -r -d '' f; do
  [ -e "$f" ] && printf '%s\0' "$f"
done | xargs -0 cp --parents -t "$work/src")
[ ! -e "$work/src/dist" ] || fail "the clean copy holds a dist/"
ln -s "$root/node_modules" "$work/src/node_modules"

# 2. npm pack builds first (prepack) and the tarball holds what runs, nothing else.
say "npm pack (prepack builds dist/)"
(cd "$work/src" && npm pack --json --pack-destination "$work" --loglevel=error > "$work/pack.json") || fail "npm pack failed"
tarball="$work/$(node -e 'console.log(JSON.parse(require("fs").readFileSync(process.argv[1], "utf8"))[0].filename)' "$work/pack.json")"
[ -f "$tarball" ] || fail "npm pack wrote no tarball"
node - "$work/pack.json" <<'EOF' || fail "the tarball's contents are wrong (above)"
const files = JSON.parse(require('fs').readFileSync(process.argv[2], 'utf8'))[0].files.map((f) => f.path);
const problems = [];
for (const needed of ['LICENSE', 'README.md', 'package.json', 'dist/src/main.js', 'dist/sim/index.js', 'dist/fixtures/odoo-data/_method-signatures.json']) {
  if (!files.includes(needed)) problems.push(`missing ${needed}`);
}
const unwanted = files.filter((f) => /\.map$|\.test\.[jt]s$|(^|\/)test\/|\.ts$|^src\/|^sim\/|\.build-stamp$/.test(f));
if (unwanted.length > 0) problems.push(`should not ship: ${unwanted.slice(0, 10).join(', ')}${unwanted.length > 10 ? ` and ${unwanted.length - 10} more` : ''}`);
for (const p of problems) console.error(`pack-check: ${p}`);
console.log(`pack-check: ${files.length} files in the tarball`);
process.exit(problems.length > 0 ? 1 : 0);
EOF

# 3. Installed into an empty directory, production dependencies only.
say "npm install $(basename "$tarball") into an empty directory"
(cd "$work/install" && npm init -y >/dev/null && npm install --omit=dev --prefer-offline --no-audit --no-fund --loglevel=error "$tarball") || fail "installing the tarball failed"
bin="$work/install/node_modules/.bin/legacy-rpc-gateway"
[ -x "$bin" ] || fail "no legacy-rpc-gateway binary after install"
[ ! -e "$work/install/node_modules/pino-pretty" ] || fail "pino-pretty was installed with the production dependencies"

# 4. It runs: --help, then --demo answering legacy calls.
"$bin" --help | grep -q '^Usage: legacy-rpc-gateway' || fail "--help printed no usage"
if "$bin" --log-format pretty --port 0 --admin-port 0 > "$work/pretty.out" 2>&1; then fail "--log-format pretty started without pino-pretty"; fi
grep -q 'needs the pino-pretty package' "$work/pretty.out" || fail "--log-format pretty without pino-pretty: unclear message: $(cat "$work/pretty.out")"

say "legacy-rpc-gateway --demo"
(cd "$work/install" && exec "$bin" --demo --port 0 --admin-port 0 --demo-port 0 --log-level warn) > "$work/demo.out" 2> "$work/demo.err" &
gateway_pid=$!
url=""
for _ in $(seq 1 300); do
  url="$(sed -n 's/^Point legacy clients at \(http[^ ]*\) .*/\1/p' "$work/demo.err")"
  [ -n "$url" ] && break
  kill -0 "$gateway_pid" 2>/dev/null || fail "--demo exited: $(cat "$work/demo.err")"
  sleep 0.2
done
[ -n "$url" ] || fail "--demo did not start listening within 60 s: $(cat "$work/demo.err")"
# the first demo user the gateway printed: "  <login>  password <password>  api key <key>"
read -r login _ password _ < <(sed -n 's/^  \([^ ]*\) *password \([^ ]*\) .*/\1 x \2 x/p' "$work/demo.err" | head -1)
[ -n "${login:-}" ] || fail "--demo printed no user"
xmlrpc() { curl -sS --max-time 30 -H 'Content-Type: text/xml' --data-binary "$2" "$url/xmlrpc/2/$1"; }
version="$(xmlrpc common '<?xml version="1.0"?><methodCall><methodName>version</methodName><params/></methodCall>')"
grep -q '<name>server_version</name>' <<<"$version" || fail "common.version answered: $version"
uid_answer="$(xmlrpc common "<?xml version=\"1.0\"?><methodCall><methodName>login</methodName><params><param><value><string>demo</string></value></param><param><value><string>$login</string></value></param><param><value><string>$password</string></value></param></params></methodCall>")"
grep -Eq '<int>[0-9]+</int>' <<<"$uid_answer" || fail "common.login answered: $uid_answer"
uid="$(sed -n 's/.*<int>\([0-9]*\)<\/int>.*/\1/p' <<<"$uid_answer" | head -1)"
count="$(xmlrpc object "<?xml version=\"1.0\"?><methodCall><methodName>execute_kw</methodName><params><param><value><string>demo</string></value></param><param><value><int>$uid</int></value></param><param><value><string>$password</string></value></param><param><value><string>res.partner</string></value></param><param><value><string>search_count</string></value></param><param><value><array><data><array><data/></array></data></array></value></param></params></methodCall>")"
grep -Eq '<int>[0-9]+</int>' <<<"$count" || fail "object.execute_kw res.partner.search_count answered: $count"
kill "$gateway_pid"
wait "$gateway_pid" 2>/dev/null || true
gateway_pid=""
say "ok ($(basename "$tarball"): --help, --demo answered common.version, common.login (uid $uid) and res.partner.search_count)"
