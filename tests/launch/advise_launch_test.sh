#!/bin/bash
# `rankmap advise -- <launch line>` under a real launcher on four nodes of two switches that
# all live on this host (fake_nodes.sh).
#
# The program (halo_report) exchanges with the ranks `stride` away and prints where each rank
# ran (sched_getaffinity). Launched packed, two ranks a node, stride 4 puts every neighbour on
# another switch: advise must report the placement the ranks read back, predict a gain, write
# the launcher's file, and its rerun line must place the ranks as proposed. Stride 1 is already
# best packed: "keep your launch" and no file.
#
#   advise_launch_test.sh RANKMAP LAUNCHER PROGRAM    (LAUNCHER: mpirun | hydra | srun)
set -uo pipefail
rankmap="$1"
launcher="$2"
program="$(realpath "$3")"
dir="${TEST_TMPDIR:-$(mktemp -d)}"
failures=0
fail() { echo "FAIL $launcher: $*"; failures=$((failures + 1)); }

npus=$(hwloc-calc --number-of pu machine:0)
if [ "$npus" -lt 2 ]; then echo "needs 2 CPUs, this machine has $npus"; exit 1; fi

source tests/launch/fake_nodes.sh
fake_nodes "$launcher"

# "rank R host H cpus C" lines -> advise's description "H: R (cpu C), ...; H2: ...".
describe() {
  awk '$1 == "rank" {
    if (!($4 in seen)) { seen[$4] = 1; order[++n] = $4 }
    items[$4] = items[$4] (items[$4] == "" ? "" : ", ") $2 " (cpu" ($6 ~ /,/ ? "s " : " ") $6 ")"
  } END {
    for (i = 1; i <= n; ++i) printf "%s%s: %s", (i > 1 ? "; " : ""), order[i], items[order[i]]
    print ""
  }' "$1"
}

advise() {  # NAME STRIDE
  local name="$1" stride="$2"
  echo "$ rankmap advise ${machine[*]} --output $dir/$name -- ${line[*]} halo_report $stride 20 256 10"
  in_job "$rankmap" advise "${machine[@]}" --output "$dir/$name" -- "${line[@]}" "$program" \
    "$stride" 20 256 10 >"$dir/$name.log" 2>&1
  local rc=$?
  cat "$dir/$name.log"
  [ "$rc" -eq 0 ] || fail "$name: advise exited $rc"
}

# Neighbours 4 apart: packed, every pair crosses the network.
advise far 4
present="$(sed -n 's/^present placement: //p' "$dir/far.log")"
read_back="$(describe "$dir/far/profile.out")"
[ -n "$present" ] && [ "$present" = "$read_back" ] ||
  fail "far: present placement '$present', the ranks read back '$read_back'"
gain="$(sed -n 's/^advice: a predicted gain of \([0-9.]*\)%.*/\1/p' "$dir/far.log")"
awk -v g="${gain:-0}" 'BEGIN { exit !(g > 0) }' || fail "far: no positive predicted gain"
proposed="$(sed -n 's/^proposed placement: //p' "$dir/far.log")"
rerun="$(sed -n 's/^rerun: //p' "$dir/far.log")"
if [ -z "$rerun" ]; then
  fail "far: no rerun line"
else
  echo "$ $rerun"
  in_job bash -c "$rerun" >"$dir/rerun.out" 2>&1 || fail "far: the rerun failed"
  cat "$dir/rerun.out"
  again="$(describe "$dir/rerun.out")"
  [ "$again" = "$proposed" ] ||
    fail "far: rerun placed '$again', advise proposed '$proposed'"
  # The same job under the proposed placement: every neighbour pair on one node.
  [ "$(awk '$1 == "rank" { print $4 }' "$dir/rerun.out" | sort | uniq -c | awk '{ print $1 }' |
    sort -u)" = 2 ] || fail "far: the rerun does not run two ranks a node"
fi

# Neighbours 1 apart: the packed order is already the best.
advise near 1
grep -q "^advice: keep your launch" "$dir/near.log" || fail "near: no 'keep your launch'"
written="$(find "$dir/near" -name 'job.*' | paste -sd' ')"
[ -z "$written" ] || fail "near: wrote $written"

# Errors: one line each on stderr, exit 2, no launch file written (once, under mpirun).
refused() {  # NAME EXPECTED_SUBSTRING ADVISE_ARGS...
  local name="$1" want="$2"
  shift 2
  "$rankmap" advise --output "$dir/$name" "$@" >"$dir/$name.out" 2>"$dir/$name.err" </dev/null
  local rc=$?
  echo "$name: exit $rc: $(cat "$dir/$name.err")"
  [ "$rc" -eq 2 ] || fail "$name: exit $rc, expected 2"
  [ "$(wc -l <"$dir/$name.err")" -eq 1 ] || fail "$name: not one line"
  grep -qF -- "$want" "$dir/$name.err" || fail "$name: no '$want'"
  [ -z "$(find "$dir/$name" -name 'job.*' 2>/dev/null)" ] || fail "$name: wrote a launch file"
}
if [ "$launcher" = mpirun ]; then
  # The same profile planned later: the same proposal, the launcher's file and launch line.
  "$rankmap" advise --from-profile "$dir/far/profile.mat" "${machine[@]}" --launcher openmpi \
    --output "$dir/later" >"$dir/later.log" 2>&1 || fail "later: advise --from-profile failed"
  cat "$dir/later.log"
  [ "$(sed -n 's/^proposed placement: //p' "$dir/later.log")" = "$proposed" ] ||
    fail "later: another proposal than the run's"
  [ -s "$dir/later/job.rankfile" ] || fail "later: no rankfile"
  grep -q "^launch: mpirun .*--rankfile $dir/later/job.rankfile" "$dir/later.log" ||
    fail "later: no launch line"
  sed 's/ n\([0-3]\) / m\1 /' "$dir/machine.net" >"$dir/other.net"
  refused unknown_launcher "launcher" -- mylauncher -np 2 "$program" 1 1 8 1
  refused not_mpi "not dynamically linked against MPI" -- "${line[@]}" /bin/true
  refused other_hosts "n0" --topology "$dir/other.net" -- "${line[@]}" "$program" 4 2 64 2
fi
if [ "$launcher" = hydra ]; then
  # Planned inside an allocation: the interleaved host file would hang Hydra's srun bootstrap.
  SLURM_JOB_ID=1 "$rankmap" advise --from-profile "$dir/far/profile.mat" --launcher hydra \
    --output "$dir/later" >"$dir/later.log" 2>&1 || fail "later: advise --from-profile failed"
  grep -q "^note: inside a Slurm allocation mpiexec.hydra" "$dir/later.log" ||
    fail "later: no note on Hydra's srun bootstrap"
  grep -q "^note:" "$dir/far.log" && fail "far: a note although the line names -launcher ssh"
fi
# A failing job is named by its exit status and the program's own words, not the launcher's.
if [ "$launcher" != srun ]; then
  refused job_fails "the job failed (exit status " -- "${line[@]}" "$program"
  grep -qF "usage: halo_report" "$dir/job_fails.err" || fail "job_fails: not the program's words"
fi

if [ "$failures" -ne 0 ]; then echo "$failures failure(s)"; exit 1; fi
echo PASS
