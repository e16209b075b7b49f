#!/usr/bin/env bash
# Run a command as a process of one rehearsal test host (bench/rehearse/hosts.py):
#   rehearse-enter.sh NAMESPACE HOSTNAME CGROUP_DIR... -- COMMAND...
# Joins the host's cgroups first (everything the command starts stays in them, so the
# harness can account its CPU and kill the whole host), then its network namespace, and
# a UTS namespace of its own that carries the host's name.
set -euo pipefail
namespace=$1 hostname=$2
shift 2
while [ "$1" != "--" ]; do
  echo $$ > "$1/cgroup.procs"
  shift
done
shift
exec nsenter --net="/run/netns/$namespace" unshare --uts \
  sh -c 'hostname "$0" && exec "$@"' "$hostname" "$@"
