# Production image of Waymark: Node 20 on Debian 12 (bookworm) with osmium-tool.
#   docker build -t waymark .
#   docker run -p 8080:8080 -v waymark-data:/data waymark
#   docker run -v waymark-data:/data waymark user create --email you@example.com --password '…' --org ORG

# Build stage: all dependencies (dev ones for the TypeScript compiler), the compiled program, then
# only the production dependencies kept. python3, make and g++ build better-sqlite3 when no
# prebuilt binary fits.
FROM node:20-bookworm-slim AS build
RUN apt-get update \
 && apt-get install -y --no-install-recommends python3 make g++ \
 && rm -rf /var/lib/apt/lists/*
WORKDIR /app
COPY package.json package-lock.json ./
RUN npm install --no-audit --no-fund
COPY tsconfig.json ./
COPY core ./core
COPY src ./src
COPY data-pipeline ./data-pipeline
COPY workers ./workers
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
ENV NODE_ENV=production \
    WAYMARK_DATA=/data \
    WAYMARK_HOST=0.0.0.0
COPY --from=build /app/package.json ./
COPY --from=build /app/node_modules ./node_modules
COPY --from=build /app/dist ./dist
COPY bin ./bin
COPY src/dashboard/web ./src/dashboard/web
COPY src/protobuf/schemas ./src/protobuf/schemas
USER waymark
VOLUME /data
EXPOSE 8080
# `waymark serve` handles SIGTERM itself (writes buffered usage, then exits 0), so `docker stop` is clean.
HEALTHCHECK --interval=30s --timeout=5s --start-period=20s --retries=3 \
  CMD ["node", "-e", "fetch(`http://127.0.0.1:${process.env.WAYMARK_PORT || 8080}/healthz`).then((r) => process.exit(r.ok ? 0 : 1), () => process.exit(1))"]
ENTRYPOINT ["node", "bin/waymark.js"]
CMD ["serve"]
