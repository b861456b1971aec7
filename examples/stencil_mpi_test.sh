#!/bin/bash
# The three ways in, end to end, on examples/stencil_mpi with 8 processes pretending to run on
# 2 nodes x 2 sockets x 2 cores (RANKMAP_TOPOLOGY): every way must lower the model cost J and
# leave the result (checksum) unchanged.
set -euo pipefail
prog="$1"
abs() { echo "$(cd "$(dirname "$1")" && pwd)/$(basename "$1")"; }
profile_lib="$(abs "$2")"
reorder_lib="$(abs "$3")"
dir="${TEST_TMPDIR:-$(mktemp -d)}"
export RANKMAP_TOPOLOGY="tleaf 3 2 100 2 10 2 1"
np=8
iters=20
mpi() { timeout 60 mpirun -np "$np" -x RANKMAP_TOPOLOGY "$@"; }
field() { sed -n "s/.*$1=\([^ ]*\).*/\1/p" <<<"$2" | head -1; }

base="$(mpi --bind-to none "$prog" run "$iters")"
echo "$base"
checksum="$(field checksum "$base")"
before="$(field before "$base")"

# (a) profile without recompiling, map, write a rankfile, relaunch.
mpi --bind-to none -x LD_PRELOAD="$profile_lib" -x RANKMAP_PROFILE_OUT="$dir/st" \
  "$prog" run "$iters" >/dev/null
test -s "$dir/st.mat" && test -s "$dir/st.grf"
planned="$("$prog" map "$dir/st.grf" "$RANKMAP_TOPOLOGY" 1 -)"
echo "$planned"
[ "$(field before "$planned")" -gt "$(field after "$planned")" ]
pus=$(nproc)
cap=$(((np + pus - 1) / pus))
"$prog" map "$dir/st.grf" this "$cap" "$dir/st.rankfile"
cat "$dir/st.rankfile"
relaunched="$(mpi --mca rmaps_rank_file_physical 1 --rankfile "$dir/st.rankfile" \
  "$prog" run "$iters")"
echo "$relaunched"
[ "$(field checksum "$relaunched")" = "$checksum" ]
want="$(awk '/^rank/ { split($3, s, "="); printf "%s%s", sep, s[2]; sep = " " }' \
  "$dir/st.rankfile")"
[ "$(sed -n 's/^bindings=//p' <<<"$relaunched")" = "$want" ]

# (b) the program's own reorder = 1, with the interception library preloaded.
dist="$(mpi --bind-to none -x LD_PRELOAD="$reorder_lib" "$prog" dist "$iters")"
echo "$dist"
[ "$(field checksum "$dist")" = "$checksum" ]
[ "$(field before "$dist")" = "$before" ]
[ "$(field after "$dist")" -lt "$before" ]

# (c) the API call; same graph and engine, so the same order as (b).
api="$(mpi --bind-to none "$prog" api "$iters")"
echo "$api"
[ "$(field checksum "$api")" = "$checksum" ]
[ "$(field after "$api")" -lt "$before" ]
[ "$(field order "$api")" = "$(field order "$dist")" ]
echo PASS
