#!/usr/bin/env bash
# usage: check_generated.sh FRMINI WORKDIR NAME VOLUME NPARTS [REGEX ...] -- [mesh options]
# The whole user pipeline on a built-in mesh: frmini mesh NAME, import, partition NPARTS,
# mesh-info --format json. Checks that every REGEX matches the json (whitespace removed), that
# the volume is VOLUME to 1e-6 relative, that the minimum Jacobian is positive and that the
# partitioning is listed.
set -u
# Sanitizer builds: ignore libgmsh's own leaks and its new[]/delete mismatch (tests/lsan.supp).
export LSAN_OPTIONS="suppressions=$(dirname "$0")/../lsan.supp:${LSAN_OPTIONS:-}"
export ASAN_OPTIONS="alloc_dealloc_mismatch=0:${ASAN_OPTIONS:-}"
frmini=$1 dir=$2 name=$3 volume=$4 nparts=$5; shift 5
regexes=()
while [ $# -gt 0 ] && [ "$1" != "--" ]; do regexes+=("$1"); shift; done
[ "${1:-}" = "--" ] && shift
mkdir -p "$dir"
msh="$dir/$name.msh" h5="$dir/$name.h5"
fail() { echo "FAIL: $*"; exit 1; }
"$frmini" mesh "$name" --out "$msh" "$@" || fail "frmini mesh $name"
"$frmini" import "$msh" "$h5" || fail "frmini import"
"$frmini" partition "$h5" "$nparts" || fail "frmini partition"
json=$("$frmini" mesh-info "$h5" --format json | tr -d ' \n') || fail "frmini mesh-info"
echo "$json"
for r in "${regexes[@]}"; do
  echo "$json" | grep -qE -- "$r" || fail "mesh-info json does not match /$r/"
done
echo "$json" | grep -qE "\"partitionings\":\[([0-9]+,)*$nparts(,[0-9]+)*\]" || fail "partitioning $nparts not listed"
vol=$(echo "$json" | sed -E 's/.*"volume":([^,}]*).*/\1/')
jac=$(echo "$json" | sed -E 's/.*"min_jacobian":([^,}]*).*/\1/')
awk -v v="$vol" -v e="$volume" 'BEGIN { d = (v - e) / e; if (d < 0) d = -d; exit !(d < 1e-6) }' ||
  fail "volume $vol, expected $volume (1e-6 relative)"
awk -v j="$jac" 'BEGIN { exit !(j > 0) }' || fail "min_jacobian $jac is not positive"
echo "ok"
