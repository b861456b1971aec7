#!/bin/bash
# Hostile numbers through `rankmap frontend` (and the speeds file of `map
# --process-speeds`), each under a 2 GiB address-space limit and a 30 s
# timeout: sizes near 2^63 that looped, counts that allocated without sizing,
# 64-bit products that wrapped, readers that were quadratic, values that
# reached a partitioner without their file and line. Every case answers in
# time: exit 2 with one line naming the flag, file or limit, or exit 0.
set -uo pipefail
rankmap="$1"
dir="${TEST_TMPDIR:-$(mktemp -d)}"
source tests/cli/cli_checks.sh

# limited ARGS...: rankmap under the limits; sets out, msg and rc.
limited() {
  msg="$( (ulimit -v 2097152; timeout 30 "$rankmap" "$@") 2>&1 >"$dir/out")"
  rc=$?
}

# hostile NAME WANT ARGS...: exit 2 and one stderr line holding WANT.
hostile() {
  local name="$1" want="$2"
  shift 2
  limited "$@"
  [ "$rc" -eq 2 ] || fail "$name: exit $rc (124: timed out): $msg"
  [ "$(wc -l <<<"$msg")" -eq 1 ] || fail "$name: not one line: $msg"
  grep -qF -- "$want" <<<"$msg" || fail "$name: expected '$want', got: $msg"
  echo "ok $name: $msg"
}

# answers NAME WANT ARGS...: exit 0 and a report line holding WANT.
answers() {
  local name="$1" want="$2"
  shift 2
  limited "$@"
  [ "$rc" -eq 0 ] || fail "$name: exit $rc (124: timed out): $msg"
  grep -qF -- "$want" <<<"$msg$(cat "$dir/out")" ||
    fail "$name: expected '$want' in the report: $msg"
  echo "ok $name"
}

# Sizes: near 2^63 the rounding looped; near 2^31 the totals wrapped.
hostile summa_n_2_63 "matrix size 9223372036854775807 is above the limit of 2147483647 (--n)" \
  frontend summa --speeds 2,1 --n 9223372036854775807
hostile square_corner_3_n "above the limit of 2147483647 (--n)" \
  frontend square-corner --speeds 2,1,1 --n 4000000000
hostile square_corner_bytes "exceeds 2^63 - 1 bytes" \
  frontend square-corner --speeds 8,1 --n 2147483647
hostile clusters_int32 "--clusters: expected an integer from -2147483648 to 2147483647, found '1e10'" \
  frontend summa --speeds 1,1 --n 10 --clusters 0,1e10

# Counts sized before anything is built.
seq 20000 | sed 's/.*/1/' >"$dir/20k.speeds"
hostile summa_procs "the matrix front ends report the volume of every pair and take at most 16384" \
  frontend summa --partitioner grid --speeds "$dir/20k.speeds" --n 20000
hostile stencil_procs "stencil: 100000000 processes needs about" \
  frontend stencil --grid 100000x100000 --procs 100000000
hostile stencil_halo "stencil: the halo exchange of 10000 processes" \
  frontend stencil --grid 1000x1000 --procs 10000 --stencil 9 --halo 1000
hostile wave2d_procs "limit of 50000 processes" \
  frontend wave2d --grid 100000x100000 --procs 100000000
hostile mpdata_procs "mpdata: 100000000 processors, expected 1 to 1048576" \
  frontend mpdata --procs 100000000
hostile mpdata_work "mpdata: Algorithm 3 on 720720 processors needs more than 100000000 cell visits" \
  frontend mpdata --procs 720720
hostile mpdata_groups "mpdata: 100001 groups of 2 processors needs about" \
  frontend mpdata --clusters 0,100000

# Readers: near-linear, and errors with their file and line.
awk 'BEGIN { printf "1 1:2\n0"; for (k = 1; k <= 250000; ++k) printf " %d:1", k; print "" }' \
  >"$dir/long.fpm"
answers fpm_250k_points "proc 1: area" \
  frontend summa --speed-functions "$dir/long.fpm" --n 1000
printf '0 1:1\n1 1:1e-300\n' >"$dir/tiny.fpm"
hostile fpm_range "tiny.fpm:2: point '1:1e-300': speed 1e-300 at size 1 is outside [1e-100, 1e+100]" \
  frontend summa --speed-functions "$dir/tiny.fpm" --n 64
awk 'BEGIN { print "grid 500 400"; k = 0
             for (c = 0; c < 400; ++c) for (r = 0; r < 500; ++r) print k++, r, c, 1, 1 }' \
  >"$dir/200k.part"
hostile partition_200k "200000 processors; the matrix front ends report the volume of every pair" \
  frontend summa --partition "$dir/200k.part"
cp "$dir/200k.part" "$dir/overlap.part"
echo "5 0 0 1 1" >>"$dir/overlap.part"
hostile partition_overlap "overlap.part:200002: rectangle overlaps the one on line 2" \
  frontend summa --partition "$dir/overlap.part"
printf '1\n1e-300\n' >"$dir/tiny.speeds"
hostile speeds_range "tiny.speeds:2: speed '1e-300' is outside [1e-100, 1e+100]" \
  frontend stencil --grid 64x64 --speeds "$dir/tiny.speeds"
printf '0 1 8\n' >"$dir/pair.edges"
hostile process_speeds_range "tiny.speeds:2: speed '1e-300' is outside" \
  map --topology "tleaf 1 2 1" --comm "$dir/pair.edges" --process-speeds "$dir/tiny.speeds"

if [ "$failures" -ne 0 ]; then echo "$failures failure(s)"; exit 1; fi
echo PASS
