#!/bin/bash
# MPICH: `rankmap map --format hydra` and the mpiexec.hydra line it prints place every rank on
# the CPUs of its leaf (hostfile runs + -bind-to user:..., or the hwloc-bind wrapper), and
# `--format hwloc` binds ranks started by hydra through hwloc-bind. Two ranks swapped, four
# ranks on two CPUs.
set -uo pipefail
rankmap="$1"
reporter="$2"
dir="${TEST_TMPDIR:-$(mktemp -d)}"
failures=0
fail() { echo "FAIL $*"; failures=$((failures + 1)); }
source tests/launch/launch_checks.sh

npus=$(hwloc-calc --number-of pu machine:0)
if [ "$npus" -lt 2 ]; then echo "needs 2 CPUs, this machine has $npus"; exit 1; fi
printf '0 1 100\n' >"$dir/pair.edges"
printf '0 1 100\n2 3 100\n1 2 1\n' >"$dir/quad.edges"
cap=$(((4 + npus - 1) / npus))

run() {  # NAME FORMAT MAP_ARGS...
  local name="$1" format="$2"
  shift 2
  check_launch "$name" pu "$format" direct "$@"
}

seed=$(first_moving_seed --topology this --comm "$dir/pair.edges") ||
  { echo "no seed moves two ranks"; exit 1; }
run swapped hydra --topology this --comm "$dir/pair.edges" --algorithm random --seed "$seed"
grep -q -- "-bind-to user:" <<<"$(launch_line --topology this --comm "$dir/pair.edges" \
  --algorithm random --seed "$seed" --format hydra --output "$dir/x.hosts")" ||
  fail "swapped: one host should bind with -bind-to user:"
run four_on_two hydra --topology this --comm "$dir/quad.edges" --oversubscribe "$cap" \
  --algorithm random --seed "$seed"
run wrapper hydra --topology this --comm "$dir/quad.edges" --oversubscribe "$cap" \
  --algorithm random --seed "$seed" --bind wrapper
[ -x "$dir/wrapper.hydra.bind.sh" ] || fail "wrapper: no executable wrapper"

# --format hwloc: every rank binds itself with the printed hwloc-bind prefix.
each_rank_binds() {
  echo "$ mpiexec.hydra -n 4 sh -c 'RANK=\$PMI_RANK; exec $1 $2'" >&2
  timeout 120 mpiexec.hydra -n 4 sh -c "RANK=\$PMI_RANK; exec $1 $2" </dev/null
}
check_launch hwloc pu hwloc each_rank_binds --topology this --comm "$dir/quad.edges" \
  --oversubscribe "$cap" --algorithm random --seed "$seed"

if [ "$failures" -ne 0 ]; then echo "$failures failure(s)"; exit 1; fi
echo PASS
