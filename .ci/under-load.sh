#!/usr/bin/env bash
# The server's attack and limit tests with two CPU hogs beside them (stress-ng --cpu 2 on a
# 2-core machine): they count requests answered, slots freed and connections cut, and compare
# with baselines from the same run, so a busy machine must not fail them. Arguments go to the
# test binary after `--include-ignored` (a filter, --nocapture...).
#   .ci/under-load.sh            every attacks::, floods::, hostile_index::, headers:: and limits:: test
#   .ci/under-load.sh floods::held_connections_leave_new_clients_answered --exact
set -euo pipefail
cd "$(dirname "$0")/.."
command -v stress-ng >/dev/null || {
  echo "under-load: stress-ng is missing (apt-get install stress-ng)" >&2
  exit 2
}
# Built before the load starts: the load is for the tests, not the compiler. `--test main` at
# the root builds both test binaries (the workspace's and pith-serve's) with the features
# `cargo test` resolves, so after CI's test step nothing is compiled again.
cargo test --locked --test main --no-run
hogs=${PITH_LOAD_CPUS:-2}
stress-ng --cpu "$hogs" --quiet &
load=$!
trap 'kill "$load" 2>/dev/null; wait "$load" 2>/dev/null || true' EXIT
echo "under-load: stress-ng --cpu $hogs (pid $load) beside the tests"
if [ $# -eq 0 ]; then
  set -- attacks:: floods:: hostile_index:: headers:: limits::
fi
start=$SECONDS
cargo test --locked --test main -- --include-ignored "$@"
echo "under-load: passed with $hogs CPU hogs beside them in $((SECONDS - start)) s"
