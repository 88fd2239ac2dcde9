#!/usr/bin/env bash
# A time average continued across a restart: N steps, restart, M steps leaves the same mean
# and second moments over [0, t] as N + M steps in one run (to round-off: the restart takes the stopped run's mean
# times its window as the sum so far). Then without that mean file the restarted average says
# it starts again. Last, a run stopped by SIGTERM leaves its mean at the checkpoint's time,
# which a restart from the checkpoint continues. usage: tavg-restart.sh FRMINI CASE COMPARE N M
# Output is searched with here-strings, not pipes: under pipefail `echo "$log" | grep -q`
# fails when grep has its match and exits before echo has written a long log (SIGPIPE).
set -euo pipefail
frmini=$1 case=$2 compare=$3 n=$4 m=$5
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
for d in a b c d; do
  mkdir -p "$work/$d"
  cp "$case" "$work/$d/case.toml"
  cat >> "$work/$d/case.toml" <<'TOML'

[plugins.tavg]
nsteps = 1
tstart = 0.0
dt-out = 1e9
basedir = "tavg"
basename = "mean-{t}"
moments = true
TOML
done
export FRMINI_CACHE_DIR="$work/cache"
( cd "$work/a" && "$frmini" run case.toml --steps $((n + m)) --quiet >/dev/null )
( cd "$work/b" && "$frmini" run case.toml --steps "$n" --quiet >/dev/null )
mid=$(ls "$work/b/out" | grep -v '^s-0.0000' | grep '\.h5$' | head -1)
log=$(cd "$work/b" && "$frmini" restart case.toml "out/$mid" --steps "$m" --quiet)
grep -q "tavg: continuing the mean over \[0, " <<< "$log" || { echo "FAIL: the restart did not continue the mean"; echo "$log"; exit 1; }
final=$(ls "$work/a/tavg" | sort | tail -1)
[ -f "$work/b/tavg/$final" ] || { echo "FAIL: the restart did not write tavg/$final"; ls "$work/b/tavg"; exit 1; }
grep -q "/moments/" <<< "$(h5dump -n "$work/b/tavg/$final")" || { echo "FAIL: no /moments in tavg/$final"; exit 1; }
python3 "$compare" "$work/a/tavg/$final" "$work/b/tavg/$final" --rtol 1e-13 || { echo "FAIL: the means differ"; exit 1; }
# frmini sample gives the moments as columns (between solution points uu - u^2 is an
# interpolant's, not a variance: test_tavg checks it at the points, where it is one).
"$frmini" sample "$work/b/tavg/$final" --line "(1, 1), (19, 17)" --npts 40 > "$work/sample.csv"
python3 - "$work/sample.csv" <<'PY' || { echo "FAIL: the sampled moments"; exit 1; }
import csv, sys
rows = list(csv.DictReader(open(sys.argv[1])))
assert {'uu', 'vv', 'uv', 'pp'} <= set(rows[0]), rows[0].keys()
var = [float(r['uu']) - float(r['u'])**2 for r in rows]
assert all(abs(float(r[k])) < 1e6 for r in rows for k in ('uu', 'vv', 'uv', 'pp')) and max(var) > 1e-8
PY
# Without the stopped run's mean the average starts again at the restart, and says so.
( cd "$work/c" && "$frmini" run case.toml --steps "$n" --quiet >/dev/null && rm -r tavg )
log=$(cd "$work/c" && "$frmini" restart case.toml "out/$mid" --steps "$m" --quiet)
grep -q "tavg: no mean in tavg ends at t = .*; the average starts again here" <<< "$log" ||
  { echo "FAIL: no word of the average starting again"; echo "$log"; exit 1; }
# A restart at another order starts the average again, and says why.
log=$(cd "$work/b" && "$frmini" restart case.toml "out/$mid" --order 3 --steps 1 --quiet)
grep -q "tavg: the mean in tavg ending at t = .* is not continued (its order changed from 2 to 3); the average starts again here" <<< "$log" ||
  { echo "FAIL: no word of the average starting again at a change of order"; echo "$log"; exit 1; }
# SIGTERM: the checkpoint's time gets a mean file too.
sed -i 's/^tend = .*/tend = 1e6/' "$work/d/case.toml"
( cd "$work/d" && exec "$frmini" run case.toml --quiet >/dev/null 2>&1 ) &
pid=$!
for _ in $(seq 600); do [ -e "$work/d/out/s-0.0000.h5" ] && break; sleep 0.05; done
sleep 0.5
kill -TERM $pid
wait $pid || true
ckpt=$(ls "$work/d/out" | grep checkpoint | head -1)
[ -n "$ckpt" ] || { echo "FAIL: SIGTERM left no checkpoint"; exit 1; }
log=$(cd "$work/d" && "$frmini" restart case.toml "out/$ckpt" --steps 2 --quiet)
grep -q "tavg: continuing the mean over \[0, " <<< "$log" ||
  { echo "FAIL: the restart from the checkpoint $ckpt did not continue the mean"; echo "$log"; exit 1; }
echo "ok: SIGTERM left a mean at its checkpoint ($ckpt), which the restart continued"
echo "ok: the mean over $((n + m)) steps == $n steps + restart + $m steps ($final)"
