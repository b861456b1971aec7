#!/bin/bash
# Runs the calibration on this machine with two ranks and checks that the file it writes
# parses, resolves on a tree and carries one line per model; a malformed file is rejected with
# file:line:field.
set -euo pipefail
prog="$1"
dir="${TEST_TMPDIR:-$(mktemp -d)}"
out="$dir/machine.params"
timeout 300 mpirun -np 2 --bind-to none "$prog" --quick "$out"
cat "$out"
"$prog" --check "$out"
for model in hockney lmo hloggp taulop; do
  n="$(grep -c "^level intranode $model " "$out")"
  if [ "$n" != 1 ]; then
    echo "expected one intranode $model line, found $n" >&2
    exit 1
  fi
done
grep -q "^level intranode taulop .* L4=" "$out"
echo "level intranode hockney alpha=x" >"$dir/bad.params"
if "$prog" --check "$dir/bad.params" 2>"$dir/err"; then
  echo "a malformed file was accepted" >&2
  exit 1
fi
grep -q "bad.params:1: field 'alpha'" "$dir/err"
echo PASS
