#!/usr/bin/env bash
# Seed results through the rankmap command: the front ends' options that select
# the seeds' variants (hop norm, arrangement search, partition and speed-function
# files, Becker's networks, direction weights) and the values the library tests
# assert, printed by the report.
set -u
rankmap="$1"
data="$(dirname "$0")/data"
failures=0

# expect NAME PATTERN ARGS...: exit 0 and a report line matching PATTERN.
expect() {
  local name="$1" want="$2"; shift 2
  local out
  if ! out="$("$rankmap" "$@" 2>&1)"; then
    echo "FAIL $name: $out"; failures=$((failures + 1)); return
  fi
  if ! grep -qE -- "$want" <<<"$out"; then
    echo "FAIL $name: no line matching '$want' in:"; echo "$out"
    failures=$((failures + 1))
  fi
}

# Malik, Fig. 3.8 worst case, clusters and Table 3.3 bandwidths (MB/s); a block
# row of 64 doubles is 512 bytes, the thesis's unit.
fig38=(frontend summa --partition "$data/fig38_worst.part" --n 8192 --block 64
       --clusters 0,0,2,3,1,2,1,2,2,3,0,3,1,3,0,2)
t33=891.20,55.01,249.53,56.39,55.01,893.13,68.96,90.88,249.53,68.96,6850.27,71.93,56.39,90.88,71.93,896.17
# Tables 3.4-3.7 (corrected): 4802.28 before, 3609.79 after (Algorithm 2:
# 3609.81, 62 evaluations); hop cost_A + cost_B 340 + 330 before.
expect fig38_bandwidth "^bandwidth cost before: A 2854.14 B 1948.16 total 4802.30$" \
  "${fig38[@]}" --bandwidth "$t33"
expect fig38_alg2 "^bandwidth cost after Algorithm 2 \(62 evaluations\): .* total 3609.81$" \
  "${fig38[@]}" --bandwidth "$t33"
expect fig38_hops "^hop cost \(A \+ B\) before: A 340.00 B 330.00 total 670.00$" \
  "${fig38[@]}" --bandwidth "$t33"
# Algorithm 1 (60 evaluations) and the exhaustive search under the hop cost:
# 571 against 507.
expect fig38_alg1 "^hop cost \(A \+ B\) after Algorithm 1 \(60 evaluations\): A 256.00 B 315.00 total 571.00$" \
  "${fig38[@]}"
expect fig38_exhaustive "after exhaustive search .* total 507.00$" \
  "${fig38[@]}" --arrange exhaustive
# sqrt(340^2 + 330^2) = sqrt(224500) = 473.81.
expect fig38_euclid "^hop cost \(sqrt\(A\^2 \+ B\^2\)\) before: A 340.00 B 330.00 total 473.81$" \
  "${fig38[@]}" --hop-norm euclid

# FPM-BR: the hand-checked 12 x 12 case (60 / 84 blocks).
expect fpm "proc 1: area 84 blocks" frontend summa --speed-functions "$data/falling.fpm" \
  --n 96 --block 8

# Becker 6.1, 70:15:15: straight-line on a fully connected network,
# square-corner on a star with the fastest at the hub, straight-line again with
# a slow hub.
expect becker_fc "^partition: straight-line" frontend square-corner --speeds 70,15,15 --n 100
expect becker_star "^partition: square-corner" frontend square-corner --speeds 70,15,15 \
  --n 100 --network star
expect becker_slow_hub "^partition: straight-line" frontend square-corner \
  --speeds 70,15,15 --n 100 --network star --hub 1

# Direction weights: 2 x 2 blocks of a 4 x 4 grid, left/right halos weigh 12.8
# per byte: 2 * 32 * 12.8 + 2 * 32 = 883.2 bytes-equivalent.
expect axis_weights "883.2 bytes per iteration" frontend stencil --grid 4x4 --procs 4 \
  --axis-weights 1,12.8

# MPDATA, Algorithm 3 (Malik 4.4.2) on the 512 x 512 x 64 domain, open chains.
# One cluster (Grisou, Table 4.3): 6 x 2 at 18587.7 (thesis 18,535); with 1D
# shapes allowed 12 x 1 scores lower, 11513.6, which is why the thesis's 6 x 2
# implies r, c >= 2.
grisou=(frontend mpdata --procs 12 --bandwidth 0.03834 --bandwidth-v 0.48916)
expect mpdata_grisou "on a 6x2 arrangement of 1 groups \(cost 18587.7\)" "${grisou[@]}"
expect mpdata_1d "on a 12x1 arrangement of 1 groups \(cost 11513.6\)" "${grisou[@]}" --allow-1d
# Four clusters (Table 4.1; Grimoire x3, Parasilo x4, Grisou x2, Paravance x3):
# 2,148,784 (thesis 2,143,978).
x=0.00007
y=0.00056
expect mpdata_clusters "on a 6x2 arrangement of 4 groups \(cost 2.14878e\+06\)" \
  frontend mpdata --clusters 0,0,0,1,1,1,1,2,2,3,3,3 \
  --bandwidth 0.03963,$x,0.03889,$x,$x,0.03876,$x,0.03732,0.03889,$x,0.03834,$x,$x,0.03732,$x,0.03920 \
  --bandwidth-v 0.48068,$y,0.49341,$y,$y,0.48858,$y,0.45943,0.49341,$y,0.48916,$y,$y,0.45943,$y,0.46808

if [ "$failures" -ne 0 ]; then echo "$failures failures"; exit 1; fi
echo PASS
