#!/bin/bash
# The plugin's edge cases and errors under the real mpirun (4 ranks on this host), through
# PETSc's MatPartitioningApply in a program that links the library (errors_test_main.c): every
# vertex placed once where the call succeeds, the PETSc error code and message where it must
# not, on every rank alike, and no hang (each run is bounded by a timeout).
#
#   errors_test.sh ERRORS_TEST_MAIN
set -uo pipefail
program="$(realpath "$1")"
dir="${TEST_TMPDIR:-$(mktemp -d)}"
failures=0
fail() { echo "FAIL: $*"; failures=$((failures + 1)); }

# A network spec that holds other hosts than this one.
printf 'network\ncluster s0\nnode elsewhere0 core:2\nnode elsewhere1 core:2\n' >"$dir/other.net"
timeout 120 mpirun -np 4 --mca mpi_yield_when_idle 1 "$program" "$dir/other.net" \
  >"$dir/out" 2>&1
rc=$?
grep -v '^\[[0-9]*\] ' "$dir/out" | sed "s|$dir|<tmp>|g"
[ "$rc" -eq 0 ] || fail "the program exited $rc"

expect() {  # CASE TEXT: the case's line holds TEXT
  grep "^$1: " "$dir/out" | grep -qF "$2" ||
    fail "$1: expected '$2', got '$(grep "^$1: " "$dir/out")'"
}
expect grid "ok, 256 of 256 vertices on parts [0, 4), 0 elsewhere"
grep -q "^ *rankmap: 256 vertices, 480 edges onto 4 parts" "$dir/out" ||
  fail "-mat_partitioning_view printed no rankmap report"
expect rank-without-vertices "ok, 256 of 256 vertices on parts [0, 4), 0 elsewhere"
expect empty-graph "ok, 0 of 0 vertices"
expect machine-without-the-hosts "error 62 mpi_bindings: host '$(hostname)' of rank 0 is not in the network spec"
expect parts-other-than-ranks "error 62 rank 0: rankmap partition: 3 parts on a communicator of 4 ranks: name a machine of that many leaves with -mat_partitioning_rankmap_topology"
expect parts-on-a-named-machine "ok, 256 of 256 vertices on parts [0, 3), 0 elsewhere"
expect over-the-memory-budget "error 55 rank 0: partition: a graph of 256 vertices and 960 arcs"
expect over-the-memory-budget "above the memory budget of 1000 B"
expect bad-exchange "error 62 rank 0: -mat_partitioning_rankmap_exchange '40': expected B,M"
expect bad-algorithm "error 62 rank 0: unknown algorithm 'best'"
if grep -q "ranks disagree" "$dir/out"; then fail "ranks returned different codes"; fi

if [ "$failures" -ne 0 ]; then echo "$failures failure(s)"; exit 1; fi
echo PASS
