#!/bin/bash
# `rankmap advise` (and the commands beside it) against hostile inputs and misbehaving jobs
# under a real launcher, each case judged by the attack round's rules (attack_checks.sh): the
# expected exit with one line, nothing left running, nothing half-written, < 30 s, < 2 GiB.
# The jobs run on four nodes of this host (fake_nodes.sh); misbehaving_job is the program
# that hangs, floods stderr or never calls MPI_Init, halo_report the one that works.
#
#   advise_hardening_test.sh RANKMAP LAUNCHER MISBEHAVING_JOB HALO_REPORT
#     LAUNCHER: mpirun (every case) | hydra | srun (the cases of their own)
set -uo pipefail
rankmap="$(realpath "$1")"
launcher="$2"
job="$(realpath "$3")"
halo="$(realpath "$4")"
dir="${TEST_TMPDIR:-$(mktemp -d)}"
failures=0
fail() { echo "FAIL $launcher: $*"; failures=$((failures + 1)); }

source tests/launch/fake_nodes.sh
source tests/launch/attack_checks.sh
fake_nodes "$launcher"
run=("${in_job_words[@]}" "$rankmap")  # the command, as a job step runs it

# ---- Every launcher: stopping advise ends the launcher and the ranks (and Slurm's step).
started=misbehaving_job attack stop_during_job stop "${run[@]}" advise "${machine[@]}" \
  --output "$dir/stop" -- "${line[@]}" "$job" hang
[ -z "$(ls -A "$dir/stop" 2>/dev/null)" ] || fail "stop: left $(ls -A "$dir/stop")"

case "$launcher" in
  hydra)
    # The rerun line, pasted, runs the job placed and nothing smuggled in by --output.
    out="$dir/o mpiexec.hydra -genv A \$(touch $dir/pwned)"
    want="rerun: " attack hostile_output ok "${run[@]}" advise "${machine[@]}" --output "$out" -- \
      "${line[@]}" "$halo" 4 20 256 10
    rerun="$(sed -n 's/^rerun: //p' "$dir"/attack-$attack_seq.out)"
    in_job bash -c "$rerun" >"$dir/rerun.out" 2>&1 || fail "hostile_output: rerun failed"
    [ "$(grep -c '^rank ' "$dir/rerun.out")" = 8 ] || fail "hostile_output: rerun ran no job"
    [ ! -e "$dir/pwned" ] || fail "hostile_output: the rerun line ran a smuggled command"
    ;;
  srun)
    # srun --export separates at ',': an --output holding one is refused before the job.
    want="separates variables at ','" attack comma_output refuse "${run[@]}" advise \
      --output "$dir/a,LD_PRELOAD=x" -- "${line[@]}" "$halo" 4 2 64 1
    ;;
esac
if [ "$launcher" != mpirun ]; then
  echo "$clean clean, $dirty not"
  [ "$dirty" -eq 0 ] && [ "$failures" -eq 0 ] || exit 1
  echo PASS
  exit 0
fi

# ---- mpirun: every other class.
# A job that writes 32 MiB on stderr and fails: its last words, read as a bounded tail (the
# whole of it would take advise past 40 MiB).
want="misbehaving_job: last words" attack flooding_job refuse "${run[@]}" advise \
  "${machine[@]}" --output "$dir/flood" -- "${line[@]}" "$job" noise 32 3
[ "$(tail -1 "$dir/attack-$attack_seq.rss")" -lt $((40 * 1024)) ] ||
  fail "flooding_job: max RSS $(tail -1 "$dir/attack-$attack_seq.rss") KiB"

# A good run, then runs into the same --output that must not trust what it left.
want="advice: a predicted gain" attack first_run ok "${run[@]}" advise "${machine[@]}" \
  --output "$dir/same" -- "${line[@]}" "$halo" 4 20 256 10
sums() { md5sum "$dir/same/job.rankfile" "$dir/same/profile.mat" | cut -c1-32 | paste -sd,; }
before="$(sums)"
RANKMAP_PROFILE_MARK=MPI_Allreduc want="the profiler said: RANKMAP_PROFILE_MARK" \
  attack profiler_off refuse "${run[@]}" advise "${machine[@]}" --output "$dir/same" -- \
  "${line[@]}" "$halo" 4 20 256 10
want="without a profile" attack never_init refuse "${run[@]}" advise "${machine[@]}" \
  --output "$dir/same" -- "${line[@]}" "$job" noinit
[ "$(sums)" = "$before" ] || fail "a failed run changed the first run's files"
# Rows planted beside the profile are never read, and go when the next profile comes.
printf 'rankmap-profile-row 0 100000\nrunning\n' >"$dir/same/profile.part.0"
want="profile: $dir/same/profile.mat (8 ranks" attack planted_rows ok "${run[@]}" advise \
  "${machine[@]}" --output "$dir/same" --profile-seconds 60 -- "${line[@]}" "$halo" 4 20 256 10
[ ! -e "$dir/same/profile.part.0" ] || fail "planted_rows: the planted row is still there"

# Paths: the default relative --output without --topology (machine.net names this
# machine's export beside it), a relative --node file, an --output with a line break.
mkdir -p "$dir/cwd"
lstopo-no-graphics --of xml "$dir/cwd/node.xml" 2>/dev/null
cd "$dir/cwd" || exit 1
want="advice:" attack relative_output ok "${run[@]}" advise -- "${line[@]}" "$halo" 4 20 256 10
# Each node is the job's own export by its absolute path, or this machine's export beside the
# spec: nothing read relative to another directory.
awk '$1 == "node" { n++; if ($3 != "this-machine.xml" && ($3 !~ /^\// || system("test -f " $3))) bad++ }
  END { exit !(n > 0 && bad == 0) }' rankmap-advise/machine.net ||
  fail "relative_output: machine.net names a node's hardware relative to another directory"
want="each as node.xml" attack relative_node ok "${run[@]}" advise --node node.xml --output nodes \
  -- "${line[@]}" "$halo" 4 20 256 10
cd - >/dev/null || exit 1
want="control character" attack newline_output refuse "${run[@]}" advise \
  --output "$dir/x
n9:2" -- "${line[@]}" "$halo" 4 2 64 1

# Open MPI's -wd and -am (from mpirun --help) are taken.
: >"$dir/empty.conf"
want="advice:" attack wd_am ok "${run[@]}" advise "${machine[@]}" --output "$dir/wd" -- mpirun -wd \
  "$dir" -am "$dir/empty.conf" "${line[@]:1}" "$halo" 4 20 256 10

# Numbers: one line each, before anything runs.
for flag in "--profile-seconds nan" "--profile-seconds -1" "--iterations 0" \
  "--iterations 100000" "--min-gain inf"; do
  want="${flag%% *}" attack "flag $flag" refuse "${run[@]}" advise $flag --output "$dir/num" -- \
    "${line[@]}" "$halo" 4 2 64 1
done

# The placement checked against the job and the machine, the profile found beside an
# extensionless path.
from() {  # NAME PLACEMENT_EDIT WANT
  mkdir -p "$dir/$1.v2"
  # A bare matrix: the auto-detection of graphs/ takes a commented one without an
  # extension for an edge list.
  grep -v '^#' "$dir/same/profile.mat" >"$dir/$1.v2/profile"
  sed "$2" "$dir/same/profile.placement" >"$dir/$1.v2/profile.placement"
}
from extra '/^7 /s/^7 /9 /'
want="rank 9 is not a rank of the profile's 8" attack placement_extra_rank refuse \
  "${run[@]}" advise --from-profile "$dir/extra.v2/profile" "${machine[@]}" --output "$dir/pl"
from nocpu '/^0 /s/ [0-9,-]*$/ 7/'
want="ran on CPU 7, which host" attack placement_foreign_cpu refuse \
  "${run[@]}" advise --from-profile "$dir/nocpu.v2/profile" "${machine[@]}" --output "$dir/pl"
from huge 's/ [0-9,-]*$/ 0-1048575/'
want="names 1048576 CPUs" attack placement_huge_ranges refuse \
  "${run[@]}" advise --from-profile "$dir/huge.v2/profile" "${machine[@]}" --output "$dir/pl"
from plain ''
want="proposed placement" attack extensionless_profile ok \
  "${run[@]}" advise --from-profile "$dir/plain.v2/profile" "${machine[@]}" --output "$dir/pl"

# A report that cannot be written leaves no launch file (advise) and no mapping (map).
absent="$dir/rep/job.rankfile" want="x.html" attack unwritable_report refuse \
  "${run[@]}" advise --from-profile "$dir/same/profile.mat" "${machine[@]}" --launcher openmpi \
  --output "$dir/rep" --report "$dir/no-such-dir/x.html"
absent="$dir/m.txt" want="x.html" attack unwritable_map_report refuse "${run[@]}" map \
  --topology "$dir/machine.net" --comm "$dir/same/profile.mat" --output "$dir/m.txt" \
  --report "$dir/no-such-dir/x.html"

# simulate stopped while smpirun runs: smpirun, smpimain and the simulator's directory go.
awk 'BEGIN { for (i = 0; i < 8; ++i) { for (j = 0; j < 8; ++j)
  printf "%s%d", (j ? " " : ""), (i == j ? 0 : 100000); print "" } }' >"$dir/big.mat"
awk 'BEGIN { for (i = 0; i < 8; ++i) { for (j = 0; j < 8; ++j)
  printf "%s%d", (j ? " " : ""), (i == j ? 0 : 100000); print "" } }' >"$dir/big.msgs.mat"
seq 0 7 >"$dir/identity.txt"
started=smpimain attack stop_simulate stop "${run[@]}" simulate --topology "$dir/machine.net" --comm "$dir/big.mat" \
  --mapping "$dir/identity.txt" --iterations 1000

echo "$clean clean, $dirty not"
[ "$dirty" -eq 0 ] && [ "$failures" -eq 0 ] || exit 1
echo PASS
