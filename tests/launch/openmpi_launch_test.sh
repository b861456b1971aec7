#!/bin/bash
# Open MPI 4: `rankmap map --format rankfile` and the mpirun line it prints place every rank on
# the CPUs of its leaf: two ranks swapped, four ranks on two CPUs, core leaves, and the network
# spec whose node is a tleaf (node-local logical slots, the case the old writer got wrong).
set -uo pipefail
rankmap="$1"
reporter="$2"
dir="${TEST_TMPDIR:-$(mktemp -d)}"
failures=0
fail() { echo "FAIL $*"; failures=$((failures + 1)); }
source tests/launch/launch_checks.sh

npus=$(hwloc-calc --number-of pu machine:0)
ncores=$(hwloc-calc --number-of core machine:0)
if [ "$npus" -lt 2 ]; then echo "needs 2 CPUs, this machine has $npus"; exit 1; fi
printf '0 1 100\n' >"$dir/pair.edges"
printf '0 1 100\n2 3 100\n1 2 1\n' >"$dir/quad.edges"

run() {  # NAME KIND MAP_ARGS...
  local name="$1" kind="$2"
  shift 2
  check_launch "$name" "$kind" rankfile direct "$@"
}

seed=$(first_moving_seed --topology this --comm "$dir/pair.edges") ||
  { echo "no seed moves two ranks"; exit 1; }
run swapped pu --topology this --comm "$dir/pair.edges" --algorithm random --seed "$seed"
cap=$(((4 + npus - 1) / npus))
run four_on_two pu --topology this --comm "$dir/quad.edges" --oversubscribe "$cap"
ccap=$(((4 + ncores - 1) / ncores))
run core_leaves core --topology this --leaf core --comm "$dir/quad.edges" \
  --oversubscribe "$ccap" --algorithm random --seed "$seed"
# A network spec naming this host with a tleaf node: node-local logical slots (0..1 on a 2-PU
# host), read by mpirun without rmaps_rank_file_physical.
printf 'network\ncluster here\nnode %s tleaf 1 2 1\n' "$host" >"$dir/tleaf.net"
run tleaf_node pu --topology "$dir/tleaf.net" --comm "$dir/pair.edges" --algorithm random \
  --seed "$seed"
grep -q "^rank 0=$host slot=[01]$" "$dir/tleaf_node.rankfile" || fail "tleaf_node: slots are not node-local"
# The same host described by its own hwloc export: physical numbers.
lstopo-no-graphics --of xml "$dir/here.xml" 2>/dev/null || lstopo --of xml "$dir/here.xml"
printf 'network\ncluster here\nnode %s %s\n' "$host" "$dir/here.xml" >"$dir/xml.net"
run xml_node pu --topology "$dir/xml.net" --comm "$dir/quad.edges" --oversubscribe "$cap"

if [ "$failures" -ne 0 ]; then echo "$failures failure(s)"; exit 1; fi
echo PASS
