# The app's container image. Node 20 (npm installs the packages and Deno, as `npm start` does); the
# assets are built at image time by scripts/build_image.sh, the same script CI runs
# (scripts/image_check.ts), so the image's build steps live in one file. Runs as the base image's
# non-root user `node`. README, 'Deploying', says how to run it.
#
# Stopping: the orchestrator sends SIGTERM; the app stops taking requests, finishes the ones in flight
# and exits within its own deadline (SHUTDOWN_TIMEOUT_MS, 25 s by default), which must stay shorter
# than the orchestrator's grace period before SIGKILL: compose.yaml sets 35 s (Docker's default is
# 10 s: `docker run --stop-timeout 35`), Kubernetes' default terminationGracePeriodSeconds is 30 s.
FROM node:20-bookworm-slim

WORKDIR /app
ENV DENO_DIR=/app/.deno
COPY . .
RUN sh scripts/build_image.sh \
  && mkdir -p /app/data \
  && chown -R node:node /app/data /app/.deno

ENV APP_ENV=production HOST=0.0.0.0 PORT=8000 UPLOADS_DIR=/app/data/uploads DATA_DIR=/app/data/pglite
USER node
EXPOSE 8000
STOPSIGNAL SIGTERM
HEALTHCHECK --interval=15s --timeout=3s --start-period=60s --retries=3 CMD ["node", "scripts/healthcheck.mjs"]
CMD [".tools/node_modules/.bin/deno", "run", "-A", "main.ts"]
