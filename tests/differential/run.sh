#!/usr/bin/env bash
# Differential tests: plain-Clojure programs run through Clojure 1.11 and ptc.
# Usage: tests/differential/run.sh [-v] [--ptc PATH] [--report FILE] [NAME...]
#        tests/differential/run.sh --generated COUNT [FIRST-SEED]
# Skips (exit 0) when Clojure is not installed. See README.md.
set -euo pipefail
here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
if ! command -v clojure >/dev/null 2>&1 && [ -z "${CLOJURE_JAR:-}" ]; then
  echo "SKIP differential tests: Clojure is not installed (apt-get install clojure); nothing was run."
  exit 0
fi
if [ "${1:-}" = "--generated" ]; then
  # Generated programs (tests/common/gen.rs): --generated COUNT [FIRST-SEED]
  # writes them to a fresh folder and runs them (none is expected to differ).
  count="${2:-500}"; first="${3:-0}"
  dir="$(mktemp -d)"
  (cd "$here/../.." && PTC_GEN_DIR="$dir" PTC_GEN_COUNT="$count" PTC_GEN_FIRST="$first" \
    cargo test -q --test generated -- --ignored write_programs >/dev/null)
  exec python3 "$here/harness.py" --programs "$dir" --expected /dev/null
fi
exec python3 "$here/harness.py" "$@"
