# baas-mock — multi-stage: compile with dev dependencies, ship production ones only.
# Kept to plain Dockerfile syntax (no heredocs, no COPY --link) so buildah/podman build it too.
FROM node:24-bookworm-slim AS build
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

FROM node:24-bookworm-slim
ENV NODE_ENV=production \
    HOST=0.0.0.0 \
    PORT=4010 \
    MOCK_FIXTURES=/app/fixtures
WORKDIR /app
COPY package.json package-lock.json ./
RUN npm ci --omit=dev --ignore-scripts --no-audit --no-fund && npm cache clean --force
COPY --from=build /app/dist ./dist
COPY fixtures ./fixtures
COPY src/ui ./src/ui
COPY openapi.yaml ./
# A team's own world: mount it and point MOCK_FIXTURES at it, e.g.
#   docker run -v "$PWD/my-fixtures:/fixtures:ro" -e MOCK_FIXTURES=/fixtures -p 4010:4010 baas-mock
USER node
EXPOSE 4010
HEALTHCHECK --interval=15s --timeout=3s --start-period=10s --retries=3 \
  CMD ["node", "-e", "fetch('http://127.0.0.1:' + (process.env.PORT || 4010) + '/healthz').then(r => process.exit(r.ok ? 0 : 1), () => process.exit(1))"]
CMD ["node", "dist/baas-mock.js"]
