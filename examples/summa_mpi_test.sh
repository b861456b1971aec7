#!/bin/bash
# examples/summa_mpi end to end: heterogeneous SUMMA on 4 and 3 processes must
# produce the exact product both in MPI_COMM_WORLD and in the communicator
# reordered by the arrangement heuristic. With 4 processes (speeds 3,2,2,1,
# clusters 0,1,1,0, 16 x 16 blocks of 4, unit 4 * 8 bytes, bandwidth 100 inside
# and 10 across clusters) the hand-computed bandwidth costs are
#   before: bands [0,10) 0|2 mixed 0.2*10*32 = 64, [10,11) 1|2 0.02*1*32 = 0.64,
#           [11,16) 1|3 mixed 0.2*5*32 = 32 -> A 96.64; columns 0.2*10*32 +
#           0.2*6*32 -> B 102.40; total 199.04
#   after (column 2 flipped, 3 above 2): 0.02*5*32 + 0.2*5*32 + 0.02*6*32
#           -> A 39.04; B unchanged; total 141.44; rank order 0 1 3 2.
set -euo pipefail
prog="$1"
mpi() { timeout 120 mpirun "$@"; }

# Trace of A x B for n = 64, computed independently of the program.
trace="$(awk 'BEGIN { n = 64; t = 0
  for (i = 0; i < n; i++) for (k = 0; k < n; k++)
    t += ((i + 2 * k) % 7 - 3) * ((2 * k + i) % 5 - 2)
  print t }')"

out4="$(mpi -np 4 "$prog")"
echo "$out4"
[ "$(grep -c "product OK (n=64, trace $trace)" <<<"$out4")" = 2 ]
grep -q "^world (start partition): product OK" <<<"$out4"
grep -q "^reordered (arranged partition): product OK" <<<"$out4"
grep -q "^reordered ranks follow rank_order: yes" <<<"$out4"
grep -q "^bandwidth cost before: A 96.64 B 102.40 total 199.04$" <<<"$out4"
grep -q "^bandwidth cost after Algorithm 2 (.*): A 39.04 B 102.40 total 141.44$" \
  <<<"$out4"
grep -q "^rank order (rank r runs on processor): 0 1 3 2$" <<<"$out4"

out3="$(mpi -np 3 "$prog")"
echo "$out3"
[ "$(grep -c "product OK (n=64, trace $trace)" <<<"$out3")" = 2 ]
before="$(sed -n 's/^bandwidth cost before:.* total //p' <<<"$out3")"
after="$(sed -n 's/^bandwidth cost after.* total //p' <<<"$out3")"
awk -v b="$before" -v a="$after" 'BEGIN { exit !(a <= b) }'

# Other sizes, several rectangles per band, a reordering on 5 processes.
out5="$(mpi -np 5 "$prog" --speeds=5,1,1,2,3 --n=96 --block=8)"
echo "$out5"
[ "$(grep -c "product OK (n=96" <<<"$out5")" = 2 ]

# Bad input: an error on every rank, a non-zero exit, no hang.
if err="$(mpi -np 2 "$prog" --speeds=1 2>&1)"; then
  echo "expected a failure for 1 speed on 2 processes"
  exit 1
fi
grep -q "summa_mpi: 1 speeds for 2 processes" <<<"$err"
echo PASS
