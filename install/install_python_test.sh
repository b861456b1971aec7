#!/usr/bin/env bash
# Installs rankmap into a temporary prefix, then uses the Python module outside
# Bazel: from PYTHONPATH, and pip-installed offline into a venv that sees
# Debian's numpy and scipy (--system-site-packages). Each runs the README's
# Python example and checks the mapping against the installed rankmap command.
set -euo pipefail
install="$1" readme="$2"
prefix="$TEST_TMPDIR/prefix"
"$install" --prefix "$prefix" > /dev/null
site=$(echo "$prefix"/lib/python3*/site-packages)
example="$TEST_TMPDIR/example.py"
# The README's example, then a comparison with the installed command.
awk '/^## Use from C, C\+\+/ { s = 1 } s && /^```python$/ { p = 1; next }
     p && /^```$/ { exit } p' "$readme" > "$example"
[ "$(wc -l < "$example")" -eq 3 ] || { cat "$example"; exit 1; }
cat >> "$example" <<'PY'
import json, os, subprocess, sys, tempfile
import rankmap
assert os.path.dirname(rankmap.__file__).startswith(sys.argv[1]), rankmap.__file__
with tempfile.NamedTemporaryFile("w", suffix=".mtx", delete=False) as f:
    coo = traffic.tocoo()
    f.write("%%MatrixMarket matrix coordinate real general\n")
    f.write(f"{coo.shape[0]} {coo.shape[1]} {coo.nnz}\n")
    f.writelines(f"{i + 1} {j + 1} {w!r}\n" for i, j, w in zip(coo.row, coo.col, coo.data))
cli = subprocess.run([sys.argv[2], "map", "--topology", "tleaf 3 2 100 2 10 2 1",
                      "--comm", f.name, "--seed", "7", "--format", "json"],
                     check=True, capture_output=True, text=True).stdout
expected = json.loads(cli)
assert mapping.tolist() == expected["mapping"] and j == expected["j"], (mapping, j, cli)
print("ok", sys.executable)
PY
cd "$TEST_TMPDIR"
export PYTHONDONTWRITEBYTECODE=1
PYTHONPATH="$site" /usr/bin/python3 "$example" "$site" "$prefix/bin/rankmap"

venv="$TEST_TMPDIR/venv"
# As the README says it, with pip's cache and root warning kept out.
/usr/bin/python3 -m venv --system-site-packages "$venv"
HOME="$TEST_TMPDIR" PIP_NO_CACHE_DIR=1 PIP_DISABLE_PIP_VERSION_CHECK=1 \
  PIP_ROOT_USER_ACTION=ignore "$venv/bin/pip" install --quiet --no-index \
  "$prefix"/share/rankmap/python/rankmap-*.whl
env -u PYTHONPATH "$venv/bin/python" "$example" "$venv" "$prefix/bin/rankmap"
# The wheel names its licence and carries the file.
"$venv/bin/python" - <<'PY'
from importlib import metadata
assert metadata.metadata("rankmap")["License"] == "BSD-3-Clause"
files = [str(f) for f in metadata.files("rankmap")]
assert any(f.endswith(".dist-info/LICENSE") for f in files), files
PY
echo PASS
