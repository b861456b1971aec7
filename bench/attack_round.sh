#!/bin/bash
# The attack round of issue 40 re-run: 81 hostile inputs and misbehaving jobs against
# `rankmap advise` (and map, eval, compare, simulate beside it), under the real mpirun,
# mpiexec.hydra and srun on four nodes of this host (tests/launch/fake_nodes.sh). Each case is
# judged by the round's rules (tests/launch/attack_checks.sh): the expected exit with one line
# on stderr, nothing left running, nothing half-written, under 30 s, under 2 GiB. Prints one
# line per case and the count clean. About 10 minutes on 2 cores:
#
#   ./bazelw run //bench:attack_round
#
# Needs root or a user who may start Slurm daemons for the srun cases (they are skipped, and
# said so, when slurmd is missing).
set -uo pipefail
rankmap="$(realpath "$1")"
job="$(realpath "$2")"
job_mpich="$(realpath "$3")"
halo="$(realpath "$4")"
halo_mpich="$(realpath "$5")"
dir="$(mktemp -d /tmp/rankmap-attack.XXXXXX)"
# rankmap's temporaries in the round's own directory, where the checks look for leftovers.
export TMPDIR="$dir/tmp"
mkdir -p "$TMPDIR"
# `bazel run` sets it, and rankmap would resolve relative paths against it.
unset BUILD_WORKING_DIRECTORY
[ -f tests/launch/attack_checks.sh ] || cd "$0.runfiles/rankmap" || exit 1
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
export OMPI_MCA_rmaps_base_oversubscribe=1
source tests/launch/fake_nodes.sh
source tests/launch/attack_checks.sh
echo "scratch: $dir"

fake_nodes hydra
hydra=("${line[@]}")
unset RANKMAP_TOPOLOGY
fake_nodes mpirun
mpirun=("${line[@]}")
net=(--topology "$dir/machine.net")
r="$rankmap"

# A profile to attack: one good run.
"$r" advise "${net[@]}" --output "$dir/good" -- "${mpirun[@]}" "$halo" 4 20 256 10 \
  >"$dir/good.log" 2>&1 || { echo "the good run failed:"; cat "$dir/good.log"; exit 1; }
P="$dir/good/profile.mat"
PL="$dir/good/profile.placement"
profile_with() {  # NAME PLACEMENT_TEXT: a copy of the good profile with another placement
  mkdir -p "$dir/$1"
  cp "$P" "$dir/$1/profile.mat"
  cp "$dir/good/profile.msgs.mat" "$dir/$1/profile.msgs.mat"
  printf '%s' "$2" >"$dir/$1/profile.placement"
}
good_placement="$(cat "$PL")"
# Dense matrices of 8 ranks: every pair BYTES, MESSAGES messages.
dense() {  # FILE VALUE
  awk -v v="$2" 'BEGIN { for (i = 0; i < 8; ++i) { for (j = 0; j < 8; ++j)
    printf "%s%s", (j ? " " : ""), (i == j ? 0 : v); print "" } }' >"$1"
}

echo "== 1. stopping rankmap (TERM): the launcher, the ranks, smpirun and temporaries go"
started=misbehaving_job attack stop_advise_mpirun stop "$r" advise "${net[@]}" \
  --output "$dir/s1" -- "${mpirun[@]}" "$job" hang
started=misbehaving_job attack stop_advise_hydra stop "$r" advise "${net[@]}" \
  --output "$dir/s2" -- "${hydra[@]}" "$job_mpich" hang
dense "$dir/big.mat" 100000
dense "$dir/big.msgs.mat" 100000
seq 0 7 >"$dir/identity.txt"
started=smpimain attack stop_simulate stop "$r" simulate "${net[@]}" --comm "$dir/big.mat" \
  --mapping "$dir/identity.txt" --iterations 1000
started=smpimain attack stop_compare_simulate stop "$r" compare "${net[@]}" \
  --comm "$dir/big.mat" --simulate --iterations 1000 --algorithms tm
profile_with bigp "$good_placement"
dense "$dir/bigp/profile.mat" 100000
dense "$dir/bigp/profile.msgs.mat" 100000
started=smpimain attack stop_advise_prediction stop "$r" advise \
  --from-profile "$dir/bigp/profile.mat" "${net[@]}" --output "$dir/s3" --iterations 1000

echo "== 2. --output and the paths advise writes into files and commands"
want="control character" attack output_newline refuse "$r" advise --output "$dir/o
n9:2" -- "${mpirun[@]}" "$halo" 4 2 64 1
# Words of a launch line in --output: the rerun, pasted, runs the job and nothing else.
out="$dir/o mpirun -x A=1 ;touch $dir/pwned1 'x"
want="rerun: " attack output_launcher_name ok "$r" advise "${net[@]}" --output "$out" -- \
  "${mpirun[@]}" "$halo" 4 20 256 10
rerun="$(sed -n 's/^rerun: //p' "$dir/attack-$attack_seq.out")"
bash -c "$rerun" >/dev/null 2>&1
[ -e "$dir/pwned1" ] && echo "NOT clean output_launcher_name: the pasted rerun ran a command"
# mpirun passes the rankfile's path to its remote daemons in a double-quoted shell word:
# what expands there is refused, and nothing ran.
out="$dir/q'\";\$(touch $dir/pwned2)"
want="would expand" attack output_dollar_for_mpirun refuse "$r" advise "${net[@]}" \
  --output "$out" -- "${mpirun[@]}" "$halo" 4 20 256 10
[ -e "$dir/pwned2" ] && echo "NOT clean output_dollar_for_mpirun: a command ran"
pushd "$dir" >/dev/null || exit 1
want="advice" attack output_dash_relative ok "$r" advise "${net[@]}" --output -dash -- \
  "${mpirun[@]}" "$halo" 4 20 256 10
popd >/dev/null || exit 1
: >"$dir/a-file"
want="not a directory" attack output_is_file refuse "$r" advise --output "$dir/a-file" -- \
  "${mpirun[@]}" "$halo" 4 2 64 1
want="output" attack output_dev_null refuse "$r" advise --output /dev/null -- \
  "${mpirun[@]}" "$halo" 4 2 64 1
want="output" attack output_too_long refuse "$r" advise \
  --output "$dir/$(printf 'x%.0s' $(seq 5000))" -- "${mpirun[@]}" "$halo" 4 2 64 1
want="advice" attack output_hash ok "$r" advise "${net[@]}" --output "$dir/a#b" -- \
  "${mpirun[@]}" "$halo" 4 20 256 10
mkdir -p "$dir/rel"
pushd "$dir/rel" >/dev/null || exit 1
want="advice" attack default_output_no_topology ok "$r" advise -- "${mpirun[@]}" "$halo" 4 \
  20 256 10
lstopo-no-graphics --of xml node.xml 2>/dev/null
want="each as node.xml" attack node_relative ok "$r" advise --node node.xml --output out -- \
  "${mpirun[@]}" "$halo" 4 20 256 10
popd >/dev/null || exit 1
want="advice" attack output_nested_new ok "$r" advise "${net[@]}" --output "$dir/n/e/s/t" -- \
  "${mpirun[@]}" "$halo" 4 20 256 10
want="cannot be written into a network spec" attack node_with_hash refuse "$r" advise \
  --node 'core:2 # x' --output "$dir/nh" -- "${mpirun[@]}" "$halo" 4 20 256 10

echo "== 3. old files in --output are not trusted"
RANKMAP_PROFILE_MARK=MPI_Allreduc want="the profiler said" attack stale_profiler_off \
  refuse "$r" advise "${net[@]}" --output "$dir/good" -- "${mpirun[@]}" "$halo" 4 20 256 10
RANKMAP_PROFILE_COLLECTIVES=tree want="RANKMAP_PROFILE_COLLECTIVES" attack \
  stale_collectives_bad refuse \
  "$r" advise "${net[@]}" --output "$dir/good" -- "${mpirun[@]}" "$halo" 4 20 256 10
want="without a profile" attack stale_noinit refuse "$r" advise "${net[@]}" \
  --output "$dir/good" -- "${mpirun[@]}" "$job" noinit
cp -r "$dir/good" "$dir/planted"
printf 'rankmap-profile-row 0 100000\nrunning\nwindow 0 0 star x\n' >"$dir/planted/profile.part.0"
want="(8 ranks" attack planted_rows ok "$r" advise "${net[@]}" --output "$dir/planted" \
  --profile-seconds 60 -- "${mpirun[@]}" "$halo" 4 20 256 10
dense "$dir/planted/profile.mat" 1
awk 'BEGIN { for (i = 0; i < 3000; ++i) print "1" }' >>"$dir/planted/profile.mat"
want="(8 ranks" attack planted_profile ok "$r" advise "${net[@]}" --output "$dir/planted" \
  -- "${mpirun[@]}" "$halo" 4 20 256 10
mkdir -p "$dir/victim" "$dir/linked"
echo keep >"$dir/victim/file"
ln -sf "$dir/victim/file" "$dir/linked/job.rankfile"
want="advice: a predicted gain" attack planted_symlink ok "$r" advise "${net[@]}" \
  --output "$dir/linked" -- "${mpirun[@]}" "$halo" 4 20 256 10
[ "$(cat "$dir/victim/file")" = keep ] ||
  echo "NOT clean planted_symlink: wrote through the planted link"

echo "== 4. numeric flags: one parser, one line"
for f in "--profile-seconds nan" "--profile-seconds -1" "--profile-seconds inf" \
  "--profile-seconds 1e300" "--iterations 0" "--iterations 100000" "--iterations -5" \
  "--min-gain 1" "--min-gain -0.1" "--min-gain nan" "--threads -1" \
  "--threads 1000000000"; do
  want="${f%% *}" attack "advise $f" refuse "$r" advise $f --output "$dir/num" -- \
    "${mpirun[@]}" "$halo" 4 2 64 1
done
want="--iterations" attack "simulate --iterations 0" refuse "$r" simulate "${net[@]}" \
  --comm "$P" --mapping "$dir/identity.txt" --iterations 0
want="--slots-per-leaf" attack "map --slots-per-leaf 0" refuse "$r" map "${net[@]}" \
  --comm "$P" --slots-per-leaf 0
want="--keep-margin" attack "map --keep-margin nan" refuse "$r" map "${net[@]}" --comm "$P" \
  --keep-margin nan

echo "== 5. message counts: the replay's work is bounded"
for m in 10000000 1000000; do
  profile_with "msgs$m" "$good_placement"
  dense "$dir/msgs$m/profile.msgs.mat" "$m"
  want="divided by" attack "advise_counts_$m" ok "$r" advise \
    --from-profile "$dir/msgs$m/profile.mat" "${net[@]}" --output "$dir/msgs$m/out"
done
cp "$dir/msgs10000000/profile.msgs.mat" "$dir/big10.msgs.mat"
cp "$dir/big.mat" "$dir/big10.mat"
want="divided by" attack simulate_counts_1e7 ok "$r" simulate "${net[@]}" \
  --comm "$dir/big10.mat" --mapping "$dir/identity.txt" --iterations 1000
dense "$dir/huge.msgs.mat" 100000000
want="divided by" attack simulate_counts_1e8 ok "$r" simulate "${net[@]}" \
  --comm "$dir/big10.mat" --messages "$dir/huge.msgs.mat" --mapping "$dir/identity.txt" \
  --iterations 1

echo "== 6. the placement against the job and the machine"
place() { profile_with "$1" "$2"; }
place pl_extra "$(sed 's/^7 /9 /' "$PL")"
want="rank 9 is not a rank" attack placement_extra_rank refuse "$r" advise \
  --from-profile "$dir/pl_extra/profile.mat" "${net[@]}" --output "$dir/plo"
place pl_cpu "$(sed '/^0 /s/ [0-9,-]*$/ 7/' "$PL")"
want="ran on CPU 7" attack placement_foreign_cpu refuse "$r" advise \
  --from-profile "$dir/pl_cpu/profile.mat" "${net[@]}" --output "$dir/plo"
place pl_huge "$(sed 's/ [0-9,-]*$/ 0-1048575/' "$PL")"
want="names 1048576 CPUs" attack placement_huge_ranges refuse "$r" advise \
  --from-profile "$dir/pl_huge/profile.mat" "${net[@]}" --output "$dir/plo"
place pl_300 "$(for i in $(seq 0 299); do echo "$i n$((i % 4)) 0-1048575"; done)"
want="rank 8 is not a rank" attack placement_300_huge_lines refuse "$r" advise \
  --from-profile "$dir/pl_300/profile.mat" "${net[@]}" --output "$dir/plo"
place pl_dup "$(sed 's/^1 /0 /' "$PL")"
want="already on line" attack placement_duplicate refuse "$r" advise \
  --from-profile "$dir/pl_dup/profile.mat" "${net[@]}" --output "$dir/plo"
place pl_host "$(sed 's/ n3 / n9 /' "$PL")"
want="n9" attack placement_unknown_host refuse "$r" advise \
  --from-profile "$dir/pl_host/profile.mat" "${net[@]}" --output "$dir/plo"
place pl_proxy "$(sed 's/ n3 / -oProxyCommand=x /' "$PL")"
want="host name" attack placement_option_host refuse "$r" advise \
  --from-profile "$dir/pl_proxy/profile.mat" "${net[@]}" --output "$dir/plo"
place pl_neg "$(sed '/^0 /s/ [0-9,-]*$/ -1/' "$PL")"
want="CPU list" attack placement_negative_cpu refuse "$r" advise \
  --from-profile "$dir/pl_neg/profile.mat" "${net[@]}" --output "$dir/plo"
place pl_empty ""
want="ranks placed" attack placement_empty refuse "$r" advise \
  --from-profile "$dir/pl_empty/profile.mat" "${net[@]}" --output "$dir/plo"
place pl_garbage "$(head -c 4096 /dev/urandom | tr -d '\0')"
attack placement_garbage refuse "$r" advise \
  --from-profile "$dir/pl_garbage/profile.mat" "${net[@]}" --output "$dir/plo"
place pl_fifo ""
rm -f "$dir/pl_fifo/profile.placement"
mkfifo "$dir/pl_fifo/profile.placement"
want="not a regular file" attack placement_fifo refuse "$r" advise \
  --from-profile "$dir/pl_fifo/profile.mat" "${net[@]}" --output "$dir/plo"
place pl_none ""
rm -f "$dir/pl_none/profile.placement"
want="placement" attack placement_missing refuse "$r" advise \
  --from-profile "$dir/pl_none/profile.mat" "${net[@]}" --output "$dir/plo"

echo "== 7. paths and launch lines"
mkdir -p "$dir/run.v2"
grep -v '^#' "$P" >"$dir/run.v2/profile"
cp "$PL" "$dir/run.v2/profile.placement"
want="proposed placement" attack profile_extensionless ok "$r" advise \
  --from-profile "$dir/run.v2/profile" "${net[@]}" --output "$dir/ext"
cp "$P" "$dir/run.v2/profile.mat"
want="proposed placement" attack profile_dotted_directory ok "$r" advise \
  --from-profile "$dir/run.v2/profile.mat" "${net[@]}" --output "$dir/ext"
: >"$dir/empty.conf"
want="advice" attack openmpi_wd_am ok "$r" advise "${net[@]}" --output "$dir/wd" -- \
  mpirun -wd "$dir" -am "$dir/empty.conf" "${mpirun[@]:1}" "$halo" 4 20 256 10
want="advice" attack hydra_l_np_equals ok "$r" advise "${net[@]}" --output "$dir/hl" -- \
  "${hydra[@]:0:7}" -l --np=8 -bind-to core "$halo_mpich" 4 20 256 10
want="has no option --frobnicate" attack unknown_option refuse "$r" advise \
  --output "$dir/uo" -- mpirun --frobnicate -np 8 "$halo" 4 2 64 1
want="several programs" attack mpmd_line refuse "$r" advise --output "$dir/uo" -- \
  mpiexec.hydra -n 1 "$halo_mpich" : -n 1 "$halo_mpich"
want="does not run one program" attack openmpi_app refuse "$r" advise --output "$dir/uo" \
  -- mpirun --app "$dir/empty.conf"

echo "== 8. failing jobs: one line from the last of their standard error"
want="last words" attack job_128mib_stderr refuse "$r" advise "${net[@]}" \
  --output "$dir/j1" -- "${mpirun[@]}" "$job" noise 128 3
want="the job failed" attack job_exit_code refuse "$r" advise "${net[@]}" \
  --output "$dir/j2" -- "${mpirun[@]}" "$job" noise 0 5
want="the job failed" attack job_crash refuse "$r" advise "${net[@]}" --output "$dir/j3" -- \
  "${mpirun[@]}" "$job" crash
want="" attack job_mpi_abort refuse "$r" advise "${net[@]}" --output "$dir/j4" -- \
  "${mpirun[@]}" "$job" mpiabort
want="not dynamically linked against MPI" attack job_not_mpi refuse "$r" advise \
  --output "$dir/j5" -- "${mpirun[@]}" /bin/true

echo "== 9. nothing half-written"
absent="$dir/h1/job.rankfile" want="x.html" attack advise_report_unwritable refuse "$r" advise \
  --from-profile "$P" "${net[@]}" --launcher openmpi --output "$dir/h1" \
  --report "$dir/nowhere/x.html"
absent="$dir/h2.txt" want="x.html" attack map_report_unwritable refuse "$r" map "${net[@]}" \
  --comm "$P" --output "$dir/h2.txt" --report "$dir/nowhere/x.html"
absent="$dir/h3.txt" want="pic" attack map_svg_unwritable refuse "$r" map "${net[@]}" \
  --comm "$P" --output "$dir/h3.txt" --svg "$dir/nowhere/pic"
absent="$dir/h4.rf" want="x.html" attack map_rankfile_report_unwritable refuse "$r" map \
  "${net[@]}" --comm "$P" --format rankfile --output "$dir/h4.rf" --report "$dir/nowhere/x.html"
want="x.html" attack eval_report_unwritable refuse "$r" eval "${net[@]}" --comm "$P" \
  --mapping "$dir/identity.txt" --report "$dir/nowhere/x.html"
want="pic" attack compare_svg_unwritable refuse "$r" compare "${net[@]}" --comm "$P" \
  --svg "$dir/nowhere/pic" --algorithms tm

echo "== 10. the profiler's variables"
for v in abc nan 5s; do
  RANKMAP_PROFILE_FLUSH="$v" want="RANKMAP_PROFILE_FLUSH='$v'" attack "flush_$v" refuse \
    "$r" advise "${net[@]}" --output "$dir/f$v" -- "${mpirun[@]}" "$halo" 4 20 256 10
done

echo "== 11. paths smpirun would misread"
mkdir -p "$dir/d[x]" "$dir/dx" "$dir/with space" "$dir/star*"
cp "$dir/big.mat" "$dir/d[x]/g.mat"
dense "$dir/dx/g.mat" 1
cp "$dir/big.mat" "$dir/with space/g.mat"
cp "$dir/big.mat" "$dir/star*/g.mat"
"$r" simulate "${net[@]}" --comm "$dir/big.mat" --messages none --mapping "$dir/identity.txt" \
  --iterations 2 2>/dev/null | sed -n 's/^simulated time per iteration *//p' >"$dir/t.want"
for d in "d[x]" "with space" "star*"; do
  want="$(cat "$dir/t.want")" attack "simulate_comm_in_$d" ok "$r" simulate "${net[@]}" \
    --comm "$dir/$d/g.mat" --messages none --mapping "$dir/identity.txt" --iterations 2
done

echo "== 12. srun"
if command -v slurmd >/dev/null; then
  fake_nodes srun
  started=misbehaving_job attack stop_advise_srun stop "${in_job_words[@]}" "$r" advise \
    --output "$dir/s4" -- "${line[@]}" "$job_mpich" hang
  want="separates variables at ','" attack srun_output_comma refuse "${in_job_words[@]}" \
    "$r" advise --output "$dir/a,LD_PRELOAD=x" -- "${line[@]}" "$halo_mpich" 4 2 64 1
  want="advice" attack srun_grouped_flags ok "${in_job_words[@]}" "$r" advise \
    --output "$dir/sg" -- srun -lK "${line[@]:1}" "$halo_mpich" 4 20 256 10
  slurm_stop
else
  echo "srun cases skipped: slurmd is not installed"
fi

echo "$clean clean of $((clean + dirty)) cases, $dirty not clean"
