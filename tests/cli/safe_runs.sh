#!/usr/bin/env bash
# Runs that fail safely (docs/reliability.md): each case is run for real and checked for its
# exit status, its message and the files it leaves.
# usage: safe_runs.sh FRMINI CASE.toml
set -u
frmini=$(realpath "$1") base=$(realpath "$2")
here=$(dirname "$(realpath "$0")")
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
cd "$work"
fails=0
fail() { echo "FAIL: $*"; fails=$((fails + 1)); }
# edit KEY VALUE: a copy of the case with its `KEY = ...` lines replaced.
edit() { sed -E "s|^$1 = .*|$1 = $2|" "$base"; }
run() { rm -rf out; "$frmini" run "$@" >out.txt 2>err.txt; echo $?; }

echo "1. dt = 0.5 (CFL ~ 2x rk4's limit): the writer refuses the diverged state, exit 3"
edit dt 0.5 >blowup.toml
st=$(run blowup.toml --quiet)
[ "$st" = 3 ] || fail "exit status $st, expected 3"
grep -q "the solution diverged at step" err.txt || fail "no divergence message: $(cat err.txt)"
grep -qE "in quad element [0-9]+, solution point [0-9]+ at \(" err.txt || fail "no element/position"
grep -q "last good file: out/vortex-0.h5" err.txt || fail "last good file not named"
grep -q "the run FAILED" out.txt || fail "the report does not say the run failed"
[ -f out/vortex-0.h5 ] || fail "the last good file is gone"
"$frmini" export out/vortex-0.h5 good.vtu >/dev/null 2>&1 || fail "the last good file does not read back"
ls out | grep -q "vortex-1" && fail "a diverged file was written: $(ls out)"
ls out | grep -q "tmp" && fail "a temporary file was left: $(ls out)"

echo "2. the same without a writer: nancheck (on by default) stops it, exit 3"
edit dt 0.5 | sed -e 's/^tend = .*/tend = 20.0/' -e '/^\[plugins.writer\]/,$d' >blowup2.toml
st=$(run blowup2.toml --quiet)
[ "$st" = 3 ] || fail "exit status $st, expected 3"
grep -q "nancheck: the solution diverged at step 20," err.txt || fail "nancheck did not stop it at its default 20 steps: $(cat err.txt)"
grep -q "last good file: none written" err.txt || fail "no 'none written'"
printf '[plugins.nancheck]\nnsteps = 1\n' >>blowup2.toml
st=$(run blowup2.toml --quiet)
[ "$st" = 3 ] || fail "nsteps = 1: exit status $st, expected 3"
step=$(sed -nE 's/.*diverged at step ([0-9]+),.*/\1/p' err.txt)
[ -n "$step" ] && [ "$step" -lt 20 ] || fail "nsteps = 1 did not check every step (step '$step')"
edit dt 0.5 | sed '/^\[plugins.writer\]/,$d' >blowup3.toml  # 8 steps: fewer than nsteps
st=$(run blowup3.toml --quiet)
[ "$st" = 3 ] || fail "a run ending between checks: exit status $st, expected 3"
grep -q "nancheck: the solution diverged at step 8," err.txt || fail "not checked at the end: $(cat err.txt)"

echo "3. rho = -1 in [ics]: refused before the first step, exit 2, one line"
edit rho '"-1"' >negrho.toml
st=$(run negrho.toml --quiet)
[ "$st" = 2 ] || fail "exit status $st, expected 2"
[ "$(wc -l <err.txt)" = 1 ] || fail "not one line: $(cat err.txt)"
grep -q "negrho.toml: \[ics\] gives a non-physical state.*rho = -1, p = .* at (" err.txt || fail "message: $(cat err.txt)"
ls out 2>/dev/null | grep -q . && fail "files written by a refused run: $(ls out)"

echo "4. p < 0 from [ics] (E below the kinetic energy): refused, exit 2"
edit p '"-0.1"' >negp.toml
st=$(run negp.toml --quiet)
[ "$st" = 2 ] || fail "exit status $st, expected 2"
grep -q "non-physical state.*p = -" err.txt || fail "message: $(cat err.txt)"

echo "5. an output folder that cannot be created: refused before the first step, exit 2"
touch afile
sed -E 's|^basedir = .*|basedir = "afile/out"|' "$base" >badfolder.toml
st=$(run badfolder.toml --quiet)
[ "$st" = 2 ] || fail "exit status $st, expected 2"
grep -q "badfolder.toml:[0-9]*: \[plugins.writer\] basedir: cannot create the output folder 'afile/out'" err.txt || fail "message: $(cat err.txt)"

echo "6. order = 0: the same one-line error as order = 99"
edit order 0 >order0.toml
st=$(run order0.toml --quiet)
[ "$st" = 2 ] || fail "exit status $st, expected 2"
grep -q "order: 0 is out of range \[1, 8\]" err.txt || fail "message: $(cat err.txt)"

echo "7. a far field with p < 0 (cylinder2d-re100 edited): refused when the case is read, exit 2"
cyl=$here/../../configs/cylinder2d-re100.toml
awk '/^\[bcs.farfield\]/{f=1} f && /^p = /{print "p = \"-Pinf\""; f=0; next} {print}' "$cyl" >badbc.toml
st=$(run badbc.toml --quiet)
[ "$st" = 2 ] || fail "exit status $st, expected 2"
grep -q "badbc.toml:[0-9]*: \[bcs.farfield\] p: p = -Pinf = -17.857143 is not a physical boundary state" err.txt || fail "message: $(cat err.txt)"

echo "8. rk45 + PI with tolerances that accept anything: the trial steps overflow, exit 3"
sed -E -e 's|^scheme = .*|scheme = "rk45"\ncontroller = "pi"\natol = 1e6\nrtol = 1e6|' -e 's|^dt = .*|dt = 0.5|' \
  -e '/^\[plugins.writer\]/,$d' "$base" >rk45.toml
printf '[plugins.nancheck]\nnsteps = 1000000\n' >>rk45.toml
st=$(run rk45.toml --quiet)
[ "$st" = 3 ] || fail "exit status $st, expected 3"
grep -qE "time integration: (every trial step from t = .* holds NaN or infinite values|the step size fell to)" err.txt ||
  fail "message: $(cat err.txt)"
grep -q "the run FAILED" out.txt || fail "the report does not say the run failed"

echo "9. tavg and export folders that cannot be created: refused before the first step, exit 2"
printf '\n[plugins.tavg]\nnsteps = 1\ntstart = 0.0\ndt-out = 1.0\nbasedir = "afile/tavg"\nbasename = "m-{t}"\n' |
  cat "$base" - >badtavg.toml
st=$(run badtavg.toml --quiet)
[ "$st" = 2 ] || fail "tavg: exit status $st, expected 2"
grep -q "badtavg.toml:[0-9]*: \[plugins.tavg\] basedir: cannot create the output folder 'afile/tavg'" err.txt ||
  fail "tavg message: $(cat err.txt)"
grep -q "step" out.txt && fail "tavg: steps were taken: $(cat out.txt)"
if "$frmini" export --help >/dev/null 2>&1 && ! grep -q "built without VTK" <("$frmini" export a.h5 b.vtu 2>&1); then
  printf '\n[plugins.export]\ndt-out = 1.0\nbasedir = "afile/vtk"\nbasename = "v-{n}"\n' |
    cat "$base" - >badexport.toml
  st=$(run badexport.toml --quiet)
  [ "$st" = 2 ] || fail "export: exit status $st, expected 2"
  grep -q "badexport.toml:[0-9]*: \[plugins.export\] basedir: cannot create the output folder 'afile/vtk'" err.txt ||
    fail "export message: $(cat err.txt)"
else
  echo "skipped: the export plugin's folder (built without VTK)"
fi

if [ "$fails" = 0 ]; then echo "ok: every case ended as described"; else echo "$fails check(s) failed"; exit 1; fi
