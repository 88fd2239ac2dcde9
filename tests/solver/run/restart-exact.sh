#!/usr/bin/env bash
# Restart exactness: N steps, restart, M steps gives the same solution, bit for bit, as N+M
# steps in one run (same backend and precision). usage: restart-exact.sh FRMINI CASE N M [FLAGS]
# FLAGS (e.g. "--precision single") go to the runs but not to the restart, which must take them
# from the solution file.
set -euo pipefail
frmini=$1 case=$2 n=$3 m=$4 flags=${5:-}
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
mkdir -p "$work/a" "$work/b"
cp "$case" "$work/a/case.toml"
cp "$case" "$work/b/case.toml"
export FRMINI_CACHE_DIR="$work/cache"   # one tuning cache: both runs pick the same kernels
( cd "$work/a" && "$frmini" run case.toml --steps $((n + m)) $flags --quiet >/dev/null )
( cd "$work/b" && "$frmini" run case.toml --steps "$n" $flags --quiet >/dev/null )
mid=$(ls "$work/b/out" | grep -v '^s-0.0000' | grep '\.h5$' | head -1)
( cd "$work/b" && "$frmini" restart case.toml "out/$mid" --steps "$m" --quiet >/dev/null )
final=$(ls "$work/a/out" | grep '\.h5$' | sort | tail -1)
[ -f "$work/b/out/$final" ] || { echo "FAIL: restart did not write $final"; ls "$work/b/out"; exit 1; }
# h5diff compares exactly (no tolerance) and exits 0 only when the datasets are identical.
if h5diff "$work/a/out/$final" "$work/b/out/$final" /soln /soln; then
  echo "ok: $((n + m)) steps == $n steps + restart + $m steps, bit for bit ($final)"
else
  echo "FAIL: solutions differ"; exit 1
fi
