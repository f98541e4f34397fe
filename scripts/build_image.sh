#!/bin/sh
# The container image's build steps, in one place: the Dockerfile runs this script (RUN), and CI runs it
# on a copy of the repository (scripts/image_check.ts), so the two cannot drift. Run from anywhere; it
# works in the repository's root. Needs Node and npm (the image's base is Node 20).
set -eu
cd "$(dirname "$0")/.."
# npm packages (npm install, as `npm start` does), Deno into .tools/, then the assets into static/build/.
node scripts/run-deno.mjs task build
# Fails the build on an import that does not resolve, and fills DENO_DIR for the first start.
.tools/node_modules/.bin/deno cache main.ts scripts/create_admin.ts
