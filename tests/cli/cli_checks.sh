# Sourced by the rankmap command's shell tests (after setting `rankmap`): failure counting and
# the bad-input check every command must pass.
#
#   fail "what went wrong"                 counts a failure (the test ends with exit 1)
#   error NAME WANT ARGS...                `rankmap ARGS` exits 2 with one stderr line holding WANT
failures=0
fail() { echo "FAIL $*"; failures=$((failures + 1)); }

error() {
  local name="$1" want="$2" msg rc
  shift 2
  msg="$("$rankmap" "$@" 2>&1 >/dev/null)"
  rc=$?
  [ "$rc" -eq 2 ] || fail "$name: exit $rc"
  [ "$(wc -l <<<"$msg")" -eq 1 ] || fail "$name: not one line: $msg"
  grep -qF -- "$want" <<<"$msg" || fail "$name: expected '$want', got: $msg"
  echo "ok $name: $msg"
}
