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
# CSV files (histories, the forces summary): the same rows, text alike, values to 1e-9 of the
# larger of the two and of their column's largest magnitude (sums over parts in another order:
# a force component that cancels to 1e-2 of its column, as the cylinder's side force does at
# the start, keeps the rounding of its terms, 1e-9 of itself on 3 ranks of an AVX-512 CPU).
same_csv() {  # what a b
  if out=$(python3 - "$2" "$3" <<'PY'
import csv, sys
a, b = (list(csv.reader(open(f))) for f in sys.argv[1:3])
assert a[0] == b[0] and len(a) == len(b) >= 2, f'{len(a)} and {len(b)} rows, headers {a[0]} {b[0]}'
scale = {}  # column -> largest magnitude in either file
for r in a[1:] + b[1:]:
    for i, x in enumerate(r):
        try:
            scale[i] = max(scale.get(i, 0.0), abs(float(x)))
        except ValueError:
            pass
worst, where = 0.0, ''
for ra, rb in zip(a[1:], b[1:]):
    assert len(ra) == len(rb), f'rows {ra} and {rb}'
    for i, (x, y) in enumerate(zip(ra, rb)):
        if x == y:  # text (a step, a boundary, a note, a blank residual) must match exactly
            continue
        try:
            x, y = float(x), float(y)
        except ValueError:
            raise AssertionError(f'{x!r} and {y!r} in rows {ra[0]}, {rb[0]}')
        d = abs(x - y) / max(abs(x), abs(y), scale.get(i, 0.0), 1e-300) if abs(x - y) > 1e-13 else 0.0
        if d > worst:
            worst, where = d, f' ({a[0][i]} in row {ra[0]}: {x!r} and {y!r})'
assert worst <= 1e-9, f'largest relative difference {worst:.3g}{where}'
print(f'{len(a) - 1} rows agree (largest relative difference {worst:.3g})')
PY
  ); then echo "$1: $out"; else echo "FAILED: $1: $out"; fail=1; fi
}
run one 1 run "$case"
for n in 2 3; do
  run np$n $n run "$case"
  same "$n ranks vs 1" "$work/one/out/$final" "$work/np$n/out/$final"
  # Everything else the run leaves: the same files; time averages as solutions, histories
  # (forces, integrals, sampler) row by row; the export's VTK files by name.
  a=$(cd "$work/one/out" && ls | sort | tr '\n' ' ') b=$(cd "$work/np$n/out" && ls | sort | tr '\n' ' ')
  if [ "$a" = "$b" ]; then echo "$n ranks wrote the files of 1: $a"
  else echo "FAILED: 1 rank wrote $a, $n ranks $b"; fail=1; fi
  for f in "$work/one/out"/*; do
    name=$(basename "$f")
    case $name in
      avg-*.h5) same "$name (time average) on $n ranks vs 1" "$f" "$work/np$n/out/$name" ;;
      *.csv) same_csv "$name on $n ranks vs 1" "$f" "$work/np$n/out/$name" ;;
    esac
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
