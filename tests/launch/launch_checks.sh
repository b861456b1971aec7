# Sourced by the launcher tests: map with the rankmap command, launch with the exact command it
# prints, and compare what every rank reports (mpi_bindings/placement_report_main.c: rank, host,
# sched_getaffinity) with the mapping.
#
# The expectation is computed independently of launch/: `rankmap map --format plain` gives the
# leaf of each rank, and hwloc-calc turns leaf l of this machine (pu:l, or core:l with
# --leaf core) into its PU os indexes.
#
#   planned pu ARGS...      expected report lines for `rankmap map ARGS`
#   launch_line ARGS...     the command `rankmap map ARGS` prints after "launch:", minus ./app
#   same_placement NAME WANT GOT   compares, prints both on failure
#   check_launch NAME KIND FORMAT RUNNER ARGS...   all of it for one job (below)
#
# Needs: $rankmap, $reporter, $dir (scratch), `fail` defined by the caller.
host="$(hostname)"

planned() {
  local kind="$1"
  shift
  local mapping r=0 leaf
  mapping="$("$rankmap" map "$@" --format plain --quiet)" || return 1
  for leaf in $mapping; do
    echo "rank $r host $host cpus $(hwloc-calc --physical-output --intersect pu "$kind:$leaf")"
    r=$((r + 1))
  done
}

launch_line() {
  local out
  out="$("$rankmap" map "$@" --quiet)" || return 1
  sed -n 's/^launch: \(.*\) \.\/app$/\1/p' <<<"$out"
}

same_placement() {
  local name="$1" want="$2" got="$3"
  if [ "$want" = "$got" ]; then
    echo "ok $name"
  else
    fail "$name: ranks are not where the mapping put them"
    echo "--- mapping says"
    echo "$want"
    echo "--- ranks report"
    echo "$got"
  fi
}

# Leaves of the mapping, for tests that want a case where ranks really move.
is_identity() {
  local mapping r=0 leaf
  mapping="$("$rankmap" map "$@" --format plain --quiet)" || return 1
  for leaf in $mapping; do
    [ "$leaf" = "$r" ] || return 1
    r=$((r + 1))
  done
  return 0
}

# first_moving_seed ARGS...: a --seed for which `--algorithm random` does not give the identity.
first_moving_seed() {
  local s
  for s in $(seq 1 50); do
    if ! is_identity "$@" --algorithm random --seed "$s"; then
      echo "$s"
      return 0
    fi
  done
  return 1
}

# Runs a launch command as printed, with the reporter as the program.
direct() { timeout 120 $1 "$2" </dev/null; }

# check_launch NAME KIND FORMAT RUNNER MAP_ARGS...: maps with MAP_ARGS, writes FORMAT to
# $dir/NAME.FORMAT, runs the printed command through RUNNER (a function given the command and
# the reporter, e.g. `direct`) and compares every rank's report with the mapping.
check_launch() {
  local name="$1" kind="$2" format="$3" runner="$4"
  shift 4
  local want cmd got
  want="$(planned "$kind" "$@")" || { fail "$name: map failed"; return; }
  cmd="$(launch_line "$@" --format "$format" --output "$dir/$name.$format")"
  [ -n "$cmd" ] || { fail "$name: no launch line"; return; }
  echo "$ $cmd $reporter"
  cat "$dir/$name.$format"
  got="$("$runner" "$cmd" "$reporter")" || fail "$name: launch failed"
  same_placement "$name" "$want" "$got"
}
