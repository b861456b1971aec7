#!/bin/bash
# The profiler on programs that know nothing of rankmap: LD_PRELOAD only. Under the star model
# of collectives the matrices it writes must equal, byte for byte, what profile_expected derives
# from the programs' calls (profile_collectives_mpi_test checks the library model against the
# library's own monitoring).
# MPI_FLAVOR=mpich runs the MPICH builds under mpiexec.hydra (Fortran through mpifort.mpich).
set -euo pipefail
prog="$1"
lib="$(cd "$(dirname "$2")" && pwd)/$(basename "$2")"
expected="$3"
fsrc="$4"
cli="$5"
f08src="$6"
abortprog="$7"
dir="${TEST_TMPDIR:-$(mktemp -d)}"
source mpi_bindings/mpi_run.sh
source mpi_bindings/profile_formats.sh
mpifort=mpifort
[ "${MPI_FLAVOR:-openmpi}" = mpich ] && mpifort=mpifort.mpich
check() {  # name np kind program...
  local name="$1" np="$2" kind="$3"
  shift 3
  mpi_run "$np" LD_PRELOAD="$lib" RANKMAP_PROFILE_OUT="$dir/$name" \
    RANKMAP_PROFILE_COLLECTIVES=star -- "$@"
  "$expected" "$kind" "$np" "$dir/$name.want.mat" "$dir/$name.want.msgs.mat"
  # The matrices are bare, as TopoMatch reads them; the side file says what they cover: here
  # the whole run, in totals.
  for m in mat msgs.mat; do
    topomatch_mat "$dir/$name.$m" "$np"
    diff "$dir/$name.want.$m" "$dir/$name.$m"
  done
  profile_side "$dir/$name.profile" processes "$np" window "from MPI_Init to MPI_Finalize" \
    iterations none traffic "window totals" collectives star bytes "$name.mat" \
    messages "$name.msgs.mat" graph "$name.grf" placement "$name.placement"
  head -1 "$dir/$name.profile" | grep -qx "# rankmap profile: from MPI_Init to MPI_Finalize; window totals; collectives: star"
  # The .grf holds the symmetrised matrix, as Scotch reads it.
  scotch_grf "$dir/$name.grf" "$np"
  echo "$name: exact"
}
for np in 8 7 2 1; do
  check "c$np" "$np" c "$prog"
done
# The job's own hardware: one hwloc export per host, from a rank there, named in the side file.
[ "$(ls "$dir/c8.hwloc")" = "$(hostname).xml" ] || { echo "c8.hwloc: $(ls "$dir/c8.hwloc")"; exit 1; }
profile_side "$dir/c8.profile" hardware c8.hwloc
[ "$(hwloc-calc -i "$dir/c8.hwloc/$(hostname).xml" --number-of pu machine:0)" = \
  "$(hwloc-calc --number-of pu machine:0)" ]
# Fortran (use mpi): Open MPI's Fortran bindings call PMPI_* directly; the profiler's Fortran
# entry points must catch them.
"$mpifort" -o "$dir/fprog" "$fsrc"
"$mpifort" -o "$dir/f08prog" "$f08src"
for np in 4 1; do
  check "f$np" "$np" fortran "$dir/fprog"
  check "f08_$np" "$np" fortran "$dir/f08prog"
done
cat "$dir/c8.mat"
# The profile of a program never written for rankmap maps with the CLI; the dense matrix and
# the Scotch graph describe the same symmetric traffic, so they map alike.
topo="tleaf 3 2 100 2 10 2 1"
"$cli" map --quiet --topology "$topo" --comm "$dir/c8.mat" --output "$dir/m.mat.txt"
"$cli" map --quiet --topology "$topo" --comm "$dir/c8.grf" --output "$dir/m.grf.txt"
cat "$dir/m.mat.txt"
[ "$(sort -n "$dir/m.mat.txt" | uniq | wc -l)" = 8 ]
[ "$(sort -n "$dir/m.mat.txt" | tail -1)" = 7 ]
diff "$dir/m.mat.txt" "$dir/m.grf.txt"
# A job that aborts, and one that exits without MPI_Finalize: rows saved on the way
# (RANKMAP_PROFILE_FLUSH=0 saves after every recorded call) become a profile marked partial.
ring() {  # n: the matrix of "every rank sends 800 bytes to the next one"
  local n="$1" i j
  for ((i = 0; i < n; ++i)); do
    local line=""
    for ((j = 0; j < n; ++j)); do
      if [ "$j" -eq $(((i + 1) % n)) ]; then line+="800"; else line+="0"; fi
      [ "$j" -lt $((n - 1)) ] && line+=" "
    done
    echo "$line"
  done
}
partial() {  # name np mode expected-reason
  local name="$1" np="$2" mode="$3" reason="$4"
  rm -f "$dir/$name".*
  mpi_run "$np" LD_PRELOAD="$lib" RANKMAP_PROFILE_OUT="$dir/$name" \
    RANKMAP_PROFILE_FLUSH=0 -- "$abortprog" "$mode" >/dev/null 2>&1 || true
  topomatch_mat "$dir/$name.mat" "$np"
  topomatch_mat "$dir/$name.msgs.mat" "$np"
  grep -q "^partial=$reason" "$dir/$name.profile"
  head -1 "$dir/$name.profile" | grep -q "^# rankmap profile: "
  grep -q "rows of $np of $np processes" "$dir/$name.partial"
  # Where every saved rank ran, as in a complete profile.
  [ "$(grep -vc '^#' "$dir/$name.placement")" = "$np" ]
  awk -v np="$np" '!/^#/ && ($1 < 0 || $1 >= np || NF != 3) { exit 1 }' "$dir/$name.placement"
  diff <(ring "$np") "$dir/$name.mat"
  "$cli" map --quiet --topology "$topo" --comm "$dir/$name.mat" --output /dev/null
  echo "$name: partial profile kept ($(cat "$dir/$name.partial"))"
}
partial abort4 4 abort "rank 3 called MPI_Abort (error code 3)"
partial exit2 2 exit "rank [01] exited without MPI_Finalize"
echo PASS
