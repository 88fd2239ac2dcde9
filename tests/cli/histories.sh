#!/usr/bin/env bash
# Histories written as the run goes and continued by restarts, and status lines in batch logs
# (docs/reliability.md), on a coarse 2D cylinder (configs/cylinder2d-re100.toml at
# scale 0.25, order 1: about 6000 steps/s on 2 cores).
#  kill     kill -9 a run after at least two flushes (flushsteps = 5): every history reads as
#           CSV, holds whole rows only, every step up to the last flush, and matches a run
#           never killed row by row.
#  restart  run to t = 0.2; restart from the t = 0.1 file to 0.3: the forces and integrals
#           histories hold each step once and equal an uninterrupted run to 0.3; restarting
#           again from t = 0.1 gives the same files; a history with another header stops the
#           restart (status 2, one line naming it) and is left as it was.
#  log      stderr not a terminal, no --quiet: status lines every log-interval on stdout.
# usage: histories.sh FRMINI CASE.toml kill|restart|log
set -u
frmini=$(realpath "$1") base=$(realpath "$2") what=$3
. "$(dirname "$(realpath "$0")")/workdir.sh"
out=cylinder2d-out
F=$out/forces-cylinder.csv I=$out/integrals.csv T=$out/timings.csv

# case.toml from the config: small and fast; $1 = tend, then extra sed expressions.
make_case() {
  local tend=$1; shift
  sed -e 's/^scale = .*/scale = 0.25/' -e 's/^order = .*/order = 1/' \
      -e "s/^tend = .*/tend = $tend/" -e 's/^matmul = .*/matmul = "generated"/' "$@" "$base" >case.toml
}
# A history reads as CSV: every line has the header's number of fields and ends in a newline,
# and the steps (first column) strictly increase.
readable() {
  [ -s "$1" ] && [ "$(tail -c 1 "$1" | od -An -c | tr -d ' ')" = '\n' ] || return 1
  awk -F, 'NR == 1 { n = NF; next } NF != n || $1 !~ /^[0-9]+$/ || (NR > 2 && $1 <= last) { exit 1 }
           { last = $1 }' "$1"
}

case $what in
kill)
  make_case 1000.0 -e 's/^dt-out = .*/dt-out = 1000.0/' -e 's/^nsteps = 20$/nsteps = 1/' \
    -e 's/^nsteps = 50$/nsteps = 1/'
  printf '\n[plugins.progress]\nenabled = false\n' >>case.toml
  # flushsteps = 5 in every history section.
  awk '{ print } /^\[plugins\.(forces\.cylinder|integrals|timing)\]/ { print "flushsteps = 5" }' \
    case.toml >c && mv c case.toml
  "$frmini" run case.toml --steps 2 --quiet >/dev/null 2>&1 || fail "the first run failed"
  rm -rf $out
  "$frmini" run case.toml --quiet >/dev/null 2>&1 &
  pid=$!
  # Two flushes of the forces (steps 5 and 10) are rows 0..10: 12 lines with the header.
  for _ in $(seq 1 3000); do [ "$(wc -l 2>/dev/null <$F || echo 0)" -ge 12 ] && break; sleep 0.01; done
  kill -9 $pid
  wait $pid 2>/dev/null
  for f in $F $I $T; do readable $f || fail "$f does not read as CSV after kill -9: $(tail -2 $f)"; done
  last=$(tail -1 $F | cut -d, -f1)
  [ "$last" -ge 10 ] 2>/dev/null || fail "forces: last step '$last', expected >= 10 (two flushes)"
  # Only flushes write: the last row is a flush's (a multiple of 5) and no step is missing.
  for f in $F $I; do
    n=$(($(wc -l <$f) - 1)) l=$(tail -1 $f | cut -d, -f1)
    [ $((l % 5)) = 0 ] && [ "$n" = $((l + 1)) ] || fail "$f: $n rows to step $l, expected steps 0..$l"
  done
  l=$(tail -1 $T | cut -d, -f1)
  [ $((l % 5)) = 0 ] && [ "$(($(wc -l <$T) - 1))" = "$l" ] || fail "$T: rows do not run 1..$l"
  # The same rows as a run never killed.
  mkdir ref && (cd ref && "$frmini" run ../case.toml --steps "$last" --quiet >/dev/null 2>&1)
  for f in $F $I; do
    cmp -s $f <(head -n $((last + 2)) ref/$f) || fail "$f differs from an uninterrupted run's"
  done
  echo "   killed at step >= $last: forces, integrals, timings whole to step $last"
  # SIGTERM with no periodic flush due: the signal's flush writes every row to the checkpoint.
  sed -i 's/^flushsteps = 5$/flushsteps = 100000000/' case.toml
  rm -rf $out
  "$frmini" run case.toml --quiet >/dev/null 2>err.txt &
  pid=$!
  # The file appears just before the first step (StopSignals is set up then): some steps later.
  for _ in $(seq 1 3000); do [ -e $F ] && break; sleep 0.01; done
  sleep 0.5
  kill -TERM $pid
  wait $pid
  st=$?
  [ "$st" = 143 ] || fail "SIGTERM: exit status $st, expected 143"
  k=$(sed -nE 's/.*checkpoint-([0-9]+)\.h5.*/\1/p' err.txt | head -1)
  for f in $F $I; do
    readable $f && [ "$(tail -1 $f | cut -d, -f1)" = "$k" ] && [ "$(($(wc -l <$f) - 1))" = $((k + 1)) ] ||
      fail "SIGTERM at step $k: $f does not hold steps 0..$k: $(tail -1 $f)"
  done
  echo "   SIGTERM after step $k: forces and integrals whole to step $k" ;;
restart)
  make_case 0.2 -e 's/^dt-out = .*/dt-out = 0.1/' -e 's/^nsteps = 20$/nsteps = 5/' \
    -e 's/^nsteps = 50$/nsteps = 7/'
  mkdir a && sed 's/^tend = .*/tend = 0.3/' case.toml >a/case.toml
  (cd a && "$frmini" run case.toml --quiet >/dev/null 2>&1) || fail "the run to 0.3 failed"
  "$frmini" run case.toml --quiet >/dev/null 2>&1 || fail "the run to 0.2 failed"
  sed -i 's/^tend = .*/tend = 0.3/' case.toml
  for i in 1 2; do
    "$frmini" restart case.toml $out/cyl-0.1000.h5 --quiet >/dev/null 2>err.txt ||
      fail "restart $i failed: $(cat err.txt)"
    for f in $F $I; do
      readable $f || fail "restart $i: $f does not read, or repeats a step"
      cmp -s $f a/$f || { fail "restart $i: $f differs from the uninterrupted run's"; diff $f a/$f | head -5; }
    done
  done
  # Another history under the name: left alone, and the restart stops before its first step.
  echo "step,t,something_else" >$I
  cp $I keep.csv
  "$frmini" restart case.toml $out/cyl-0.1000.h5 --quiet >out.txt 2>err.txt
  st=$?
  [ "$st" = 2 ] || fail "restart over another history: status $st, expected 2"
  [ "$(wc -l <err.txt)" = 1 ] && grep -q "^frmini: error: .*$I holds another history" err.txt ||
    fail "restart over another history: not one line naming it: $(cat err.txt)"
  cmp -s $I keep.csv || fail "the other history was changed"
  # The same for the forces (a plugin started after the integrals): no history is touched.
  cp a/$I $I
  echo "step,t,cd" >$F
  "$frmini" restart case.toml $out/cyl-0.1000.h5 --quiet >out.txt 2>err.txt
  st=$?
  [ "$st" = 2 ] && grep -q "$F holds another history" err.txt || fail "forces: status $st: $(cat err.txt)"
  cmp -s $I a/$I || fail "a restart refused before its first step changed $I"
  echo "   restarts from t = 0.1 to 0.3, twice: forces and integrals equal the run never restarted" ;;
log)
  make_case 1000.0 -e 's/^dt-out = .*/dt-out = 1000.0/'
  printf '\n[plugins.progress]\nlog-interval = 0.3\n' >>case.toml
  "$frmini" run case.toml --steps 2 --quiet >/dev/null 2>&1  # compiled before the timed run
  # About 2 s of steps (a few thousand): several status lines.
  "$frmini" run case.toml --steps 12000 >log.txt 2>err.txt </dev/null || fail "the run failed"
  n=$(grep -cE '^frmini: step [0-9]+  t = .*dt = .*steps/s  wall [0-9:]+  ETA .*  cylinder Cd [-0-9.e+]+ Cl ' log.txt)
  [ "$n" -ge 2 ] || fail "$n status lines in the log, expected 2 or more: $(head -5 log.txt)"
  grep -q $'\r' log.txt err.txt && fail "a progress bar went to the log"
  echo "   $n status lines in the log" ;;
*) echo "usage: histories.sh FRMINI CASE kill|restart|log"; exit 2 ;;
esac
if [ "$fails" = 0 ]; then echo "ok: $what"; else echo "$fails check(s) failed"; exit 1; fi
