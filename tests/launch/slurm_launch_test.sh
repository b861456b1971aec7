#!/bin/bash
# Slurm: a one-host cluster started here; `rankmap map --format slurm` and the srun line it
# prints (SLURM_HOSTFILE + --distribution=arbitrary + --cpu-bind, or the hwloc-bind wrapper)
# place every rank of an MPICH program (PMI-2 through srun) on the CPUs of its leaf. Also the
# cluster's own topology.conf and `scontrol show topology` as rankmap topologies.
set -uo pipefail
rankmap="$1"
reporter="$2"
reorder_test="$3"
dir="${TEST_TMPDIR:-$(mktemp -d)}"
failures=0
fail() { echo "FAIL $*"; failures=$((failures + 1)); }
source tests/launch/launch_checks.sh
source tests/launch/slurm_cluster.sh

npus=$(hwloc-calc --number-of pu machine:0)
if [ "$npus" -lt 2 ]; then echo "needs 2 CPUs, this machine has $npus"; exit 1; fi
slurm_start "$dir/cluster" || { echo "cannot start slurm"; exit 1; }
export SLURM_MPI_TYPE=pmi2
printf '0 1 100\n' >"$dir/pair.edges"
printf '0 1 100\n2 3 100\n1 2 1\n' >"$dir/quad.edges"
cap=$(((4 + npus - 1) / npus))

# Jobs run the printed srun line inside an allocation of every CPU, as a batch script would.
in_allocation() { timeout 120 salloc -Q -n "$npus" bash -c "$1 $2" </dev/null; }
run() {  # NAME MAP_ARGS...
  local name="$1"
  shift
  check_launch "$name" pu slurm in_allocation "$@"
}

seed=$(first_moving_seed --topology this --comm "$dir/pair.edges") ||
  { echo "no seed moves two ranks"; exit 1; }
run swapped --topology this --comm "$dir/pair.edges" --algorithm random --seed "$seed"
run four_on_two --topology this --comm "$dir/quad.edges" --oversubscribe "$cap" \
  --algorithm random --seed "$seed"
run masks --topology this --comm "$dir/quad.edges" --oversubscribe "$cap" \
  --algorithm random --seed "$seed" --bind mask
run wrapper --topology this --comm "$dir/quad.edges" --oversubscribe "$cap" \
  --algorithm random --seed "$seed" --bind wrapper
grep -q "cpu-bind=mask_cpu:" <<<"$(launch_line --topology this --comm "$dir/quad.edges" \
  --oversubscribe "$cap" --bind mask --format slurm --output "$dir/x.hosts")" ||
  fail "masks: no mask_cpu list"

# The cluster's own network description: topology.conf as written, and scontrol's view of it.
conf="$dir/cluster/slurm/topology.conf"
run topology_conf --topology "$conf" --node this --comm "$dir/pair.edges" --algorithm random \
  --seed "$seed"
scontrol show topology >"$dir/scontrol.out"
cat "$dir/scontrol.out"
run scontrol_topology --topology "$dir/scontrol.out" --node this --comm "$dir/pair.edges" \
  --algorithm random --seed "$seed"

# Inside the job, the MPI job tree hangs this host from the switches Slurm names in
# SLURM_TOPOLOGY_ADDR (top.s0.<host>): two switch levels above the host.
echo "$ salloc -n $npus: srun --cpu-bind=none -n $npus $reorder_test hwloc (RANKMAP_PRINT_TREE=1)"
tree="$(timeout 120 salloc -Q -n "$npus" bash -c \
  "RANKMAP_PRINT_TREE=1 srun --cpu-bind=none -n $npus $reorder_test hwloc" 2>&1 </dev/null)" ||
  fail "job tree: reorder failed"
echo "$tree"
[ "$(grep -c '^ *switch ' <<<"$tree")" -eq 2 ] || fail "job tree: expected two switch levels"
grep -q "^    .*host $host" <<<"$tree" || fail "job tree: host $host is not below the switches"

if [ "$failures" -ne 0 ]; then echo "$failures failure(s)"; exit 1; fi
echo PASS
