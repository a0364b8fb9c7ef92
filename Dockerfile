# syntax=docker/dockerfile:1
# legacy-rpc-gateway: multi-stage build on the slim Node LTS image, non-root, tini as PID 1.

FROM node:22-bookworm-slim AS build
WORKDIR /app
COPY package.json package-lock.json ./
RUN npm ci --no-audit --no-fund
COPY tsconfig.json tsconfig.build.json ./
COPY src ./src
COPY sim ./sim
COPY fixtures/odoo-data ./fixtures/odoo-data
RUN npm run build

FROM node:22-bookworm-slim AS deps
WORKDIR /app
COPY package.json package-lock.json ./
RUN npm ci --omit=dev --no-audit --no-fund

FROM node:22-bookworm-slim
RUN apt-get update \
 && apt-get install -y --no-install-recommends tini \
 && rm -rf /var/lib/apt/lists/*
WORKDIR /app
ENV NODE_ENV=production \
    HOST=0.0.0.0 \
    PORT=8070
COPY --from=deps /app/node_modules ./node_modules
# dist/ includes dist/fixtures/odoo-data, the seed the simulator (demo mode) reads at run time.
COPY --from=build /app/dist ./dist
COPY package.json ./
USER node
EXPOSE 8070
HEALTHCHECK --interval=30s --timeout=3s --start-period=10s --retries=3 \
  CMD ["node", "-e", "fetch('http://127.0.0.1:'+(process.env.PORT||8070)+'/livez').then(r=>process.exit(r.ok?0:1),()=>process.exit(1))"]
ENTRYPOINT ["/usr/bin/tini", "--", "node", "dist/src/main.js"]
