#!/usr/bin/env bash
# Installs rankmap into a temporary prefix, builds examples/CMakeLists.txt
# (find_package(rankmap), rankmap::rankmap) with Debian's cmake, runs the
# programs (CMake's build RPATH finds librankmap.so) and compares their output
# with the Bazel-built examples'.
set -euo pipefail
install="$1" bazel_c_api="$2" bazel_quickstart="$3" examples="$4"
prefix="$TEST_TMPDIR/prefix"
src="$TEST_TMPDIR/src"
build="$TEST_TMPDIR/build"
# Shows what CMake said when a step fails.
trap 'status=$?; [ $status -eq 0 ] || cat "$TEST_TMPDIR"/*.log >&2' EXIT
"$install" --prefix "$prefix" > /dev/null
mkdir -p "$src"
cp "$examples/CMakeLists.txt" "$examples/c_api.c" "$examples/quickstart.cc" "$src/"
cmake -S "$src" -B "$build" -DCMAKE_PREFIX_PATH="$prefix" > "$TEST_TMPDIR/cmake.log"
cmake --build "$build" > "$TEST_TMPDIR/build.log"
grep -q "librankmap.so.0 => $prefix/lib/librankmap.so.0" <(ldd "$build/c_api")
diff <("$bazel_c_api") <("$build/c_api")
topology="tleaf 3 2 100 2 10 4 1"
diff <("$bazel_quickstart" "$topology") <("$build/quickstart" "$topology")
# The version file accepts older requests and refuses newer ones.
mkdir -p "$TEST_TMPDIR/version"
cat > "$TEST_TMPDIR/version/CMakeLists.txt" <<'CMAKE'
cmake_minimum_required(VERSION 3.20)
project(version_check CXX)
find_package(rankmap 0.1 REQUIRED)
find_package(rankmap 99 QUIET)
if(rankmap_FOUND)
  message(FATAL_ERROR "rankmap 99 found")
endif()
CMAKE
cmake -S "$TEST_TMPDIR/version" -B "$TEST_TMPDIR/version/build" \
  -DCMAKE_PREFIX_PATH="$prefix" > "$TEST_TMPDIR/version.log"
echo PASS
