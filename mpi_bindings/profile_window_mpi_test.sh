#!/bin/bash
# Profiling windows on a real job (profile_window_test_main: a start-up phase unlike the steady
# state, then iterations of known traffic): the per-iteration matrices must equal, exactly, what
# one iteration sends; MPI_Pcontrol windows; the placement file against what every rank reads
# back from sched_getaffinity; a bad setting. MPI_FLAVOR=mpich runs the MPICH build under
# mpiexec.hydra.
set -euo pipefail
prog="$1"
lib="$(cd "$(dirname "$2")" && pwd)/$(basename "$2")"
dir="${TEST_TMPDIR:-$(mktemp -d)}"
source mpi_bindings/mpi_run.sh
source mpi_bindings/profile_formats.sh
# The default model of collectives is the library's own.
model=openmpi
[ "${MPI_FLAVOR:-openmpi}" = mpich ] && model=mpich

# One iteration's traffic on n ranks, as the .mat (bytes) or .msgs.mat (messages) holds it,
# times `times`: two 340-byte messages to rank + 1, one of 1000 bytes to rank - 1, and the
# MPI_Allreduce of one double. Both libraries' models run an 8-byte Allreduce on 2 or 4 ranks
# as recursive doubling: one 8-byte message to rank ^ 1 and to rank ^ 2 (n = 4).
iteration() {  # n bytes|msgs times
  awk -v n="$1" -v what="$2" -v times="$3" 'BEGIN {
    for (i = 0; i < n; ++i) {
      line = ""
      for (j = 0; j < n; ++j) {
        b = 0; m = 0
        if (j == (i + 1) % n) { b += 680; m += 2 }
        if (j == (i + n - 1) % n) { b += 1000; m += 1 }
        for (d = 1; d < n; d *= 2) if (j == flip(i, d)) { b += 8; m += 1 }
        v = (what == "bytes" ? b : m) * times
        line = line (j ? " " : "") v
      }
      print line
    }
  }
  function flip(x, bit) { return int(x / bit) % 2 ? x - bit : x + bit }'
}
# name np header-pattern times: the run's matrices hold `times` iterations' traffic.
check() {
  local name="$1" np="$2" header="$3" times="$4"
  head -1 "$dir/$name.profile" | grep -qx "# rankmap profile: $header" ||
    { echo "$name.profile: header '$(head -1 "$dir/$name.profile")'"; exit 1; }
  # The matrices are bare, as TopoMatch and Scotch read them.
  for m in mat msgs.mat; do topomatch_mat "$dir/$name.$m" "$np"; done
  scotch_grf "$dir/$name.grf" "$np"
  diff <(iteration "$np" bytes "$times") "$dir/$name.mat"
  diff <(iteration "$np" msgs "$times") "$dir/$name.msgs.mat"
  echo "$name: exact"
}
# name: prefix.placement against the "rank R host H cpus A,B" lines the ranks printed.
placement() {
  local name="$1"
  head -1 "$dir/$name.placement" | grep -q "^# "
  diff <(grep '^rank ' "$dir/$name.out") <(awk '!/^#/ {
    n = split($3, parts, ","); cpus = ""
    for (k = 1; k <= n; ++k) {
      if (split(parts[k], r, "-") == 2) { for (c = r[1]; c <= r[2]; ++c) cpus = cpus sep(cpus) c }
      else cpus = cpus sep(cpus) parts[k]
    }
    print "rank " $1 " host " $2 " cpus " cpus
  } function sep(s) { return s == "" ? "" : "," }' "$dir/$name.placement")
  echo "$name: placement matches sched_getaffinity ($(grep -v '^#' "$dir/$name.placement" | tr '\n' ';'))"
}
run() {  # name np settings... -- program args
  local name="$1" np="$2"
  shift 2
  mpi_run "$np" LD_PRELOAD="$lib" RANKMAP_PROFILE_OUT="$dir/$name" "$@" >"$dir/$name.out"
}

# Iterations end at MPI_Allreduce; the first 3 (the start-up phase falls in the first) are
# skipped; the Gather and the lines printed after the 8th are not a whole iteration.
run skip3 4 RANKMAP_PROFILE_MARK=MPI_Allreduce RANKMAP_PROFILE_SKIP=3 -- "$prog" marks 8
check skip3 4 "iterations end at each MPI_Allreduce; the first 3 skipped; 5 iterations on every rank; traffic per iteration (window totals / 5); collectives: $model" 1
placement skip3
# Every 2nd MPI_Allreduce, at most 2 counted after skipping 1: an iteration is two of the
# program's; each rank bound to its own CPU.
MPI_RUN_CPUS=1,0 run pairs 2 RANKMAP_PROFILE_MARK=mpi_allreduce/2 RANKMAP_PROFILE_SKIP=1 \
  RANKMAP_PROFILE_ITERATIONS=2 -- "$prog" marks 8
check pairs 2 "iterations end at every 2nd MPI_Allreduce; the first 1 skipped; at most 2 counted; 2 iterations on every rank; traffic per iteration (window totals / 2); collectives: $model" 2
placement pairs
[ "$(grep -v '^#' "$dir/pairs.placement" | awk '$3 ~ /^[0-9]+$/ { print $3 }' | sort -u | wc -l)" = 2 ]
# MPI_Pcontrol(1) opens an iteration (MPI_Pcontrol(0) closes it); 2 skipped.
run pc 4 RANKMAP_PROFILE_MARK=pcontrol RANKMAP_PROFILE_SKIP=2 -- "$prog" pcontrol 8
check pc 4 "iterations opened by MPI_Pcontrol(1); the first 2 skipped; 6 iterations on every rank; traffic per iteration (window totals / 6); collectives: $model" 1
# Without a mark MPI_Pcontrol(0)/(1) only pause and resume: the files hold the 8 iterations'
# totals, start-up and tail excluded.
run paused 4 -- "$prog" pcontrol 8
check paused 4 "from MPI_Init to MPI_Finalize; paused 9 times by MPI_Pcontrol(0); window totals; collectives: $model" 8
# A bad setting: one line on stderr naming the variable, nothing written, the program runs on.
set +e
mpi_run 2 LD_PRELOAD="$lib" RANKMAP_PROFILE_OUT="$dir/bad" RANKMAP_PROFILE_MARK=MPI_Allreduc \
  -- "$prog" marks 2 >"$dir/bad.out" 2>"$dir/bad.err"
rc=$?
set -e
cat "$dir/bad.err"
[ "$rc" = 0 ]
[ "$(grep -c RANKMAP_PROFILE_MARK "$dir/bad.err")" = 1 ]
grep -q "^rankmap: RANKMAP_PROFILE_MARK='MPI_Allreduc': " "$dir/bad.err"
[ "$(grep -c '^rank ' "$dir/bad.out")" = 2 ]
! ls "$dir"/bad.* | grep -v '\.\(out\|err\)$'
# RANKMAP_PROFILE_FLUSH is checked the same way.
set +e
mpi_run 2 LD_PRELOAD="$lib" RANKMAP_PROFILE_OUT="$dir/badflush" RANKMAP_PROFILE_FLUSH=5s \
  -- "$prog" marks 2 >"$dir/badflush.out" 2>"$dir/badflush.err"
rc=$?
set -e
cat "$dir/badflush.err"
[ "$rc" = 0 ]
[ "$(grep -c RANKMAP_PROFILE_FLUSH "$dir/badflush.err")" = 1 ]
grep -q "^rankmap: RANKMAP_PROFILE_FLUSH='5s': expected seconds" "$dir/badflush.err"
! ls "$dir"/badflush.* | grep -v '\.\(out\|err\)$'
echo PASS
