#!/usr/bin/env bash
# Installs the real DeepSeek Harness (../shared/real-dsh: the shipped dsh with a scripted model) before the tests,
# so no test pays the one-time npm install (tens of seconds on a fresh machine) inside its own timeout. A no-op
# once installed. Without ../shared (a user's clone) the real-harness lanes say so and skip; under CI=true they fail.
set -euo pipefail
setup="$(dirname "$0")/../../shared/real-dsh/setup.sh"
if [ ! -x "$setup" ] && [ ! -f "$setup" ]; then
  echo "real-dsh not found beside the checkout (../shared/real-dsh): real-harness tests will skip"
  exit 0
fi
bash "$setup" >/dev/null
