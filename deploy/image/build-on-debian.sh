#!/bin/sh
# Builds the image on a Debian 12 machine without Docker or Docker Hub, as
# docs/DEPLOYMENT.md describes: a Node 24 base from Debian's packages
# (mmdebstrap) and the pinned Node binary of the launcher's cache
# (tools/launcher/node-runtime.mjs) plus npm from the npm registry, then the
# Dockerfile with that base, by buildah. Run as root from the checkout, with
# buildah, podman, runc, mmdebstrap and fuse-overlayfs installed (apt-get).
#   WORK     where the base, containers.conf and storage.conf go (default /var/tmp/dargah-image)
#   TAG      the image's name (default localhost/dargah:dev)
# Podman and buildah then need CONTAINERS_CONF and CONTAINERS_STORAGE_CONF set to $WORK's files.
set -eu
WORK="${WORK:-/var/tmp/dargah-image}"
TAG="${TAG:-localhost/dargah:dev}"
NODE_VERSION=24.21.0
NPM_VERSION=11.6.2
NODE="${XDG_CACHE_HOME:-$HOME/.cache}/dargah/node-v$NODE_VERSION/bin/node"
[ -x "$NODE" ] || { echo "no Node $NODE_VERSION at $NODE: run npm start or npm test once (the launcher installs it)" >&2; exit 1; }
mkdir -p "$WORK"
# cgroups v1 here: runc, cgroupfs, and no default ulimits (podman's would be refused).
cat > "$WORK/containers.conf" <<CONF
[containers]
default_ulimits = []
[engine]
cgroup_manager = "cgroupfs"
runtime = "runc"
events_logger = "file"
CONF
cat > "$WORK/storage.conf" <<CONF
[storage]
driver = "overlay"
runroot = "$WORK/run"
graphroot = "$WORK/storage"
CONF
export CONTAINERS_CONF="$WORK/containers.conf" CONTAINERS_STORAGE_CONF="$WORK/storage.conf"

if [ ! -f "$WORK/debian.tar" ]; then
  mmdebstrap --variant=minbase --include=ca-certificates \
    --dpkgopt='path-exclude=/usr/share/doc/*' --dpkgopt='path-exclude=/usr/share/man/*' --dpkgopt='path-exclude=/usr/share/locale/*' \
    bookworm "$WORK/debian.tar.partial" http://deb.debian.org/debian
  mv "$WORK/debian.tar.partial" "$WORK/debian.tar"
fi
rm -rf "$WORK/node" && mkdir -p "$WORK/node/usr/local/bin" "$WORK/node/usr/local/lib/node_modules/npm"
cp "$NODE" "$WORK/node/usr/local/bin/node"
(cd "$WORK" && npm pack "npm@$NPM_VERSION" --silent >/dev/null)
tar -xzf "$WORK/npm-$NPM_VERSION.tgz" -C "$WORK/node/usr/local/lib/node_modules/npm" --strip-components=1
ln -sf ../lib/node_modules/npm/bin/npm-cli.js "$WORK/node/usr/local/bin/npm"
c=$(buildah from scratch)
buildah add "$c" "$WORK/debian.tar" / >/dev/null
buildah copy "$c" "$WORK/node/" / >/dev/null
buildah config --env PATH=/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin --cmd node "$c"
buildah commit -q "$c" localhost/dargah-base:node24 >/dev/null
buildah rm "$c" >/dev/null

# A network that inspects TLS: its CA (the machine's bundle) for npm in the build stage only.
CA=/etc/ssl/certs/ca-certificates.crt
buildah bud -q --format docker --network host --layers \
  -v "$CA:/run/ca.crt:ro" --build-arg NODE_EXTRA_CA_CERTS=/run/ca.crt --build-arg npm_config_cafile=/run/ca.crt \
  --build-arg BASE=localhost/dargah-base:node24 \
  --build-arg VERSION="$(node -p "require('./package.json').version")" --build-arg REVISION="$(git rev-parse HEAD 2>/dev/null || echo unknown)" \
  -t "$TAG" .
