#!/usr/bin/env bash
# axe-core, the accessibility checker the browser tests inject, from the npm registry at
# the version tests/web/axe/package.json pins, into tests/web/axe/node_modules (git
# ignores it). Nothing is done when that version is there already. No lock file: the
# one dependency is pinned exactly and has no dependencies of its own.
set -euo pipefail
dir="$(cd "$(dirname "$0")/../tests/web/axe" && pwd)"
if ! command -v npm >/dev/null 2>&1; then
  bash "$(dirname "$0")/install-system-packages.sh" npm
fi
wanted=$(node -p "require('$dir/package.json').dependencies['axe-core']")
installed=$(node -p "try { require('$dir/node_modules/axe-core/package.json').version } catch (e) { '' }")
if [ "$installed" != "$wanted" ]; then
  npm install --prefix "$dir" --no-package-lock --no-audit --no-fund --no-save --loglevel=error
fi
test -s "$dir/node_modules/axe-core/axe.min.js"
