#!/usr/bin/env node
// The container's HEALTHCHECK (Dockerfile): exits 0 when GET http://127.0.0.1:$PORT$HEALTH_PATH answers
// 2xx within 2 s, else 1. Node, not curl: the image's base has Node and no curl.
const port = process.env.PORT || "8000";
const path = process.env.HEALTH_PATH || "/healthz";
try {
  const response = await fetch(`http://127.0.0.1:${port}${path}`, { signal: AbortSignal.timeout(2000) });
  process.exit(response.ok ? 0 : 1);
} catch {
  process.exit(1);
}
