#!/bin/bash
# The profiler's model of Open MPI's collectives against the messages Open MPI itself sends:
# profile_collectives_test_main runs every modelled collective (blocking and non-blocking,
# 8 bytes to 96 KB, several roots, in place, a non-commutative operation) on 3, 4 and 6 ranks,
# once under Open MPI's pml monitoring and once under the profiler. Per pair of ranks, the
# messages and bytes the profiler records must equal those monitoring counts. Monitoring files
# sends inside collectives under "I", except those of the linear Alltoall(v) algorithms, which
# go through persistent requests and are filed as point to point, "E"; the program sends no
# point to point, so the test adds both.
set -euo pipefail
prog="$1"
lib="$(cd "$(dirname "$2")" && pwd)/$(basename "$2")"
dir="${TEST_TMPDIR:-$(mktemp -d)}"
source mpi_bindings/mpi_run.sh

for np in 3 4 6; do
  OMPI_MCA_pml_monitoring_enable=2 OMPI_MCA_pml_monitoring_enable_output=3 \
    OMPI_MCA_pml_monitoring_filename="$dir/mon$np" mpi_run "$np" -- "$prog"
  mpi_run "$np" LD_PRELOAD="$lib" RANKMAP_PROFILE_OUT="$dir/prof$np" \
    RANKMAP_PROFILE_COLLECTIVES=library -- "$prog"
  head -1 "$dir/prof$np.profile" | grep -q "; collectives: openmpi$"  # the side file says what the profile is
  # Monitoring: "I|E <tab> from <tab> to <tab> N bytes <tab> M msgs sent ..." per rank.
  cat "$dir"/mon"$np".*.prof >"$dir/mon$np.all"
  awk -v np="$np" -v bytes="$dir/prof$np.mat" -v msgs="$dir/prof$np.msgs.mat" '
    function read(file, m,   line, n, f, j, row) {
      row = 0
      while ((getline line < file) > 0) {
        if (line ~ /^#/) continue
        n = split(line, f, " ")
        for (j = 1; j <= n; ++j) m[row, j - 1] = f[j] + 0
        ++row
      }
      return row
    }
    BEGIN { FS = "\t" }
    $1 == "I" || $1 == "E" {
      split($4, b, " "); split($5, m, " ")
      mb[$2, $3] += b[1]; mm[$2, $3] += m[1]; seen++
    }
    END {
      if (read(bytes, pb) != np || read(msgs, pm) != np) { print "bad profile"; exit 1 }
      bad = 0
      for (i = 0; i < np; ++i) for (j = 0; j < np; ++j) {
        if (pb[i, j] != mb[i, j] || pm[i, j] != mm[i, j]) {
          printf "%d ranks, %d -> %d: profiler %d bytes %d msgs, monitoring %d bytes %d msgs\n", \
            np, i, j, pb[i, j], pm[i, j], mb[i, j], mm[i, j]
          ++bad
        }
        total_b += pb[i, j]; total_m += pm[i, j]
      }
      if (bad) exit 1
      if (seen == 0 || total_m == 0) { print "nothing monitored"; exit 1 }
      printf "%d ranks: all %d pairs equal, %d messages, %d bytes\n", np, np * np, total_m, total_b
    }' "$dir/mon$np.all"
done
echo PASS
