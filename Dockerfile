# baas-mock — multi-stage: compile with dev dependencies, ship production ones only.
# Kept to plain Dockerfile syntax (no heredocs, no COPY --link) so buildah/podman build it too.
# Node 22 LTS, not 24: better-sqlite3 12 built against Node 24.19's headers aborts the process when the
# garbage collector finalises a statement (Node's ObjectWrap change, nodejs/node#65446); 13, which is
# free of it, needs Node 22 and the package still supports Node 20. docs/reference/stores.md says more.
FROM node:22-bookworm-slim AS build
# better-sqlite3 (the --state-dir store) is a native module. Where no prebuilt binary can be fetched
# it compiles from source: python3, make and g++ here, against the headers that come with Node
# (npm_config_nodedir), so that node-gyp downloads nothing.
RUN apt-get update && apt-get install -y --no-install-recommends python3 make g++ && rm -rf /var/lib/apt/lists/*
ENV npm_config_nodedir=/usr/local
WORKDIR /app
COPY package.json package-lock.json tsconfig.json tsconfig.build.json tsconfig.types.json ./
COPY src ./src
COPY routes ./routes
COPY scripts ./scripts
# The build checks the bundled fixtures once, so that the image starts without re-checking them.
COPY fixtures ./fixtures
# baas-mock/openapi's types are generated from the contract at build time.
COPY openapi.yaml ./
# `npm ci` runs the prepare script, which compiles to dist/.
RUN npm ci --no-audit --no-fund
# The production dependencies for the runtime stage.
RUN npm prune --omit=dev --no-audit --no-fund
# The stores' drivers are optional peers of the package (a team that only wants MSW compiles nothing
# native) and dev dependencies of a clone, so the prune above drops them. The image serves
# --state-dir and --store, so it gets them in a folder of their own at the lockfile's versions,
# copied to /node_modules in the runtime stage: Node looks there after /app/node_modules.
RUN mkdir /stores && cd /stores && \
    npm install --no-audit --no-fund --no-package-lock $(node -p "const l = require('/app/package-lock.json').packages; ['better-sqlite3', 'ioredis'].map(p => p + '@' + l['node_modules/' + p].version).join(' ')") && \
    rm -rf node_modules/better-sqlite3/deps node_modules/better-sqlite3/src \
      node_modules/better-sqlite3/build/Release/obj.target node_modules/better-sqlite3/build/deps

FROM node:22-bookworm-slim
ENV NODE_ENV=production \
    HOST=0.0.0.0 \
    PORT=4010 \
    MOCK_FIXTURES=/app/fixtures
WORKDIR /app
COPY package.json package-lock.json ./
COPY --from=build /app/node_modules ./node_modules
COPY --from=build /stores/node_modules /node_modules
COPY --from=build /app/dist ./dist
COPY fixtures ./fixtures
COPY src/ui ./src/ui
COPY openapi.yaml ./
# A team's own world: mount it and point MOCK_FIXTURES at it, e.g.
#   docker run -v "$PWD/my-fixtures:/fixtures:ro" -e MOCK_FIXTURES=/fixtures -p 4010:4010 baas-mock
# Sessions kept across restarts (docs/reference/stores.md): a volume on /data, which the image's user owns, e.g.
#   docker run -v baas-data:/data -e MOCK_STATE_DIR=/data -p 4010:4010 baas-mock
RUN mkdir -p /data && chown node:node /data
USER node
EXPOSE 4010
HEALTHCHECK --interval=15s --timeout=3s --start-period=10s --retries=3 \
  CMD ["node", "-e", "fetch('http://127.0.0.1:' + (process.env.PORT || 4010) + '/healthz').then(r => process.exit(r.ok ? 0 : 1), () => process.exit(1))"]
CMD ["node", "dist/baas-mock.js"]
