# Production image of Waymark: Node 20 on Debian 12 (bookworm) with osmium-tool.
#   docker build -t waymark .
#   docker run -p 8080:8080 -v waymark-data:/data waymark
#   docker run -v waymark-data:/data waymark user create --email you@example.com --password '…' --org ORG
# Where Docker Hub cannot be reached, or the npm registry only through a proxy that re-signs TLS:
# docs/OPERATIONS.md, "The image, tested" (build arguments EXTRA_CA_CERTS and NODE_HEADERS_DIR).

# Build stage: the locked dependencies (dev ones for the TypeScript compiler), the compiled program,
# then only the production dependencies kept. python3, make and g++ build better-sqlite3 when no
# prebuilt binary fits.
FROM node:20-bookworm-slim AS build
RUN apt-get update \
 && apt-get install -y --no-install-recommends python3 make g++ \
 && rm -rf /var/lib/apt/lists/*
WORKDIR /app
# EXTRA_CA_CERTS: PEM certificates npm must also trust (a TLS-re-signing proxy). NODE_HEADERS_DIR: a
# folder with include/node, for node-gyp where it cannot download Node's headers. Both stay in this stage.
ARG EXTRA_CA_CERTS=
ARG NODE_HEADERS_DIR=
COPY package.json package-lock.json ./
# npm ci installs exactly the lock file, and fails when package.json and the lock disagree. SQLite
# is compiled at -O2, as scripts/setup.sh compiles it (docs/BENCHMARKS.md, "SQLite's compile level").
RUN if [ -n "$EXTRA_CA_CERTS" ]; then printf '%s\n' "$EXTRA_CA_CERTS" >/tmp/extra-ca.pem && export NODE_EXTRA_CA_CERTS=/tmp/extra-ca.pem; fi \
 && if [ -n "$NODE_HEADERS_DIR" ]; then export npm_config_nodedir="$NODE_HEADERS_DIR"; fi \
 && CFLAGS=-O2 npm ci --no-audit --no-fund \
 && rm -f /tmp/extra-ca.pem
COPY tsconfig.json ./
COPY core ./core
COPY workers ./workers
COPY src ./src
COPY data-pipeline ./data-pipeline
RUN npm run build && npm prune --omit=dev

# Runtime stage: Node, osmium-tool (reads OSM extracts for imports) and the built program, run as
# the unprivileged user `waymark` with its data in the volume /data.
FROM node:20-bookworm-slim
RUN apt-get update \
 && apt-get install -y --no-install-recommends osmium-tool ca-certificates \
 && rm -rf /var/lib/apt/lists/* \
 && groupadd --system waymark \
 && useradd --system --gid waymark --home-dir /app --no-create-home --shell /usr/sbin/nologin waymark \
 && mkdir /data \
 && chown waymark:waymark /data
WORKDIR /app
# WAYMARK_CLI_HINT: the command line `serve` prints for account commands; inside the image it is
# `waymark` on the PATH, which a shell on the Docker host reaches through `docker exec`.
ENV NODE_ENV=production \
    WAYMARK_DATA=/data \
    WAYMARK_HOST=0.0.0.0 \
    WAYMARK_CLI_HINT="docker exec <container> waymark"
COPY --from=build /app/package.json ./
COPY --from=build /app/node_modules ./node_modules
COPY --from=build /app/dist ./dist
COPY bin ./bin
COPY src/dashboard/web ./src/dashboard/web
COPY src/protobuf/schemas ./src/protobuf/schemas
RUN ln -s /app/bin/waymark.js /usr/local/bin/waymark
USER waymark
VOLUME /data
EXPOSE 8080
# `waymark serve` handles SIGTERM itself (writes buffered usage, then exits 0), so `docker stop` is clean.
# /readyz, not /healthz: healthy means serving a dataset, so a container whose volume has no dataset
# yet, or whose dataset cannot be opened, is not healthy. A container that imports its first dataset
# is `starting` for 2 minutes (a demo or a small region's import), then `unhealthy` until the import is
# served, and healthy at the next check (every 30 s) after it; the check prints /readyz's body, so
# `docker inspect` shows why (no dataset yet, or the first import running, with its pid and time).
# A `waymark worker` container checks its own port instead (docs/cluster/compose.yaml).
HEALTHCHECK --interval=30s --timeout=5s --start-period=120s --retries=3 \
  CMD ["node", "-e", "fetch(`http://127.0.0.1:${process.env.WAYMARK_PORT || 8080}/readyz`).then(async (r) => { console.log(await r.text()); process.exit(r.ok ? 0 : 1); }, (e) => { console.log(e.message); process.exit(1); })"]
ENTRYPOINT ["waymark"]
CMD ["serve"]
