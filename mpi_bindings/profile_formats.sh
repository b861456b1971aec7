# Sourced by the profiler's tests: each output file read back the way its format's owner reads
# it, by a reader of its own (awk), independent of rankmap's.
#
#   topomatch_mat FILE N   TopoMatch's dense matrix: the order is the number of lines (N), and
#                          every line is N numbers
#   scotch_grf FILE N      Scotch's source graph: "0", "N arcs", "base flags", then N lines of
#                          a degree and that many (weight, neighbour) pairs, arcs summing up
#   profile_side FILE KEY VALUE...   the side file: key=value lines after '#' lines, with
#                          these values
topomatch_mat() {
  awk -v n="$2" '
    { for (k = 1; k <= NF; ++k) if ($k !~ /^[-+]?([0-9]+\.?[0-9]*|\.[0-9]+)([eE][-+]?[0-9]+)?$/) {
        print FILENAME ":" NR ": not a number: " $k; exit 1 } }
    NF != n { print FILENAME ":" NR ": " NF " numbers, the order is " n; exit 1 }
    END { if (NR != n) { print FILENAME ": " NR " lines, expected " n; exit 1 } }' "$1"
}
scotch_grf() {
  awk -v n="$2" '
    NR == 1 && $0 != "0" { print FILENAME ": version " $0; exit 1 }
    NR == 2 { if ($1 != n) { print FILENAME ": " $1 " vertices"; exit 1 }; arcs = $2 }
    NR == 3 && !($1 == 0 && $2 == "010") { print FILENAME ": base/flags " $0; exit 1 }
    NR > 3 {
      if (NF != 1 + 2 * $1) { print FILENAME ":" NR ": degree " $1 ", " NF " fields"; exit 1 }
      for (k = 3; k <= NF; k += 2) if ($k < 0 || $k >= n) { print FILENAME ":" NR ": vertex " $k; exit 1 }
      seen += $1
    }
    END { if (NR != n + 3 || seen != arcs) { print FILENAME ": " NR - 3 " vertices, " seen " of " arcs " arcs"; exit 1 } }' "$1"
}
profile_side() {
  local file="$1"
  shift
  awk '!/^#/ && !/^[A-Za-z0-9_]+=/ { print FILENAME ":" NR ": not key=value"; exit 1 }' "$file" ||
    return 1
  while [ $# -ge 2 ]; do
    local got
    got="$(sed -n "s/^$1=//p" "$file" | tail -1)"
    [ "$got" = "$2" ] || { echo "$file: $1='$got', expected '$2'"; return 1; }
    shift 2
  done
}
