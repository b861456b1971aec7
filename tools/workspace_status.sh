#!/usr/bin/env bash
# Bazel's workspace status command (.bazelrc): the commit the build comes from,
# for `rankmap --version` and the JSON outputs. Outside a git checkout (a
# release tarball) the commit is "unknown".
commit=$(git describe --always --dirty --abbrev=10 2>/dev/null) || commit=unknown
echo "STABLE_RANKMAP_COMMIT ${commit:-unknown}"
