#!/usr/bin/env bash
# Redis for the replica tests: the machine's own on 127.0.0.1:6379, installed from Debian
# and started when absent (as this machine's services are started). REDIS_URL set: left alone.
set -uo pipefail
[ -n "${REDIS_URL:-}" ] && exit 0
redis-cli -h 127.0.0.1 -p 6379 ping >/dev/null 2>&1 && exit 0
if ! command -v redis-server >/dev/null 2>&1; then
  echo "start-redis: installing redis-server and redis-tools from Debian (the replica tests' Redis)"
  (apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq redis-server redis-tools) >/dev/null 2>&1 \
    || { echo "warning: could not install redis-server"; exit 0; }
fi
mkdir -p /var/lib/redis /var/log/redis
redis-server --daemonize yes --bind 127.0.0.1 -::1 --port 6379 --save "" --appendonly no --dir /var/lib/redis --logfile /var/log/redis/ci.log >/dev/null \
  || { echo "warning: could not start redis-server"; exit 0; }
for _ in $(seq 50); do redis-cli -h 127.0.0.1 -p 6379 ping >/dev/null 2>&1 && exit 0; sleep 0.1; done
echo "warning: redis-server did not answer on 127.0.0.1:6379"
