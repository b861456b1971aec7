#!/bin/bash
# `rankmap bind` under a real launcher (mpirun: Open MPI 4; hydra: MPICH mpiexec.hydra; srun: a
# one-host Slurm started here, MPICH through PMI-2): each rank
# binds itself from its rank variable and execs the reporter (mpi_bindings/binding_report_main.c),
# which reads back with hwloc the CPUs, the NUMA nodes and policy of its memory, and its OpenMP
# variables. Expectations come from hwloc-calc on the leaves of `rankmap map --format plain`.
# Bad input fails every rank with one line and exit 2, and the program never starts.
set -uo pipefail
rankmap="$1"
reporter="$2"
launcher="$3"
dir="${TEST_TMPDIR:-$(mktemp -d)}"
failures=0
fail() { echo "FAIL $*"; failures=$((failures + 1)); }
source tests/launch/launch_checks.sh

npus=$(hwloc-calc --number-of pu machine:0)
if [ "$npus" -lt 2 ]; then echo "needs 2 CPUs, this machine has $npus"; exit 1; fi

case "$launcher" in
  mpirun) launch() { local n="$1"; shift; timeout 120 mpirun -np "$n" "$@" </dev/null; } ;;
  hydra) launch() { local n="$1"; shift; timeout 120 mpiexec.hydra -n "$n" "$@" </dev/null; } ;;
  srun)
    source tests/launch/slurm_cluster.sh
    slurm_start "$dir/cluster" || { echo "cannot start slurm"; exit 1; }
    export SLURM_MPI_TYPE=pmi2
    # Every CPU allocated, as a batch script would; srun's own binding off (rankmap binds), and
    # --overcommit for more tasks than CPUs (the wrong-job-size case).
    launch() {
      local n="$1"; shift
      timeout 120 salloc -Q -n "$npus" srun --cpu-bind=none --overcommit -n "$n" "$@" </dev/null
    } ;;
  *) echo "unknown launcher $launcher"; exit 1 ;;
esac
printf '0 1 100\n' >"$dir/pair.edges"

# expected K POLICY MAPPING_FILE: the reporter's line for each rank owning leaves first..first+K-1
# (PU leaves of this machine); POLICY "bind" means memory on the NUMA nodes of those PUs.
expected() {
  local k="$1" policy="$2" r=0 first l locs places mems
  for first in $(cat "$3"); do
    locs="" places=""
    for l in $(seq "$first" $((first + k - 1))); do
      locs="$locs pu:$l"
      places="${places:+$places,}{$(hwloc-calc --physical-output --intersect pu "pu:$l")}"
    done
    if [ "$policy" = bind ]; then
      mems=$(hwloc-calc --physical-output --intersect numa $locs)
    else
      mems=$(hwloc-calc --physical-output --intersect numa machine:0)
    fi
    echo "rank $r cpus $(hwloc-calc --physical-output --intersect pu $locs) mems $mems" \
      "policy $policy threads $k places $places"
    r=$((r + 1))
  done
}

# check NAME NPROCS K POLICY MAPPING BIND_ARGS...
check() {
  local name="$1" n="$2" k="$3" policy="$4" mapping="$5" want got
  shift 5
  want="$(expected "$k" "$policy" "$mapping")"
  echo "$ $launcher -n $n rankmap bind --mapping $mapping $* -- binding_report"
  got="$(launch "$n" "$rankmap" bind --mapping "$mapping" "$@" -- "$reporter")" ||
    fail "$name: launch failed"
  same_placement "$name" "$want" "$got"
}

# Two ranks swapped by the mapping, CPUs and memory bound (the default).
seed=$(first_moving_seed --topology this --comm "$dir/pair.edges") ||
  { echo "no seed moves two ranks"; exit 1; }
"$rankmap" map --topology this --comm "$dir/pair.edges" --algorithm random --seed "$seed" \
  --quiet --output "$dir/swapped.txt" || fail "map swapped"
check swapped 2 1 bind "$dir/swapped.txt" --verbose
# CPUs only: the memory policy stays the kernel's default (first touch).
check cpu_only 2 1 firsttouch "$dir/swapped.txt" --bind cpu
# One rank with two threads (map --threads-per-process 2): both PUs, one OpenMP place each.
echo 0 >"$dir/one.mat"
"$rankmap" map --topology this --comm "$dir/one.mat" --threads-per-process 2 --quiet \
  --output "$dir/one.txt" || fail "map two_threads"
check two_threads 1 2 bind "$dir/one.txt" --threads-per-process 2

# Bad input: one line, exit 2, and the program (which would leave a mark) never starts.
marker="$dir/started"
bad() {  # NAME WANT_MESSAGE COMMAND...
  local name="$1" want="$2" out rc
  shift 2
  rm -f "$marker"
  out="$("$@" 2>&1 >/dev/null)"
  rc=$?
  grep -q -- "$want" <<<"$out" || fail "$name: expected '$want', got: $out"
  [ "$rc" -ne 0 ] || fail "$name: exit status 0"
  [ ! -e "$marker" ] || fail "$name: the program started"
  echo "ok $name: $(head -1 <<<"$out")"
}
touch_marker=(sh -c "touch $marker")
bad no_rank "bind: no rank in the environment" env -u OMPI_COMM_WORLD_RANK -u PMI_RANK \
  -u PMIX_RANK -u SLURM_PROCID "$rankmap" bind --mapping "$dir/one.txt" -- "${touch_marker[@]}"
out="$(env -u OMPI_COMM_WORLD_RANK -u PMI_RANK -u PMIX_RANK -u SLURM_PROCID "$rankmap" bind \
  --mapping "$dir/one.txt" -- true 2>&1)"
[ $? -eq 2 ] && [ "$(wc -l <<<"$out")" -eq 1 ] || fail "no_rank: not one line and exit 2: $out"
bad too_many_threads "needs leaves 0..$npus but the topology has $npus" launch 1 "$rankmap" bind \
  --mapping "$dir/one.txt" --threads-per-process $((npus + 1)) -- "${touch_marker[@]}"
bad wrong_job_size "the job has 3 processes but .*swapped.txt maps 2" launch 3 "$rankmap" bind \
  --mapping "$dir/swapped.txt" -- "${touch_marker[@]}"

if [ "$failures" -ne 0 ]; then echo "$failures failure(s)"; exit 1; fi
echo PASS
