#!/usr/bin/env bash
# Differential tests: plain-Clojure programs run through Clojure 1.11 and ptc.
# Usage: tests/differential/run.sh [-v] [--ptc PATH] [--report FILE] [NAME...]
# Skips (exit 0) when Clojure is not installed. See README.md.
set -euo pipefail
here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
if ! command -v clojure >/dev/null 2>&1 && [ -z "${CLOJURE_JAR:-}" ]; then
  echo "SKIP differential tests: Clojure is not installed (apt-get install clojure); nothing was run."
  exit 0
fi
exec python3 "$here/harness.py" "$@"
