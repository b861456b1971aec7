# Sourced by the hardening test (advise_hardening_test.sh) and the attack round
# (bench/attack/attack_round.sh): runs one hostile or misbehaving case of the rankmap command
# and judges it by the round's rules: the expected exit, one line on stderr when refused or
# stopped, nothing left running, nothing half-written, under 30 s, under 2 GiB.
#
#   attack NAME EXPECT CMD...
#     EXPECT: refuse  exit 2, one line on stderr
#             ok      exit 0
#             stop    SIGTERM once a process named $started runs (else once stdout has a
#                     "profiling:" line), at most 10 s in: exit 143, the one line
#                     "rankmap: <command>: stopped by SIGTERM"
#     $want (optional): a string the stderr line (refuse) or stdout (ok) must hold
#     $absent (optional): paths that must not exist afterwards (files a refusal must not write)
#   Prints "clean NAME (...)" or "NOT clean NAME: why" and counts $clean and $dirty.
#
# Nothing left running: every case runs with RANKMAP_ATTACK_CASE=<unique> in its environment,
# which the launchers pass on to their ranks; no process may hold it 10 s after the command
# ended. Nothing half-written: no rankmap temporary left under $dir or the temporary
# directory, and none of $absent.
#
# Needs: $rankmap, $dir (scratch).
clean=0
dirty=0
attack_seq=0
attack_tmp="${TEST_TMPDIR:-${TMPDIR:-/tmp}}"

# Processes (pids) whose environment holds RANKMAP_ATTACK_CASE=$1.
attack_marked() {
  local f
  for f in /proc/[0-9]*/environ; do
    tr '\0' '\n' <"$f" 2>/dev/null | grep -qx "RANKMAP_ATTACK_CASE=$1" &&
      basename "$(dirname "$f")"
  done
}

# TempDir's rankmap-<what>-XXXXXX and .rankmap-<what>-XXXXXX, FileBatch's .<name>.rankmap-XXXXXX.
attack_leftover_temps() {
  find "$dir" "$attack_tmp" -maxdepth 4 \( -name 'rankmap-*-??????' -o \
    -name '.rankmap-*-??????' -o -name '*.rankmap-??????' \) 2>/dev/null | head -5
}

# Whether a process named $2 (its comm) holds the marker $1: the job has started.
attack_running() {
  local p
  for p in $(attack_marked "$1"); do
    [ "$(cat /proc/"$p"/comm 2>/dev/null)" = "$2" ] && return 0
  done
  return 1
}

# The rankmap process among the descendants of $1 (under /usr/bin/time, salloc, ...).
attack_rankmap() {
  local p
  for p in $(pgrep -P "$1"); do
    if [ "$(cat /proc/"$p"/comm 2>/dev/null)" = rankmap ]; then
      echo "$p"
      return
    fi
    attack_rankmap "$p"
  done
}

# Sends SIGTERM to the rankmap under $1 once the job of case $2 started (see `stop`).
attack_stop_when_started() {
  local pid="$1" marker="$2" out="$3"
  for _ in $(seq 100); do
    if [ -n "${started:-}" ]; then
      attack_running "$marker" "$started" && break
    else
      grep -q '^profiling:' "$out" 2>/dev/null && break
    fi
    sleep 0.1
  done
  sleep 1
  kill -TERM "$(attack_rankmap "$pid" | head -1)" 2>/dev/null
}

# What is wrong with exit $2 and the outputs $3 (stderr without GNU time's lines), $4
# (stdout) for expectation $1; nothing when all is as expected.
attack_expectation() {
  local expect="$1" rc="$2" err="$3" out="$4" lines
  lines="$(wc -l <"$err")"
  case "$expect" in
    refuse)
      [ "$rc" -eq 2 ] || echo -n "exit $rc, expected 2; "
      [ "$lines" -eq 1 ] || echo -n "$lines lines on stderr; "
      [ -z "${want:-}" ] || grep -qF -- "$want" "$err" || echo -n "no '$want'; "
      ;;
    ok)
      [ "$rc" -eq 0 ] || echo -n "exit $rc, expected 0; "
      [ -z "${want:-}" ] || grep -qF -- "$want" "$out" || echo -n "no '$want' on stdout; "
      ;;
    stop)
      [ "$rc" -eq 143 ] || echo -n "exit $rc, expected 143; "
      [ "$lines" -eq 1 ] && grep -q 'stopped by SIGTERM$' "$err" ||
        echo -n "not one 'stopped by SIGTERM' line; "
      ;;
  esac
}

# What case $1 left: processes (killed once named), temporaries, files of $absent.
attack_leftovers() {
  local left="" p
  for _ in $(seq 100); do
    left="$(attack_marked "$1")"
    [ -z "$left" ] && break
    sleep 0.1
  done
  if [ -n "$left" ]; then
    echo -n "left running: $(for p in $left; do tr '\0' ' ' </proc/"$p"/cmdline 2>/dev/null |
      cut -c1-60; echo -n '; '; done)"
    kill -KILL $left 2>/dev/null
  fi
  local temps
  temps="$(attack_leftover_temps)"
  [ -z "$temps" ] || echo -n "left temporaries: $(echo $temps); "
  for p in ${absent:-}; do
    [ ! -e "$p" ] || echo -n "wrote $p; "
  done
}

attack() {
  local name="$1" expect="$2"
  shift 2
  attack_seq=$((attack_seq + 1))
  local marker="case$$-$attack_seq" out="$dir/attack-$attack_seq.out"
  local err="$dir/attack-$attack_seq.err" rss="$dir/attack-$attack_seq.rss"
  local start end rc pid why=""
  start=$(date +%s.%N)
  RANKMAP_ATTACK_CASE="$marker" /usr/bin/time -f %M -o "$rss" "$@" >"$out" 2>"$err" \
    </dev/null &
  pid=$!
  [ "$expect" != stop ] || attack_stop_when_started "$pid" "$marker" "$out"
  # The round's time limit, with room to see it exceeded.
  for _ in $(seq 600); do
    kill -0 "$pid" 2>/dev/null || break
    sleep 0.1
  done
  if kill -0 "$pid" 2>/dev/null; then
    why="still running after 60 s; "
    pkill -KILL -P "$pid" 2>/dev/null
    kill -KILL "$pid" 2>/dev/null
  fi
  wait "$pid" 2>/dev/null
  rc=$?
  end=$(date +%s.%N)
  # GNU time prints "Command exited with non-zero status N" or "Command terminated by
  # signal N" before the figure: the figure is the last line.
  local kib seconds
  kib="$(tail -1 "$rss" 2>/dev/null)"
  seconds="$(awk -v s="$start" -v e="$end" 'BEGIN { printf "%.1f", e - s }')"
  grep -v '^Command \(exited\|terminated\)' "$err" >"$err.own"
  why+="$(attack_expectation "$expect" "$rc" "$err.own" "$out")"
  why+="$(attack_leftovers "$marker")"
  awk -v t="$seconds" 'BEGIN { exit !(t < 30) }' || why+="took $seconds s; "
  [ -n "$kib" ] && [ "$kib" -lt $((2 * 1024 * 1024)) ] 2>/dev/null ||
    why+="max RSS ${kib:-?} KiB; "
  local summary="exit $rc, $seconds s, $((${kib:-0} / 1024)) MiB"
  if [ -z "$why" ]; then
    clean=$((clean + 1))
    echo "clean $name ($summary): $(head -c 300 "$err.own" | tr '\n' ' ')"
  else
    dirty=$((dirty + 1))
    echo "NOT clean $name ($summary): $why stderr: $(tail -c 300 "$err.own" | tr '\n' ' ')"
  fi
  want=""
  absent=""
  started=""
}
