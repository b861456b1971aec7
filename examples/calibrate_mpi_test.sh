#!/bin/bash
# Runs the calibration on this machine and checks that the file it writes
# parses, resolves on this machine's topology and carries one line per model
# and channel (and, with three ranks, LMO per processor and pair); a malformed
# file is rejected with file:line:field.
set -euo pipefail
prog="$1"
dir="${TEST_TMPDIR:-$(mktemp -d)}"

check_models() {  # file selector
  for model in hockney lmo hloggp taulop; do
    n="$(grep -c "^level $2 $model " "$1" || true)"
    if [ "$n" != 1 ]; then
      echo "$1: expected one '$2 $model' line, found $n" >&2
      exit 1
    fi
  done
  grep -q "^level $2 taulop .* L4=" "$1"
}

# Unbound ranks: the channel is only known to be inside the host.
out="$dir/unbound.params"
timeout 300 mpirun -np 2 --bind-to none "$prog" --quick "$out"
cat "$out"
"$prog" --check "$out"
check_models "$out" intranode

# Ranks bound to two cores: the channel is named after their common ancestor.
if [ "$(nproc)" -ge 2 ]; then
  out="$dir/bound.params"
  timeout 300 mpirun -np 2 --bind-to core --map-by core "$prog" --quick "$out"
  cat "$out"
  "$prog" --check "$out"
  selector="$(awk '/^level /{print $2; exit}' "$out")"
  [ "$(grep -c '^level ' "$out")" = 4 ]
  check_models "$out" "$selector"
else
  echo "SKIPPED: ranks bound to two cores: this machine has $(nproc) CPU (needs 2)"
fi

# Three ranks: LMO's per-processor and per-pair lines from the triplet
# experiments (unbound ranks: processor r is leaf r).
out="$dir/three.params"
timeout 300 mpirun -np 3 --bind-to none "$prog" --quick "$out"
cat "$out"
[ "$(grep -c '^proc [0-2] lmo C=[-0-9.e+]* t=' "$out")" = 3 ]
[ "$(grep -c '^pair [0-2] [0-2] lmo L=[-0-9.e+]* rate=' "$out")" = 3 ]
"$prog" --check "$out" "tleaf 1 3 1"
echo "proc 0 lmo L=1" >"$dir/badproc.params"
if "$prog" --check "$dir/badproc.params" 2>"$dir/err"; then
  echo "a proc rule with a pair key was accepted" >&2
  exit 1
fi
grep -q "badproc.params:1: field 'L': unknown lmo key for a proc rule" "$dir/err"

echo "level intranode hockney alpha=x" >"$dir/bad.params"
if "$prog" --check "$dir/bad.params" 2>"$dir/err"; then
  echo "a malformed file was accepted" >&2
  exit 1
fi
grep -q "bad.params:1: field 'alpha'" "$dir/err"
echo "level NoSuchLevel hockney alpha=1" >"$dir/bad2.params"
if "$prog" --check "$dir/bad2.params" 2>"$dir/err"; then
  echo "an unknown level was accepted" >&2
  exit 1
fi
grep -q "bad2.params:1: field 'selector'" "$dir/err"
echo PASS
