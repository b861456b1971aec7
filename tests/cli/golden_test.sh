#!/usr/bin/env bash
# Golden tests of the rankmap command: each case runs one subcommand on small inputs and
# compares stdout with tests/cli/golden/<case>.out; error cases check the exit status and the
# one-line message on stderr. To refresh the expectations after an intended change:
#   RANKMAP_UPDATE_GOLDEN=$PWD/tests/cli/golden bazel test //tests/cli:golden_test
# With a third argument `simulate`, runs the cases that start SimGrid SMPI instead
# (//tests/cli:golden_simulate_test; they cannot run under AddressSanitizer).
set -u
rankmap="$1"
otf2_writer="$2"  # graphs:otf2_write_test_trace ("-" in the simulate section)
section="${3:-}"
here="$(dirname "$0")"
data="$here/data"
golden="$here/golden"
tmp="${TEST_TMPDIR:-$(mktemp -d)}"
failures=0

fail() { echo "FAIL $*"; failures=$((failures + 1)); }

# golden NAME ARGS...: exit 0 and stdout equal to golden/NAME.out (timings masked).
golden() {
  local name="$1"; shift
  "$rankmap" "$@" >"$tmp/$name.out" 2>"$tmp/$name.err"
  local code=$?
  # The last column of comparison tables is wall time: mask it.
  sed -E -i -e 's/ +[0-9]+\.[0-9]{3}$/ <time>/' -e "s|$tmp|<tmp>|g" "$tmp/$name.out"
  if [ "$code" -ne 0 ]; then fail "$name: exit $code: $(cat "$tmp/$name.err")"; return; fi
  if [ -n "${RANKMAP_UPDATE_GOLDEN:-}" ]; then cp "$tmp/$name.out" "$RANKMAP_UPDATE_GOLDEN/$name.out"; return; fi
  if ! diff -u "$golden/$name.out" "$tmp/$name.out"; then fail "$name: output differs"; fi
}

# golden_file NAME FILE: a file written by the case before equals golden/NAME.out.
golden_file() {
  local name="$1" file="$2"
  sed "s|$tmp|<tmp>|g" "$file" >"$tmp/$name.out" 2>/dev/null || { fail "$name: no file $file"; return; }
  if [ -n "${RANKMAP_UPDATE_GOLDEN:-}" ]; then cp "$tmp/$name.out" "$RANKMAP_UPDATE_GOLDEN/$name.out"; return; fi
  if ! diff -u "$golden/$name.out" "$tmp/$name.out"; then fail "$name: file differs"; fi
}

# error NAME SUBSTRING ARGS...: exit 2, exactly one line on stderr containing SUBSTRING.
error() {
  local name="$1" want="$2"; shift 2
  "$rankmap" "$@" >"$tmp/$name.out" 2>"$tmp/$name.err"
  local code=$?
  if [ "$code" -ne 2 ]; then fail "$name: exit $code, expected 2"; fi
  if [ "$(wc -l <"$tmp/$name.err")" -ne 1 ]; then fail "$name: stderr is not one line:"; cat "$tmp/$name.err"; fi
  if ! grep -qF -- "$want" "$tmp/$name.err"; then fail "$name: stderr lacks '$want': $(cat "$tmp/$name.err")"; fi
}

t4="tleaf 2 2 10 2 1"
# 2 hosts of 2 cores: host links 1 GB/s and 10 us, loopbacks 10 GB/s and 1 us.
hosts4="tleaf 2 2 1GBps:10us 2 10GBps:1us"

if [ "$section" = "simulate" ]; then
  # Exact model, 1 MB each way on each edge of the 4-cycle. Identity: each host sends 2 MB
  # up its link (20 us + 2 ms) while its loopback carries 2 MB (1 us + 0.2 ms): 2.02 ms.
  # Swapped: every edge crosses hosts, 4 MB up each link: 20 us + 4 ms.
  golden simulate_identity simulate --topology "$hosts4" --comm "$data/cycle4_2mb.edges" \
    --mapping "$data/identity.map" --smpi_model exact --iterations 3
  golden simulate_swapped simulate --topology "$hosts4" --comm "$data/cycle4_2mb.edges" \
    --mapping "$data/swapped.map" --smpi_model exact --iterations 3
  # A platform file is simulated as it is. Processes 0, 1 on host a-0, 2, 3 on b-0: edges
  # 1-2 and 3-0 cross the shared 1 ms wide-area link, 4 MB at 1 GB/s: 1.02 ms + 4 ms.
  golden simulate_platform simulate --topology "$data/two_sites.xml" \
    --comm "$data/cycle4_2mb.edges" --mapping "$data/sites.map" --smpi_model exact
  golden compare_simulate compare --topology "$hosts4" --comm "$data/cycle4_2mb.edges" \
    --quiet --simulate --smpi_model exact --iterations 2
  # Message by message (latency_pair.msgs.mat beside the graph): 10 rounds of 1000 bytes each
  # way across hosts, 10 x (20 us + 1 us); without the counts one round of 10 kB, 30 us.
  golden simulate_counts simulate --topology "$hosts4" --comm "$data/latency_pair.edges" \
    --mapping "$data/apart2.map" --smpi_model exact --iterations 2
  golden simulate_no_counts simulate --topology "$hosts4" --comm "$data/latency_pair.edges" \
    --mapping "$data/apart2.map" --smpi_model exact --iterations 2 --messages none
  # Ranked by simulated time: J prefers the large pairs on a host each (1.88x slower); the
  # identity keeps the 100 rounds of small messages on the loopbacks and is the fastest.
  golden compare_simulate_counts compare --topology "$hosts4" --comm "$data/mixed4.edges" \
    --messages "$data/mixed4.msgs.edges" --quiet --simulate --smpi_model exact --iterations 1
  error simulate_no_doctype "no_doctype.xml: SimGrid cannot load it" simulate \
    --topology "$data/no_doctype.xml" --comm "$data/cycle4_2mb.edges" --mapping "$data/sites.map"
  # 2 x 10^8 messages: divided to the replay's bound on its work, and said so.
  "$rankmap" simulate --topology "$hosts4" --comm "$data/pair.edges" \
    --messages "$data/many.msgs.edges" --mapping "$data/apart2.map" --iterations 1 \
    >"$tmp/many.out" 2>&1 || fail "simulate_many_messages: $(cat "$tmp/many.out")"
  grep -q "the recorded counts divided by" "$tmp/many.out" ||
    fail "simulate_many_messages: no divisor said: $(cat "$tmp/many.out")"
  error simulate_missing_counts "nonexistent.msgs" simulate --topology "$hosts4" \
    --comm "$data/pair.edges" --messages "$data/nonexistent.msgs" --mapping "$data/apart2.map"
  "$rankmap" simulate --help | grep -q "usage: rankmap simulate" || fail "simulate --help"
  error simulate_no_links "has no links" simulate --topology "$t4" \
    --comm "$data/cycle4_2mb.edges" --mapping "$data/identity.map"
  error simulate_no_mapping "--mapping" simulate --topology "$hosts4" \
    --comm "$data/cycle4_2mb.edges"
  error simulate_bad_model "--smpi_model" simulate --topology "$hosts4" \
    --comm "$data/cycle4_2mb.edges" --mapping "$data/identity.map" --smpi_model fast
  error simulate_short_mapping "3 entries for 4 processes" simulate --topology "$hosts4" \
    --comm "$data/cycle4_2mb.edges" --mapping "$data/short.map"
  # Without SMPI on the PATH: one line naming the Debian package, exit 2.
  env PATH=/nonexistent "$rankmap" simulate --topology "$hosts4" --comm "$data/cycle4_2mb.edges" \
    --mapping "$data/identity.map" >/dev/null 2>"$tmp/no_smpi.err"
  code=$?
  [ "$code" -eq 2 ] && [ "$(wc -l <"$tmp/no_smpi.err")" -eq 1 ] &&
    grep -q "libsimgrid-dev" "$tmp/no_smpi.err" || fail "no smpirun: exit $code: $(cat "$tmp/no_smpi.err")"
  if [ "$failures" -ne 0 ]; then echo "$failures failure(s)"; exit 1; fi
  exit 0
fi

golden topology_simgrid topology --topology "$hosts4" --format simgrid
golden topology_links topology --topology "$hosts4"
golden topology_platform topology --topology "$data/two_sites.xml"
golden map_identity_smpi map --topology "$hosts4" --comm "$data/cycle4.edges" \
  --algorithm identity --format smpi
error torus "torus.xml:4: <cluster id='t'>: topology TORUS: a torus is not a tree" \
  topology --topology "$data/torus.xml"
error smpi_without_hosts "has no host name" map --topology "$t4" --comm "$data/cycle4.edges" \
  --format smpi
golden topology_text topology --topology "pack:2 core:2 pu:2"
golden topology_tleaf topology --topology "$data/paper12.tleaf" --format tleaf
golden topology_json topology --topology "$t4" --format json
golden map_identity map --topology "$t4" --comm "$data/cycle4.edges" --algorithm identity
golden eval_identity eval --topology "$t4" --comm "$data/cycle4.edges" --mapping "$data/identity.map"
golden eval_swapped eval --topology "$t4" --comm "$data/cycle4.edges" --mapping "$data/swapped.map"
golden eval_swapped_hockney eval --topology "$t4" --comm "$data/cycle4.edges" \
  --mapping "$data/swapped.map" --model hockney
golden frontend_stencil frontend stencil --grid 4x4 --procs 4 --output "$tmp/s.grf"
golden frontend_square_corner frontend square-corner --speeds 8,1 --n 4500 --output "$tmp/sc.grf"
golden compare_cycle compare --topology "$t4" --comm "$data/cycle4.edges" --quiet
golden compare_cycle_lmo compare --topology "$t4" --comm "$data/cycle4.edges" --quiet --model lmo
golden demo_small demo --topology "pack:2 core:3 pu:1" --quiet

# The engine's mapping of the TreeMatch paper's example: valid, and eval agrees with map's J.
"$rankmap" map --topology "$data/paper12.tleaf" --comm "$data/treematch8.mat" --format json \
  >"$tmp/tm.json" 2>"$tmp/tm.err" || fail "map treematch8: $(cat "$tmp/tm.err")"
"$rankmap" map --topology "$data/paper12.tleaf" --comm "$data/treematch8.mat" \
  >"$tmp/tm.map" 2>>"$tmp/tm.err" || fail "map treematch8 plain"
j_map=$(sed -E 's/.*"j": ([0-9.e+]+).*/\1/' "$tmp/tm.json")
j_eval=$("$rankmap" eval --topology "$data/paper12.tleaf" --comm "$data/treematch8.mat" \
  --mapping "$tmp/tm.map" | awk '$1 == "J" {print $2}')
[ -n "$j_map" ] && [ "$j_map" = "$j_eval" ] || fail "treematch8: map J '$j_map' != eval J '$j_eval'"
[ "$(sort -n "$tmp/tm.map" | uniq | wc -l)" -eq 8 ] || fail "treematch8: mapping is not one-to-one"

# Presets set defaults, an explicit --algorithm wins: fast runs tm, and
# fast with --algorithm multisection runs the multisection.
for pair in "fast::tm" "default::portfolio" "fast:multisection:multisection" \
            "strong:identity:identity"; do
  IFS=: read -r preset algo want <<<"$pair"
  "$rankmap" map --topology "$data/paper12.tleaf" --comm "$data/treematch8.mat" \
    --format json --preset "$preset" ${algo:+--algorithm "$algo"} >"$tmp/p.json" 2>&1 ||
    fail "preset $preset algorithm '$algo': $(cat "$tmp/p.json")"
  grep -q "\"algorithm\": \"$want\"" "$tmp/p.json" ||
    fail "preset $preset algorithm '$algo': expected $want in $(cat "$tmp/p.json")"
done

# Pictures: both files written and well formed enough to hold the SVG root.
"$rankmap" map --topology "$t4" --comm "$data/cycle4.edges" --output "$tmp/m.txt" \
  --svg "$tmp/pic" >/dev/null 2>&1 || fail "map --svg"
grep -q '<svg' "$tmp/pic.matrix.svg" && grep -q '<svg' "$tmp/pic.tree.svg" || fail "svg files"

# --help on every command.
for c in map eval compare topology frontend demo; do
  "$rankmap" "$c" --help | grep -q "usage: rankmap $c" || fail "$c --help"
done

error unknown_command "unknown command 'mapp'" mapp
error unknown_flag "unknown flag --mapping" map --mapping x
error missing_value "needs a value" map --comm
error bad_seed "--seed" map --seed abc
error missing_comm "nope.mat" map --topology "$t4" --comm "$data/nope.mat"
error no_comm "--comm" map --topology "$t4"
error bad_topology "topology" map --topology "pack:2 bogus:3" --comm "$data/cycle4.edges"
error bad_tleaf "tleaf" topology --topology "tleaf 2 2 10"
error bad_algorithm "unknown algorithm 'best'" map --topology "$t4" --comm "$data/cycle4.edges" --algorithm best
error bad_format "unknown mapping format" map --topology "$t4" --comm "$data/cycle4.edges" --format xml
error negative_weight "negative.edges:2" map --topology "$t4" --comm "$data/negative.edges"
error ragged_mat "ragged.mat:2" map --topology "$t4" --comm "$data/ragged.mat"
error bad_mapping_line "bad_line.map:3" eval --topology "$t4" --comm "$data/cycle4.edges" --mapping "$data/bad_line.map"
error over_capacity "capacity" eval --topology "$t4" --comm "$data/cycle4.edges" --mapping "$data/over_capacity.map"
error short_mapping "3 entries for 4 processes" eval --topology "$t4" --comm "$data/cycle4.edges" --mapping "$data/short.map"
golden map_n_to_1 map --topology "tleaf 1 2 1" --comm "$data/cycle4.edges" --output "$tmp/n1.txt"
error bad_model "unknown model 'foo'" eval --topology "$t4" --comm "$data/cycle4.edges" --mapping "$data/identity.map" --model foo
error bad_frontend "unknown kind 'fft'" frontend fft
error bad_speeds "--speeds" frontend square-corner --speeds 8,x --n 10
error bad_grid "grid" frontend stencil --grid 4y4 --procs 4

# Launch formats (launch/): hosts and PU numbers of a network of two named hwloc hosts.
net="$data/two_hosts.net"
ring="$data/ring8.edges"
golden map_launch_rankfile map --topology "$net" --comm "$ring" --algorithm random --format rankfile
golden map_launch_rankfile_core map --topology "$net" --leaf core --oversubscribe 2 \
  --comm "$data/cycle4.edges" --algorithm identity --format rankfile
golden map_launch_ompi5 map --topology "$net" --comm "$ring" --algorithm random --format ompi5
golden map_launch_hwloc map --topology "$net" --leaf core --comm "$data/cycle4.edges" \
  --algorithm random --format hwloc
golden map_launch_slurm map --topology "$net" --comm "$ring" --algorithm identity --format slurm \
  --output "$tmp/s.hosts"
golden_file map_launch_slurm_hosts "$tmp/s.hosts"
golden map_launch_slurm_wrapper map --topology "$net" --comm "$ring" --algorithm random \
  --format slurm --output "$tmp/w.hosts"
golden_file map_launch_slurm_wrapper_hosts "$tmp/w.hosts"
golden_file map_launch_slurm_wrapper_script "$tmp/w.hosts.bind.sh"
golden map_launch_slurm_mask map --topology "$net" --leaf core --comm "$data/cycle4.edges" \
  --algorithm identity --format slurm --output "$tmp/m.hosts"
golden map_launch_hydra map --topology "$net" --comm "$ring" --algorithm identity \
  --format hydra --output "$tmp/h.hosts"
golden_file map_launch_hydra_hosts "$tmp/h.hosts"
golden map_launch_hydra_runs map --topology "$net" --comm "$ring" --algorithm random \
  --format hydra --output "$tmp/r.hosts"
golden_file map_launch_hydra_runs_hosts "$tmp/r.hosts"
error launch_tleaf "not a real machine" map --topology "$t4" --comm "$data/cycle4.edges" \
  --format rankfile
error launch_slurm_stdout "give --output" map --topology "$net" --comm "$data/cycle4.edges" \
  --format slurm
error launch_bad_bind "unknown binding 'cores'" map --topology "$net" \
  --comm "$data/cycle4.edges" --format slurm --output "$tmp/x" --bind cores

# Network trees from the cluster's files, KaHIP hierarchies.
golden topology_slurm_conf topology --topology "$data/topology.conf" --node "core:2"
golden topology_ibnetdiscover topology --topology "$data/fabric.ib" --node "tleaf 1 2 1"
golden topology_hierarchy topology --hierarchy 4:8:6 --distance 1:10:100 --format tleaf
error conf_without_node "hardware is not described" topology --topology "$data/topology.conf"
error conf_undefined_switch "undefined_switch.conf:2: switch 's1' (in Switches= of 'top') is not defined" \
  topology --topology "$data/undefined_switch.conf" --node core:2
error conf_node_twice "two_switches.conf:2: node 'tux3' is already under switch 's0' (line 1)" \
  topology --topology "$data/two_switches.conf" --node core:2
error conf_cycle "cycle.conf:1: switches form a cycle: a -> b -> c -> a" \
  topology --topology "$data/cycle.conf" --node core:2
error ib_garbage "garbage.ib:4: expected a device line" \
  topology --topology "$data/garbage.ib" --node core:2
error hierarchy_alone "--hierarchy and --distance go together" topology --hierarchy 4:8

# Traffic from an OTF2 trace written by a small OTF2 writer: J of the identity on a flat
# 4-leaf machine is the total volume, 1024 + 500 + 64 + 4000 + 8 = 5596 bytes.
"$otf2_writer" "$tmp/trace" || fail "writing the OTF2 trace"
golden eval_otf2 eval --topology "tleaf 1 4 1" --comm "$tmp/trace/traces.otf2" \
  --mapping "$data/identity.map"
error not_otf2 "junk.otf2:1: not an OTF2 archive" map --topology "$t4" --comm "$data/junk.otf2"

if [ "$failures" -ne 0 ]; then echo "$failures failure(s)"; exit 1; fi
echo "all golden cases passed"
