# syntax=docker/dockerfile:1
# legacy-rpc-gateway: multi-stage build on the slim Node 22 LTS image; the runtime image holds the
# compiled dist/ and the production dependencies only, runs as the unprivileged `node` user under
# tini (PID 1: signals reach node, zombies are reaped), and checks itself on /livez.

# --- build: compile TypeScript to dist/ (dev dependencies needed) ---
FROM node:22-bookworm-slim AS build
WORKDIR /app
COPY package.json package-lock.json ./
RUN npm ci --no-audit --no-fund
COPY tsconfig.json tsconfig.build.json tsconfig.sim.json ./
COPY src ./src
COPY sim ./sim
COPY fixtures/odoo-data ./fixtures/odoo-data
# tsc -p tsconfig.build.json (the gateway, dist/src), tsc -p tsconfig.sim.json (the --demo simulator, dist/sim),
# then fixtures/odoo-data → dist/fixtures/odoo-data (the simulator's seed)
RUN npm run build

# --- deps: production dependencies only: no build tool (tsx, esbuild, TypeScript) reaches the image ---
FROM node:22-bookworm-slim AS deps
WORKDIR /app
COPY package.json package-lock.json ./
RUN npm ci --omit=dev --no-audit --no-fund \
 && for tool in tsx esbuild typescript; do \
      if [ -e "node_modules/$tool" ]; then echo "build tool $tool among the production dependencies" >&2; exit 1; fi; \
    done

# --- runtime ---
FROM node:22-bookworm-slim
RUN apt-get update \
 && apt-get install -y --no-install-recommends tini \
 && rm -rf /var/lib/apt/lists/* \
 && mkdir -p /var/lib/legacy-rpc-gateway \
 && chown node:node /var/lib/legacy-rpc-gateway
WORKDIR /app
# Defaults for a container: listen on every interface (publishing a port stays explicit), JSON logs,
# the migration report on the volume. Every other setting keeps its built-in default (see README).
# The admin port on every interface needs a token: the gateway refuses to start without one. Pass it
# as a secret file, ADMIN_TOKEN_FILE=/run/secrets/admin_token (README, Docker), not as a variable.
# NODE_OPTIONS: a 4 MiB V8 young generation keeps a 1 GiB db.dump under 150 MiB peak RSS
# (BENCHMARKS.md, bench:dump); the default 16 MiB lets uncollected garbage push it just above.
ENV NODE_ENV=production \
    HOST=0.0.0.0 \
    PORT=8070 \
    ADMIN_HOST=0.0.0.0 \
    ADMIN_PORT=8071 \
    LOG_FORMAT=json \
    REPORT_FILE=/var/lib/legacy-rpc-gateway/report.json \
    LOGINS_FILE=/var/lib/legacy-rpc-gateway/logins.json \
    SHUTDOWN_GRACE=25000 \
    NODE_OPTIONS=--max-semi-space-size=4
COPY --from=deps --chown=root:root /app/node_modules ./node_modules
COPY --from=build --chown=root:root /app/dist ./dist
COPY --chown=root:root package.json ./
USER node
VOLUME ["/var/lib/legacy-rpc-gateway"]
# 8070: legacy endpoints and the passthrough to Odoo; 8071: /metrics, /readyz, /gateway/report
EXPOSE 8070 8071
HEALTHCHECK --interval=30s --timeout=3s --start-period=10s --retries=3 \
  CMD ["node", "-e", "fetch('http://127.0.0.1:'+(process.env.PORT||8070)+'/livez').then(r=>process.exit(r.ok?0:1),()=>process.exit(1))"]
# SIGTERM starts the graceful shutdown (SHUTDOWN_GRACE); give `docker stop` at least 30 s (-t 30).
STOPSIGNAL SIGTERM
# --no-memory-reducer: V8's idle-time GCs of the whole heap ran between an integration's calls and cost
# about a third of the gateway's CPU per call (BENCHMARKS.md, issue #41); the heap still shrinks on
# ordinary collections
ENTRYPOINT ["/usr/bin/tini", "--", "node", "--no-memory-reducer", "dist/src/main.js"]
