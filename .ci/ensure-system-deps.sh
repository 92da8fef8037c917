#!/usr/bin/env bash
# Installs the two system packages the test suite needs when a machine lacks them:
# Debian's Chromium (Playwright drives it; `npx playwright install` cannot download
# here) and the zstd binary (tests write multi-frame zstd logs; Node 20 has no zstd).
# Runs before `npm test` (npm's pretest hook), so the README's test command works on
# a fresh machine.
set -euo pipefail
need=()
[ -x /usr/bin/chromium ] || need+=(chromium)
command -v zstd >/dev/null 2>&1 || need+=(zstd)
[ ${#need[@]} -eq 0 ] && exit 0
if [ "$(id -u)" != 0 ] || ! command -v apt-get >/dev/null 2>&1; then
  echo "dsh-lens tests need: ${need[*]} (install them with your package manager; Playwright falls back to its own browser when /usr/bin/chromium is absent)" >&2
  exit 0
fi
echo "installing ${need[*]} (apt-get)"
apt-get update -qq
DEBIAN_FRONTEND=noninteractive apt-get install -y -qq "${need[@]}" >/dev/null
