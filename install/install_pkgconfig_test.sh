#!/usr/bin/env bash
# Installs rankmap into a temporary prefix, then builds the C and C++ examples
# with plain gcc/g++ and `pkg-config --cflags --libs rankmap`, runs them and
# compares their output with the Bazel-built examples'. Also compiles every
# installed header on its own (C headers as C too), next to a client project
# whose own core/ and base/ headers would be found first if rankmap's
# includes were not namespaced, a C99 program using the newest C call, and a
# program using the C API and the MPI C API together (their option structs
# must not clash), run under mpirun.
set -euo pipefail
install="$1" bazel_c_api="$2" bazel_quickstart="$3" c_api="$4" quickstart="$5"
both_apis="$6" traffic_api="$7"
prefix="$TEST_TMPDIR/prefix"
work="$TEST_TMPDIR/work"
mkdir -p "$work"
"$install" --prefix "$prefix" > /dev/null
export PKG_CONFIG_PATH="$prefix/lib/pkgconfig"
export LD_LIBRARY_PATH="$prefix/lib:$prefix/lib/openmpi"
topology="tleaf 3 2 100 2 10 4 1"

# One directory of rankmap's own under include/, and only -I include.
[ "$(ls "$prefix/include")" = "rankmap" ] || { ls "$prefix/include"; exit 1; }
cflags=" $(pkg-config --cflags rankmap) "
[[ "$cflags" == *" -I$prefix/include "* && "$cflags" != *"/include/rankmap"* ]] ||
  { echo "cflags: $cflags"; exit 1; }
[ -f "$prefix/include/rankmap/rankmap.h" ] && [ -f "$prefix/include/rankmap/c_api.h" ]
[ -f "$prefix/include/rankmap/core/mapper.h" ]
head -1 "$prefix/share/doc/rankmap/LICENSE" | grep -qx "BSD 3-Clause License"

gcc -Wall -Werror -o "$work/c_api" "$c_api" $(pkg-config --cflags --libs rankmap)
g++ -std=c++20 -Wall -Werror -o "$work/quickstart" "$quickstart" \
  $(pkg-config --cflags --libs rankmap)
# The installed library, not a copy of the engine, must be what they run.
grep -q "librankmap.so.0 => $prefix/lib/librankmap.so.0" <(ldd "$work/c_api")
grep -q "librankmap.so.0 => $prefix/lib/" <(ldd "$work/quickstart")
diff <("$bazel_c_api") <("$work/c_api")
diff <("$bazel_quickstart" "$topology") <("$work/quickstart" "$topology")
grep -q "J = 4488 (identity 444248)" <("$work/c_api")
if "$work/quickstart" "pack:0" 2> "$work/err"; then
  echo "installed quickstart accepted a bad topology"; exit 1
fi
grep -q "pack:0" "$work/err"

# A client with headers of its own named like rankmap's packages, first on the
# include path: an installed header reaching for "core/..." or "base/..." would
# get these and stop.
client="$work/client"
for h in core/mapper.h core/model/mapping.h core/model/options.h base/status_macros.h \
         graphs/comm_graph.h topology/tree.h c_api.h rankmap.h; do
  mkdir -p "$client/$(dirname "$h")"
  echo "#error the client's own $h, not rankmap's" > "$client/$h"
done
# Every installed header compiles alone: the set includes all it needs (one
# compiler per CPU).
compile_alone() {
  local header="${1#"$prefix/include/"}" flags
  flags=$(pkg-config --cflags rankmap)
  case "$header" in rankmap/mpi_bindings/*) flags=$(pkg-config --cflags rankmap-openmpi) ;; esac
  echo "#include <$header>" | g++ -std=c++20 -fsyntax-only -I"$client" $flags -x c++ - ||
    { echo "FAILED: $header"; return 1; }
}
export -f compile_alone
export prefix client
headers=$(find "$prefix/include" -name '*.h' | sort)
count=$(wc -l <<<"$headers")
[ "$count" -eq 21 ] || { echo "expected 21 installed headers, found $count"; exit 1; }
xargs -P "$(nproc)" -I{} bash -c 'compile_alone "$1"' _ {} <<<"$headers"
for header in rankmap/rankmap.h rankmap/c_api.h; do
  echo "#include <$header>" > "$work/one.c"
  gcc -std=c99 -Wall -Wextra -pedantic -Werror -fsyntax-only -I"$client" \
    $(pkg-config --cflags rankmap) "$work/one.c"
done

# The newest C call, message counts and the present order, from C99.
gcc -std=c99 -Wall -Werror -o "$work/traffic_api" "$traffic_api" \
  $(pkg-config --cflags --libs rankmap)
out=$("$work/traffic_api")
echo "$out"
[ "$out" = "replaced (time): T 2007.56 us -> 534.70 us, 0 and 1 together" ]

gcc -Wall -Werror -o "$work/both_apis" "$both_apis" \
  $(pkg-config --cflags --libs rankmap-openmpi rankmap)
# PMIx's shared-memory store fails now and then when jobs start side by side
# ("gds_ds12_lock_pthread.c"); its hash store does not.
out=$(PMIX_MCA_gds=hash timeout 60 mpirun -np 2 --bind-to none "$work/both_apis")
echo "$out"
[ "$out" = "$(printf 'J = 222\nreorder: code 0, 2 ranks')" ]
echo PASS
