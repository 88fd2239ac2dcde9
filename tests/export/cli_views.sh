#!/usr/bin/env bash
# usage: cli_views.sh FRMINI EXPECT_SH CONFIGS_DIR CASES_DIR
# The README's 3D demo (configs/cylinder3d-demo.toml) for 3 steps: the export plugin's files
# at its start and end (volumes, isosurfaces with polygons, the wall, pictures, .pvd
# collections); then frmini export --isosurface/--png on its solution, the mistakes that must
# exit 2 with one line and leave nothing, and a 2D picture. Pictures need X: frmini starts
# Xvfb itself when DISPLAY is unset.
set -eu
frmini=$1 expect=$2 configs=$3 cases=$4
dir=$(mktemp -d)
trap 'rm -rf "$dir"' EXIT
cd "$dir"
fail() { echo "FAIL: $*"; exit 1; }
polys() { grep -o 'NumberOfPolys="[0-9]*"' "$1" | head -1 | tr -dc 0-9; }
is_png() { [ "$(head -c 8 "$1" | od -An -tx1 | tr -d ' \n')" = 89504e470d0a1a0a ] && [ "$(stat -c %s "$1")" -gt 20000 ]; }

"$frmini" run "$configs/cylinder3d-demo.toml" --steps 3 --quiet >run.log 2>&1 || { cat run.log; fail "demo run"; }
out=cylinder3d-demo-out
for n in 0 1; do
  for f in cyl-$n.vtu cyl-$n-iso.vtp cyl-$n-cylinder.vtp cyl-$n.png; do
    [ -s "$out/$f" ] || fail "$out/$f missing"
  done
  [ "$(polys "$out/cyl-$n-iso.vtp")" -gt 1000 ] || fail "cyl-$n-iso.vtp has no polygons"
  is_png "$out/cyl-$n.png" || fail "cyl-$n.png is not a picture"
  grep -q "file=\"cyl-$n.vtu\"" "$out/cyl.pvd" || fail "cyl.pvd does not list cyl-$n.vtu"
  grep -q "file=\"cyl-$n-iso.vtp\"" "$out/cyl-iso.pvd" || fail "cyl-iso.pvd does not list cyl-$n-iso.vtp"
  grep -q "file=\"cyl-$n-cylinder.vtp\"" "$out/cyl-cylinder.pvd" || fail "cyl-cylinder.pvd"
done
grep -q "mean Cd" run.log || fail "no force summary in the report"
soln=$(ls $out/cyl-*.h5 | tail -1)

bash "$expect" 0 "iso.vtp: [0-9]+ polygons on 2 isosurface" -- "$frmini" export "$soln" \
  --isosurface qcrit=1 --isosurface vorticity:z=2 --color-by mach --out iso.vtp --png iso.png
[ "$(polys iso.vtp)" -gt 1000 ] || fail "iso.vtp has no polygons"
is_png iso.png || fail "iso.png is not a picture"
bash "$expect" 2 "no point field 'nosuch'" --absent bad.vtp -- \
  "$frmini" export "$soln" --isosurface nosuch=1 --out bad.vtp
bash "$expect" 2 "value outside the range of qcrit, \[" --absent bad.vtp -- \
  "$frmini" export "$soln" --isosurface qcrit=1e9 --out bad.vtp
bash "$expect" 2 "a 3D picture shows isosurfaces" --absent bad.png -- \
  "$frmini" export "$soln" --png bad.png
bash "$expect" 2 "needs --out iso.vtp or --png" -- "$frmini" export "$soln" --isosurface qcrit=1

# 2D: a colour map of vorticity (the vortex case has no wall: no body drawn).
cp "$cases/small-vortex.toml" .
"$frmini" run small-vortex.toml --steps 1 --quiet >/dev/null
s2=$(ls out/s-*.h5 | tail -1)
bash "$expect" 0 "map.png: picture" -- "$frmini" export "$s2" --png map.png --size 640x480
is_png map.png || fail "map.png is not a picture"
# The plugin's mistakes are named by file and line before the first step.
sed '/^isosurfaces = /d' "$configs/cylinder3d-demo.toml" >noiso.toml
bash "$expect" 2 "noiso.toml:[0-9]+: .*a 3D picture shows isosurfaces" -- "$frmini" run noiso.toml --steps 1
sed 's/^color-by = "mach"/fields = "rho,nosuch"/' "$configs/cylinder3d-demo.toml" >badfield.toml
bash "$expect" 2 "badfield.toml:[0-9]+: .*unknown field 'nosuch'" -- "$frmini" run badfield.toml --steps 1
echo "ok"
