# syntax=docker/dockerfile:1
# The service and both browser apps (the widget and the dashboard) on Node.js 24, the current LTS.
# test/e2e/containers.e2e-spec.ts checks this recipe without an engine: every file it copies
# exists, its build commands pass in a scratch copy holding only those files, and what they build
# starts with NODE_ENV=production and serves /, /widget.js and /health/ready. Keep one command per
# RUN line: the test runs them one by one.

# Build stage: every dependency, compile the service, build the browser apps, drop dev packages.
FROM node:24-bookworm-slim AS build
WORKDIR /app
COPY package.json package-lock.json ./
RUN npm ci --no-audit --no-fund
COPY tsconfig.json tsconfig.build.json nest-cli.json ormconfig.ts ./
COPY src ./src
COPY web ./web
COPY scripts ./scripts
RUN npm run build
RUN npm run build:web
RUN npm prune --omit=dev --no-audit --no-fund

# Runtime stage: production dependencies, the compiled service and the built apps (dist/web),
# as an unprivileged user.
FROM node:24-bookworm-slim AS runtime
ENV NODE_ENV=production PORT=3000 HOST=0.0.0.0 DATA_DIR=/data
WORKDIR /app
RUN groupadd --system --gid 10001 app && useradd --system --uid 10001 --gid app --home /app app \
  && mkdir -p /data && chown app:app /data
COPY --from=build --chown=app:app /app/package.json ./
COPY --from=build --chown=app:app /app/node_modules ./node_modules
COPY --from=build --chown=app:app /app/dist ./dist
USER 10001:10001
EXPOSE 3000
VOLUME ["/data"]
HEALTHCHECK --interval=15s --timeout=3s --start-period=60s --retries=3 \
  CMD node -e "fetch('http://127.0.0.1:'+(process.env.PORT||3000)+'/health/ready').then(r=>process.exit(r.ok?0:1),()=>process.exit(1))"
CMD ["node", "dist/src/main.js"]
