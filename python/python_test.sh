#!/usr/bin/env bash
# Runs the pytest suite of the Python module under Debian's python3, with the
# built package and the rankmap command from the runfiles.
set -euo pipefail
root="${TEST_SRCDIR:?run through bazel test}/rankmap"
export PYTHONPATH="$root/python"
export RANKMAP_CLI="$root/cli/rankmap"
export RANKMAP_README="$root/README.md"
export PYTHONDONTWRITEBYTECODE=1
cd "$TEST_TMPDIR"
exec /usr/bin/python3 -m pytest -q -p no:cacheprovider \
  --basetemp="$TEST_TMPDIR/pytest" "$root/python/tests"
