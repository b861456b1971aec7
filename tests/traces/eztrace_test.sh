#!/bin/bash
# A real tracer: EZTrace (Debian's eztrace, its mpich module) records an MPICH program with
# known traffic as an OTF2 trace; the OTF2 reader gives exactly that traffic per pair of world
# ranks, and rankmap maps the trace like any graph.
set -uo pipefail
prog="$1"
traffic="$2"
rankmap="$3"
dir="${TEST_TMPDIR:-$(mktemp -d)}"
failures=0
fail() { echo "FAIL $*"; failures=$((failures + 1)); }

for np in 4 3; do
  out="$dir/trace$np"
  rm -rf "$out"
  timeout 120 mpiexec.hydra -n "$np" eztrace -o "$out" -t mpich "$prog" </dev/null ||
    { fail "np=$np: the traced run failed"; continue; }
  anchor="$(find "$out" -name '*.otf2' | head -1)"
  [ -n "$anchor" ] || { fail "np=$np: no OTF2 anchor in $out"; continue; }
  got="$("$traffic" "$anchor")" || { fail "np=$np: reading $anchor"; continue; }
  # Rank r: 100 * (r + 1) bytes to r + 1 (MPI_Send), 8 bytes to r + 2 (MPI_Isend).
  want="$(awk -v n="$np" 'BEGIN { print "ranks", n
    for (r = 0; r < n; r++) { b[r, (r + 1) % n] += 100 * (r + 1); m[r, (r + 1) % n]++
                              b[r, (r + 2) % n] += 8; m[r, (r + 2) % n]++ }
    for (s = 0; s < n; s++) for (t = 0; t < n; t++) if (m[s, t]) print s, t, b[s, t], m[s, t] }')"
  if [ "$got" = "$want" ]; then
    echo "ok np=$np"
  else
    fail "np=$np: traffic differs"
    echo "--- want"; echo "$want"; echo "--- got"; echo "$got"
  fi
  # The trace maps like any communication graph: on a flat machine J is the total volume.
  total=$(awk 'NR > 1 { s += $3 } END { print s }' <<<"$want")
  seq 0 $((np - 1)) >"$dir/identity$np.map"
  j="$("$rankmap" eval --topology "tleaf 1 $np 1" --comm "$anchor" \
    --mapping "$dir/identity$np.map" | awk '$1 == "J" { print $2 }')"
  [ "$j" = "$total" ] || fail "np=$np: eval J $j, want $total"
done

if [ "$failures" -ne 0 ]; then echo "$failures failure(s)"; exit 1; fi
echo PASS
