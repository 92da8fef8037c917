#!/usr/bin/env bash
# The test lanes on a busy machine (`npm run test:loaded`): two processes keep both cores busy while the e2e lane
# runs LOADED_E2E times (default 3) and the unit lane LOADED_UNIT times (default 2). Arguments go to Playwright, so
# `npm run test:loaded -- e2e/context-chart.spec.ts` repeats one spec. The burners are killed however the run ends.
# A test that waits for the state it asserts passes here; one that reads a settling value once fails here first.
set -uo pipefail
cd "$(dirname "$0")/.."
e2e_runs=${LOADED_E2E:-3}
unit_runs=${LOADED_UNIT:-2}
burners=()
stop_burners() {
  for pid in "${burners[@]}"; do kill "$pid" 2>/dev/null; done
}
trap stop_burners EXIT
trap 'exit 130' INT TERM
for _ in 1 2; do
  node -e 'for (;;) {}' &
  burners+=("$!")
done
echo "burners: ${burners[*]} (load $(cut -d' ' -f1-3 /proc/loadavg))"
failed=()
if [ "$e2e_runs" -gt 0 ]; then
  build_log=$(mktemp)
  if ! npm run build >"$build_log" 2>&1; then
    tail -20 "$build_log"
    exit 1
  fi
  for i in $(seq 1 "$e2e_runs"); do
    echo "== e2e run $i of $e2e_runs (load $(cut -d' ' -f1-3 /proc/loadavg))"
    SECONDS=0
    npx playwright test "$@" || failed+=("e2e run $i")
    echo "== e2e run $i took ${SECONDS} s"
  done
fi
for i in $(seq 1 "$unit_runs"); do
  echo "== unit run $i of $unit_runs (load $(cut -d' ' -f1-3 /proc/loadavg))"
  SECONDS=0
  npx vitest run || failed+=("unit run $i")
  echo "== unit run $i took ${SECONDS} s"
done
if [ ${#failed[@]} -gt 0 ]; then
  echo "FAILED under load: ${failed[*]}"
  exit 1
fi
echo "all green under load: $e2e_runs e2e run(s), $unit_runs unit run(s)"
