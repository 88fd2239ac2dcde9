#!/bin/bash
# Distributed runs end to end: `frmini run CASE` on 1 rank, then under mpirun on 2 and 3 ranks;
# each final solution file must equal the one-rank file to 1e-12 of the state's largest
# magnitude (tools/compare-solutions --rtol: the Couette case's pressure is 1e5).
# Restarts across rank counts (2 -> 1 and 1 -> 3, from the half-way file) must reach the same
# final state. A missing case file under mpirun gives one error line and exit status 2.
# usage: mpi-run.sh FRMINI MPIEXEC COMPARE CASE FINAL HALF [BACKEND]
set -u
frmini=$1 mpiexec=$2 compare=$3 case=$4 final=$5 half=$6
flags=()
[ -n "${7:-}" ] && flags=(--backend "$7")
export OMP_NUM_THREADS=1 OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
fail=0
run() {  # dir ranks args...
  local dir=$1 n=$2; shift 2
  mkdir -p "$work/$dir"
  if [ "$n" = 1 ]; then (cd "$work/$dir" && "$frmini" "$@" "${flags[@]}" --quiet > log 2>&1)
  else (cd "$work/$dir" && "$mpiexec" -np "$n" --oversubscribe "$frmini" "$@" "${flags[@]}" --quiet > log 2>&1); fi
  local rc=$?
  [ $rc = 0 ] || { echo "FAILED: $dir ($n ranks) exited with $rc:"; cat "$work/$dir/log"; fail=1; }
}
same() {  # what a b
  if out=$(python3 "$compare" "$2" "$3" --rtol 1e-12 2>&1); then echo "$1: $(echo "$out" | tail -1)"
  else echo "FAILED: $1:"; echo "$out"; fail=1; fi
}
# Histories (forces, integrals): the same rows, values to 1e-9 relative (sums over parts in another order).
same_csv() {  # what a b
  if out=$(python3 - "$2" "$3" <<'PY'
import csv, sys
a, b = (list(csv.reader(open(f))) for f in sys.argv[1:3])
assert a[0] == b[0] and len(a) == len(b) > 2, f'{len(a)} and {len(b)} rows, headers {a[0]} {b[0]}'
worst = 0.0
for ra, rb in zip(a[1:], b[1:]):
    assert ra[0] == rb[0], f'steps {ra[0]} and {rb[0]}'
    for x, y in zip(ra[1:], rb[1:]):
        # A blank field (the integrals' first residuals) must be blank in both.
        assert (x == '') == (y == ''), f'step {ra[0]}: {x!r} and {y!r}'
        if x == '':
            continue
        x, y = float(x), float(y)
        worst = max(worst, abs(x - y) / max(abs(x), abs(y), 1e-300) if abs(x - y) > 1e-13 else 0.0)
assert worst <= 1e-9, f'largest relative difference {worst:.3g}'
print(f'{len(a) - 1} rows agree (largest relative difference {worst:.3g})')
PY
  ); then echo "$1: $out"; else echo "FAILED: $1: $out"; fail=1; fi
}
run one 1 run "$case"
for n in 2 3; do
  run np$n $n run "$case"
  same "$n ranks vs 1" "$work/one/out/$final" "$work/np$n/out/$final"
  for h in forces integrals; do
    [ -f "$work/one/out/$h.csv" ] && same_csv "$h on $n ranks vs 1" "$work/one/out/$h.csv" "$work/np$n/out/$h.csv"
  done
done
run r21 1 restart "$case" "$work/np2/out/$half"
same "restart of a 2-rank file on 1 rank" "$work/one/out/$final" "$work/r21/out/$final"
run r13 3 restart "$case" "$work/one/out/$half"
same "restart of a 1-rank file on 3 ranks" "$work/one/out/$final" "$work/r13/out/$final"
# One error line, exit status 2 (mpirun adds its own notice on stderr).
(cd "$work" && "$mpiexec" -np 2 --oversubscribe "$frmini" run nope.toml > err 2>&1); rc=$?
lines=$(grep -c "^frmini: error: nope.toml: cannot open case file" "$work/err")
if [ $rc = 2 ] && [ "$lines" = 1 ]; then echo "missing case on 2 ranks: one error line, exit status 2"
else echo "FAILED: missing case on 2 ranks: exit $rc, $lines error lines:"; cat "$work/err"; fail=1; fi
[ $fail = 0 ] && echo "all distributed runs agree"
exit $fail
