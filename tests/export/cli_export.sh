#!/usr/bin/env bash
# usage: cli_export.sh FRMINI EXPECT_SH CASES_DIR
# End to end through the command line: a single-precision run's solution exported (.vtu, a
# .pvd of two, the boundary-free case refusing --boundary), a mixed hex/pyramid/tet/prism box
# when Gmsh is built in, and a mismatched --mesh refused with one line and no output file.
set -eu
frmini=$1 expect=$2 cases=$3
dir=$(mktemp -d)
trap 'rm -rf "$dir"' EXIT
cd "$dir"
cp "$cases/small-vortex.toml" .
"$frmini" run small-vortex.toml --steps 2 --precision single --quiet >/dev/null
solns=(out/s-*.h5)
[ ${#solns[@]} -ge 2 ] || { echo "FAIL: expected two solution files"; exit 1; }

bash "$expect" 0 "one.vtu: 36 cells" -- "$frmini" export "${solns[-1]}" one.vtu
[ -s one.vtu ] || { echo "FAIL: one.vtu missing"; exit 1; }
bash "$expect" 0 "series.pvd: 2 data sets" -- "$frmini" export "${solns[@]}" series.pvd --divisor 2
for s in "${solns[@]}"; do
  f="series-$(basename "${s%.h5}").vtu"
  [ -s "$f" ] || { echo "FAIL: $f missing"; exit 1; }
  grep -q "file=\"$f\"" series.pvd || { echo "FAIL: series.pvd does not list $f"; exit 1; }
done
# Exported from another directory: the case's mesh is found beside the solution.
(cd out && bash "$expect" 0 "cells" -- "$frmini" export "$(basename "${solns[-1]}")" ../two.vtu)
bash "$expect" 2 "no boundary 'wall'" --absent bad.vtu -- \
  "$frmini" export "${solns[-1]}" bad.vtu --boundary wall

if "$frmini" mesh box-quad --n 3 --out other.msh >/dev/null 2>&1; then
  "$frmini" import other.msh other.h5 >/dev/null
  bash "$expect" 2 "solution is for mesh .*other.h5" --absent bad.vtu -- \
    "$frmini" export "${solns[-1]}" bad.vtu --mesh other.h5
  # A mixed 3D mesh: hexes, prisms, tets and pyramids in one file (its own folder: the
  # writer's file names are the same).
  mkdir mixed
  sed -e 's/generator = "box-quad"/generator = "box-mixed3d"/' -e 's/^n = 6/n = 2/' \
      small-vortex.toml >mixed/mixed.toml
  (cd mixed && "$frmini" run mixed.toml --steps 1 --quiet >/dev/null)
  m=(mixed/out/s-*.h5)
  bash "$expect" 0 "mixed.vtu: [0-9]+ cells" -- "$frmini" export "${m[-1]}" mixed.vtu --order 2
fi
echo "ok"
