#!/usr/bin/env bash
# Installs rankmap under a prefix:
#   ./bazelw run //:install -- --prefix DIR
#
#   DIR/bin/rankmap                          the command
#   DIR/lib/librankmap.so(.0)                C (rankmap/rankmap.h) and C++ APIs
#   DIR/lib/openmpi/librankmap_mpi.so(.0)    rankmap/mpi_bindings/rankmap_mpi.h, reorder.h
#   DIR/lib/openmpi/librankmap_reorder.so    reorder = 1 for MPI_Dist_graph_create
#   DIR/lib/openmpi/librankmap_profile.so    the traffic profiler (LD_PRELOAD)
#   DIR/include/rankmap/...                  public headers (-I DIR/include:
#                                            #include <rankmap/rankmap.h>,
#                                            <rankmap/core/mapper.h>, ...)
#   DIR/lib/pkgconfig/rankmap.pc, rankmap-openmpi.pc
#   DIR/lib/cmake/rankmap/                   find_package(rankmap): rankmap::rankmap
#   DIR/lib/pythonX.Y/site-packages/rankmap  the Python module (PYTHONPATH)
#   DIR/share/rankmap/python/*.whl           the same as a wheel (pip install)
#   DIR/share/doc/rankmap/LICENSE            BSD-3-Clause
#
# The Python parts are for Debian's /usr/bin/python3, whose headers the module
# was built against.
set -euo pipefail

usage() {
  echo "usage: ./bazelw run //:install -- --prefix DIR" >&2
  exit 2
}

prefix=""
while [ $# -gt 0 ]; do
  case "$1" in
    --prefix) [ $# -ge 2 ] || usage; prefix="$2"; shift 2 ;;
    --prefix=*) prefix="${1#--prefix=}"; shift ;;
    -h|--help) usage ;;
    *) echo "install: unknown argument '$1'" >&2; usage ;;
  esac
done
[ -n "$prefix" ] || usage

if [ -d "$0.runfiles/rankmap" ]; then
  root="$0.runfiles/rankmap"
elif [ -n "${RUNFILES_DIR:-}" ] && [ -d "$RUNFILES_DIR/rankmap" ]; then
  root="$RUNFILES_DIR/rankmap"
elif [ -n "${TEST_SRCDIR:-}" ] && [ -d "$TEST_SRCDIR/rankmap" ]; then
  root="$TEST_SRCDIR/rankmap"
else
  echo "install: runfiles not found; run it with ./bazelw run //:install" >&2
  exit 2
fi

# A relative prefix is relative to where `bazel run` was started.
case "$prefix" in
  /*) ;;
  *) prefix="${BUILD_WORKING_DIRECTORY:-$PWD}/$prefix" ;;
esac
mkdir -p "$prefix"
prefix="$(cd "$prefix" && pwd)"

python=/usr/bin/python3
version=$("$python" -c 'import sys, tomllib
print(tomllib.load(open(sys.argv[1], "rb"))["project"]["version"])' \
  "$root/python/pyproject.toml")

# Copies a runfile, replacing what was there (runfiles are read-only).
put() {
  local mode="$1" from="$2" to="$3"
  mkdir -p "$(dirname "$to")"
  rm -f "$to"
  cp "$from" "$to"
  chmod "$mode" "$to"
}

# A shared library under its soname, with the unversioned development link.
put_library() {
  local from="$1" dir="$2" name
  name=$(basename "$from")
  put 755 "$from" "$dir/$name.0"
  ln -sfn "$name.0" "$dir/$name"
}

put 755 "$root/cli/rankmap" "$prefix/bin/rankmap"
put 644 "$root/LICENSE" "$prefix/share/doc/rankmap/LICENSE"
put_library "$root/install/librankmap.so" "$prefix/lib"
put_library "$root/install/librankmap_mpi.so" "$prefix/lib/openmpi"
for lib in librankmap_reorder.so librankmap_profile.so; do
  put 755 "$root/mpi_bindings/$lib" "$prefix/lib/openmpi/$lib"
done
# Headers as install/headers.bzl lays them out: the front door (api/) at the
# top of include/rankmap, other packages in their directories, includes
# rewritten to rankmap/...; nothing else goes directly under include/.
rm -rf "$prefix/include/rankmap"
while read -r runfile header; do
  put 644 "$root/$runfile" "$prefix/include/$header"
done < "$root/install/headers.txt"

mkdir -p "$prefix/lib/pkgconfig"
cat > "$prefix/lib/pkgconfig/rankmap.pc" <<EOF
prefix=$prefix
includedir=\${prefix}/include
libdir=\${prefix}/lib

Name: rankmap
Description: Maps the processes of a parallel program onto the hardware tree (C and C++20 API)
Version: $version
Requires: absl_status absl_statusor
Cflags: -I\${includedir}
Libs: -L\${libdir} -lrankmap
EOF
cat > "$prefix/lib/pkgconfig/rankmap-openmpi.pc" <<EOF
prefix=$prefix
includedir=\${prefix}/include
libdir=\${prefix}/lib/openmpi

Name: rankmap-openmpi
Description: rankmap's MPI bindings (communicator reordering) for Open MPI
Version: $version
Requires: ompi-c absl_status absl_statusor
Cflags: -I\${includedir} -DOMPI_SKIP_MPICXX=1
Libs: -L\${libdir} -lrankmap_mpi
EOF

cmake_dir="$prefix/lib/cmake/rankmap"
mkdir -p "$cmake_dir"
cat > "$cmake_dir/rankmapConfig.cmake" <<'EOF'
# find_package(rankmap) defines rankmap::rankmap: librankmap.so with the C API
# (#include <rankmap/rankmap.h>) and the C++ API (<rankmap/core/mapper.h>,
# ...; C++20, abseil's Status).
include(CMakeFindDependencyMacro)
find_dependency(absl)
get_filename_component(_rankmap_prefix "${CMAKE_CURRENT_LIST_DIR}/../../.."
                       ABSOLUTE)
if(NOT TARGET rankmap::rankmap)
  add_library(rankmap::rankmap SHARED IMPORTED)
  set_target_properties(rankmap::rankmap PROPERTIES
    IMPORTED_LOCATION "${_rankmap_prefix}/lib/librankmap.so.0"
    IMPORTED_SONAME "librankmap.so.0"
    INTERFACE_INCLUDE_DIRECTORIES "${_rankmap_prefix}/include"
    INTERFACE_LINK_LIBRARIES "absl::status;absl::statusor"
    INTERFACE_COMPILE_FEATURES "cxx_std_20")
endif()
unset(_rankmap_prefix)
EOF
cat > "$cmake_dir/rankmapConfigVersion.cmake" <<EOF
set(PACKAGE_VERSION "$version")
if(PACKAGE_FIND_VERSION VERSION_GREATER PACKAGE_VERSION)
  set(PACKAGE_VERSION_COMPATIBLE FALSE)
else()
  set(PACKAGE_VERSION_COMPATIBLE TRUE)
  if(PACKAGE_FIND_VERSION VERSION_EQUAL PACKAGE_VERSION)
    set(PACKAGE_VERSION_EXACT TRUE)
  endif()
endif()
EOF

site=$("$python" -c 'import sys, sysconfig
print(sysconfig.get_path("platlib", "posix_prefix",
                         {"base": sys.argv[1], "platbase": sys.argv[1]}))' \
  "$prefix")
put 644 "$root/python/rankmap/__init__.py" "$site/rankmap/__init__.py"
put 755 "$root/python/rankmap/_rankmap.so" "$site/rankmap/_rankmap.so"

# The wheel, built offline from a staged copy of the package.
stage=$(mktemp -d)
trap 'rm -rf "$stage"' EXIT
cp "$root/python/pyproject.toml" "$root/python/setup.py" "$root/LICENSE" "$stage/"
cp -r "$site/rankmap" "$stage/rankmap"
wheels="$prefix/share/rankmap/python"
mkdir -p "$wheels"
rm -f "$wheels"/rankmap-*.whl
HOME="$stage" PIP_NO_CACHE_DIR=1 PIP_DISABLE_PIP_VERSION_CHECK=1 \
  PIP_ROOT_USER_ACTION=ignore "$python" -m pip wheel --quiet --no-index \
  --no-build-isolation --no-deps --wheel-dir "$wheels" "$stage" >&2

echo "rankmap $version installed in $prefix"
echo "  C/C++:  pkg-config --cflags --libs rankmap   (PKG_CONFIG_PATH=$prefix/lib/pkgconfig)"
echo "  CMake:  find_package(rankmap)                 (CMAKE_PREFIX_PATH=$prefix)"
echo "  Python: PYTHONPATH=$site"
echo "          or pip install --no-index $(ls "$wheels"/rankmap-*.whl)"
