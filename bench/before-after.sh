#!/usr/bin/env bash
# Prints a benchmark's figures for a baseline checkout and for this one, in one run, taking turns
# (baseline, this, baseline, this ...) so that a machine that slows down weighs on both alike.
#   bench/before-after.sh BASELINE_DIR [ROUNDS] -- bench/<name>.bench.ts [ARGS ...]
# BASELINE_DIR: another checkout of the project with its dependencies installed and `npm run
# build` done (for example `git worktree add ../baseline <commit> && (cd ../baseline && npm ci &&
# npm run build)`). The benchmark's path must exist in both. ROUNDS defaults to 1.
set -euo pipefail
baseline=$(cd "$1" && pwd); shift
rounds=1
if [ "${1:-}" != "--" ]; then rounds=$1; shift; fi
[ "${1:-}" = "--" ] && shift
here=$(cd "$(dirname "$0")/.." && pwd)
for round in $(seq 1 "$rounds"); do
  for side in baseline this; do
    dir=$baseline; [ "$side" = this ] && dir=$here
    echo "── ${side} ($(git -C "$dir" rev-parse --short HEAD)), round ${round}: $*"
    (cd "$dir" && PATH="$dir/node_modules/node/bin:$PATH" npx tsx "$@") 2>&1 | grep -v '^\[shopify-api' || true
  done
done
