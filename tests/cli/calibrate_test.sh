#!/bin/bash
# `rankmap calibrate` against an oracle: the probe runs under smpirun on SimGrid platforms whose
# links are known, and the network spec it writes must give back every level's link within 10%
# (read back by a reader of its own, below): the loopback of a host, a host's link to its switch,
# and a switch's link (its bandwidth revealed by hosts streaming at once). Two platforms, each
# under SMPI's default model (nominal links written) and under its exact model (links as
# measured). The spec then loads as a topology.
set -uo pipefail
rankmap="$1"
dir="${TEST_TMPDIR:-$(mktemp -d)}"
source tests/cli/cli_checks.sh
if ! command -v smpirun >/dev/null; then echo "smpirun missing (Debian libsimgrid-dev)"; exit 1; fi
exact=(--cfg=network/model:CM02 --cfg=network/crosstraffic:0 --cfg=network/TCP-gamma:0
  --cfg=smpi/bw-factor:1 --cfg=smpi/lat-factor:1 --cfg=smpi/async-small-thresh:0
  --cfg=smpi/send-is-detached-thresh:0 --cfg=smpi/os:0:0:0 --cfg=smpi/or:0:0:0
  --cfg=smpi/ois:0:0:0 --cfg=smpi/wtime:0)

# The spec's "link node|cluster|network BW:LAT" lines against the expected values (bytes/s,
# seconds), every one within 10%.
check_links() {  # NAME SPEC node_bw node_lat cluster_bw cluster_lat network_bw network_lat
  python3 - "$@" <<'PY' || fail "$1: links off"
import re, sys
name, spec = sys.argv[1], sys.argv[2]
want = dict(zip(["node", "cluster", "network"],
                zip(map(float, sys.argv[3::2]), map(float, sys.argv[4::2]))))
unit_bw = {"GBps": 1e9, "MBps": 1e6, "kBps": 1e3, "Bps": 1}
unit_lat = {"us": 1e-6, "ns": 1e-9, "ms": 1e-3, "s": 1}
got = {}
for line in open(spec):
    m = re.match(r"link (\w+) ([0-9.e+-]+)([A-Za-z]+):([0-9.e+-]+)([a-z]+)$", line.strip())
    if m:
        got[m[1]] = (float(m[2]) * unit_bw[m[3]], float(m[4]) * unit_lat[m[5]])
bad = 0
for level, (bw, lat) in want.items():
    gbw, glat = got.get(level, (0, 0))
    for what, g, w in (("bandwidth", gbw, bw), ("latency", glat, lat)):
        err = g / w - 1
        print(f"{name}: {level} {what} {g:.4g} against {w:.4g} ({100 * err:+.1f}%)")
        bad += abs(err) > 0.10
sys.exit(bad > 0)
PY
}

calibrate() {  # NAME TLEAF RANKS_PER_HOST MODEL [SMPIRUN OPTIONS...]
  local name="$1" tleaf="$2" per="$3" model="$4"
  shift 4
  "$rankmap" topology --topology "$tleaf" --format simgrid >"$dir/$name.xml" || fail "$name: platform"
  local hosts
  hosts="$(grep -c '<host ' "$dir/$name.xml")"
  for ((h = 0; h < hosts; ++h)); do for ((k = 0; k < per; ++k)); do echo "n$h"; done; done \
    >"$dir/$name.hosts"
  "$rankmap" calibrate --quick --smpi_model "$model" --output "$dir/$name.net" -- smpirun \
    -np $((hosts * per)) -platform "$dir/$name.xml" -hostfile "$dir/$name.hosts" "$@" \
    >"$dir/$name.log" 2>&1 || fail "$name: calibrate failed: $(tail -3 "$dir/$name.log")"
  cat "$dir/$name.log"
  "$rankmap" topology --topology "$dir/$name.net" >/dev/null || fail "$name: the spec does not load"
  [ "$(grep -c '^node ' "$dir/$name.net")" = "$hosts" ] || fail "$name: not every host"
  [ "$(grep -c '^switch ' "$dir/$name.net")" = 2 ] || fail "$name: not two switches"
}

# A: 2 switches of 4 hosts of 2 cores; switch links 20 Gb/s (2.5 GB/s), 5 us; host links 10 Gb/s
# (1.25 GB/s), 2 us; loopbacks 40 GB/s, 0.5 us.
A="tleaf 3 2 20Gbps:5us 4 10Gbps:2us 2 40GBps:0.5us"
calibrate a "$A" 2 calibrated
check_links a "$dir/a.net" 40e9 0.5e-6 1.25e9 2e-6 2.5e9 5e-6
calibrate a_exact "$A" 2 exact "${exact[@]}"
check_links a_exact "$dir/a_exact.net" 40e9 0.5e-6 1.25e9 2e-6 2.5e9 5e-6
# B: 2 switches of 3 hosts of 4 cores; switch links 8 GB/s, 20 us; host links 4 GB/s, 1 us;
# loopbacks 100 GB/s, 0.2 us.
B="tleaf 3 2 8GBps:20us 3 4GBps:1us 4 100GBps:0.2us"
calibrate b "$B" 4 calibrated
check_links b "$dir/b.net" 100e9 0.2e-6 4e9 1e-6 8e9 20e-6
calibrate b_exact "$B" 4 exact "${exact[@]}"
check_links b_exact "$dir/b_exact.net" 100e9 0.2e-6 4e9 1e-6 8e9 20e-6
# The measurements fit again later give the same spec.
"$rankmap" calibrate --from-probe "$dir/b.net.probe" --output "$dir/again.net" >/dev/null ||
  fail "--from-probe failed"
diff "$dir/b.net" "$dir/again.net" || fail "--from-probe: another spec"
# Bad input: one line, exit 2.
error "no launch line" "give the launch line after --" calibrate --output "$dir/x.net"
printf 'link-probe 1 2\nrank 0 a 0\n' >"$dir/bad.probe"
error "bad probe" "bad.probe:1: no 'rank 1' line" calibrate --from-probe "$dir/bad.probe" \
  --output "$dir/x.net"
error "bad model" "--smpi_model: 'fast'" calibrate --smpi_model fast --from-probe "$dir/b.net.probe"
[ "$failures" -eq 0 ] || exit 1
echo PASS
