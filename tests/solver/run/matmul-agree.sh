#!/usr/bin/env bash
# Switching [backend] matmul changes only the operator products' code, not the scheme: N steps
# with the generated kernels and with BLAS give solutions that agree to 1e-10 (round-off of a
# different summation order). usage: matmul-agree.sh FRMINI COMPARE CASE N [run flags...]
set -euo pipefail
frmini=$1 compare=$2 case=$3 n=$4
shift 4
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
for m in generated blas; do
  mkdir -p "$work/$m"
  ( cd "$work/$m" && "$frmini" run "$case" --steps "$n" --matmul "$m" --quiet "$@" >/dev/null )
done
final=$(cd "$work/generated" && find . -name '*.h5' | sort | tail -1)
"$compare" "$work/generated/$final" "$work/blas/$final" --tol 1e-10
