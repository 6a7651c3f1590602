# syntax=docker/dockerfile:1
# Wallery in a container: `docker build -t wallery .`, then see README,
# "Running in a container". test/ops/container.test.ts performs the install
# and start steps below in a fresh directory, exactly as written.

# 1. build: every dependency, then dist/ (the CLI bundle, the embed, the console)
FROM node:20-bookworm AS build
WORKDIR /app
COPY package.json package-lock.json ./
# --ignore-scripts: the package's `prepare` builds, and the sources are not here yet
RUN npm ci --ignore-scripts
COPY . .
RUN npm rebuild esbuild && npm run build

# 2. production dependencies only. --ignore-scripts again (`prepare` would need
# the dev dependencies to build); better-sqlite3's native module is then built
# on its own, here where the compilers are, for the same Debian and Node as
# the runtime image. `data` becomes the store's directory, owned by `node`.
FROM node:20-bookworm AS deps
WORKDIR /app
COPY package.json package-lock.json ./
RUN npm ci --omit=dev --ignore-scripts && npm rebuild better-sqlite3 && mkdir data

# 3. runtime: no compilers, no dev dependencies, not root
FROM node:20-bookworm-slim AS runtime
ENV NODE_ENV=production \
    DATABASE_URL=/data/wallery.db \
    PORT=3000 \
    HOST=0.0.0.0
WORKDIR /app
COPY --from=deps /app/node_modules ./node_modules
COPY --from=deps --chown=node:node /app/data /data
COPY --from=build /app/dist ./dist
COPY package.json ./
COPY demo ./demo
USER node
# the SQLite store (DATABASE_URL); unused with PostgreSQL
VOLUME ["/data"]
EXPOSE 3000
# slim images have no curl: Node's fetch asks /healthz (the process answers)
HEALTHCHECK --interval=30s --timeout=5s --start-period=30s --retries=3 \
  CMD ["node", "-e", "fetch('http://127.0.0.1:' + (process.env.PORT || 3000) + '/healthz').then((r) => process.exit(r.ok ? 0 : 1), () => process.exit(1))"]
# Wallery handles SIGTERM itself; run with `docker run --init` (compose: `init: true`)
# so that a PID 1 reaps zombies and forwards signals.
CMD ["node", "dist/cli/main.js", "serve"]
