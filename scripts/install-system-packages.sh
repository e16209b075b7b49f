#!/usr/bin/env bash
# Debian packages the service needs at run and test time, installed only when missing.
set -euo pipefail
needed=()
# The Makefile names them: curl and tesseract to run; chromium too for the browser tests.
for package in "$@"; do
  dpkg -s "$package" >/dev/null 2>&1 || needed+=("$package")
done
if [ ${#needed[@]} -gt 0 ]; then
  if [ "$(id -u)" -ne 0 ]; then
    echo "missing Debian packages: ${needed[*]} (run as root or install them)" >&2
    exit 1
  fi
  apt-get update -qq
  DEBIAN_FRONTEND=noninteractive apt-get install -y -qq "${needed[@]}"
fi
