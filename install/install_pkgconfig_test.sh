#!/usr/bin/env bash
# Installs rankmap into a temporary prefix, then builds the C and C++ examples
# with plain gcc/g++ and `pkg-config --cflags --libs rankmap`, runs them and
# compares their output with the Bazel-built examples'. Also compiles every
# installed header on its own, and a program using the C API and the MPI C API
# together (their option structs must not clash), run under mpirun.
set -euo pipefail
install="$1" bazel_c_api="$2" bazel_quickstart="$3" c_api="$4" quickstart="$5"
both_apis="$6"
prefix="$TEST_TMPDIR/prefix"
work="$TEST_TMPDIR/work"
mkdir -p "$work"
"$install" --prefix "$prefix" > /dev/null
export PKG_CONFIG_PATH="$prefix/lib/pkgconfig"
export LD_LIBRARY_PATH="$prefix/lib:$prefix/lib/openmpi"
topology="tleaf 3 2 100 2 10 4 1"

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

# Every installed header compiles alone: the set includes all it needs.
count=0
while read -r header; do
  header="${header#"$prefix/include/rankmap/"}"
  echo "#include \"$header\"" > "$work/one.cc"
  flags=$(pkg-config --cflags rankmap)
  case "$header" in mpi_bindings/*) flags=$(pkg-config --cflags rankmap-openmpi) ;; esac
  g++ -std=c++20 -fsyntax-only $flags "$work/one.cc"
  count=$((count + 1))
done < <(find "$prefix/include/rankmap" -name '*.h')
[ "$count" -eq 15 ] || { echo "expected 15 installed headers, found $count"; exit 1; }

gcc -Wall -Werror -o "$work/both_apis" "$both_apis" \
  $(pkg-config --cflags --libs rankmap-openmpi rankmap)
# PMIx's shared-memory store fails now and then when jobs start side by side
# ("gds_ds12_lock_pthread.c"); its hash store does not.
out=$(PMIX_MCA_gds=hash timeout 60 mpirun -np 2 --bind-to none "$work/both_apis")
echo "$out"
[ "$out" = "$(printf 'J = 222\nreorder: code 0, 2 ranks')" ]
echo PASS
