#!/usr/bin/env bash
# Signals and kills sent to real runs (docs/reliability.md):
#  1. SIGTERM: the run finishes its step, writes a checkpoint, names it and exits 143; a
#     restart from it reaches the same state, bit for bit, as a run never interrupted.
#  2. SIGTERM through `timeout` (which signals the run and then its process group: two at
#     once, as batch schedulers send them too): one request, so the run still writes its
#     checkpoint and names it (status 143); SIGINT twice at once, the same (status 130), and
#     every file under a solution's name reads. (A repeat half a second later ends the run at
#     once: test_signals, which can wait inside one step.)
#  3. kill -9 at random moments of runs writing a solution every step: no file under a
#     solution's name is ever damaged, and the next run removes the temporaries left.
# usage: signals.sh FRMINI CASE.toml
set -u
frmini=$(realpath "$1") base=$(realpath "$2")
. "$(dirname "$(realpath "$0")")/workdir.sh"
readable() { h5dump -H "$1" >/dev/null 2>&1; }
# Waits until the run has written its initial solution (its signal handlers come next), then
# half a second more: a loaded machine (CI runs tests two at a time) may take seconds to get
# there, and a signal before the handlers ends the run without its checkpoint.
started() {
  for _ in $(seq 1 600); do [ -e out/s-0.0000.h5 ] && break; sleep 0.05; done
  sleep 0.5
}

# A long run, outputs named by time (the same names whichever run writes them).
sed -e 's/^tend = .*/tend = 1000.0/' -e 's/^basename = .*/basename = "s-{t}"/' \
    -e 's/^dt-out = .*/dt-out = 100.0/' "$base" >case.toml
"$frmini" run case.toml --steps 2 --quiet >/dev/null 2>&1  # compile and tune once, untimed
rm -rf out

echo "1. SIGTERM to a running run"
"$frmini" run case.toml --quiet >out.txt 2>err.txt &
pid=$!
started
kill -TERM $pid
wait $pid
st=$?
[ "$st" = 143 ] || fail "exit status $st, expected 143 (128 + SIGTERM)"
ck=$(sed -nE 's/.*checkpoint (out\/case-checkpoint-[0-9]+\.h5).*/\1/p' err.txt | head -1)
[ -n "$ck" ] && [ -f "$ck" ] || fail "no checkpoint named, or it is missing: $(cat err.txt)"
grep -q "the run was interrupted" out.txt || fail "the report does not say the run was interrupted"
if [ -n "$ck" ] && [ -f "$ck" ]; then
  k=$(echo "$ck" | sed -E 's/.*-([0-9]+)\.h5/\1/')
  mkdir -p a && cp case.toml a/
  ( cd a && "$frmini" run case.toml --steps $((k + 7)) --quiet >/dev/null 2>&1 )
  "$frmini" restart case.toml "$ck" --steps 7 --quiet >/dev/null 2>&1 || fail "restart from $ck failed"
  final=$(ls a/out | grep '^s-' | sort -t- -k2 -g | tail -1)
  if [ -f "out/$final" ] && h5diff "a/out/$final" "out/$final" /soln /soln >/dev/null; then
    echo "   checkpoint at step $k + restart 7 steps == $((k + 7)) steps, bit for bit"
  else
    fail "restart from the checkpoint differs from the run never interrupted ($final)"
  fi
fi

echo "2. SIGTERM twice at once (timeout), SIGINT twice at once"
rm -rf out
timeout -s TERM 1000 "$frmini" run case.toml --quiet >out.txt 2>err.txt &
pid=$!
started
kill -TERM $pid  # timeout passes it on to the run, and to its process group
wait $pid
st=$?
[ "$st" = 143 ] || fail "through timeout: exit status $st, expected 143 (128 + SIGTERM): $(cat err.txt)"
grep -qE 'stopped by SIGTERM after step [0-9]+; checkpoint out/case-checkpoint-[0-9]+\.h5' err.txt ||
  fail "through timeout: no checkpoint named: $(cat err.txt)"
rm -rf out
"$frmini" run case.toml --quiet >out.txt 2>err.txt &
pid=$!
started
kill -INT $pid; kill -INT $pid
wait $pid
st=$?
[ "$st" = 130 ] || fail "exit status $st, expected 130 (128 + SIGINT)"
grep -q 'stopped by SIGINT after step' err.txt || fail "SIGINT twice at once: no checkpoint named: $(cat err.txt)"
for f in out/*.h5; do [ -e "$f" ] && { readable "$f" || fail "$f is damaged"; }; done

echo "3. kill -9 during writes"
# A 3 MB solution file written every step under one name (each write replaces the last by
# rename): most of a step's time is the write, and the file is always there to be damaged.
sed -e 's/^dt-out = .*/dt-out = 0.002/' -e 's/^basename = .*/basename = "s"/' \
    -e 's/^n = .*/n = 60/' -e 's/^order = .*/order = 4/' -e 's/^dt = .*/dt = 0.002/' case.toml >write.toml
"$frmini" run write.toml --steps 1 --quiet >/dev/null 2>&1  # compiled before the kills
rm -rf out
# Each kill lands inside a write: once the run has written its first file, the test waits
# for the next write's temporary to appear and kills at once or a millisecond or two later
# (a write of this file takes a few milliseconds), at a different point each time.
hits=0
for i in 1 2 3 4 5 6; do
  "$frmini" run write.toml --quiet >/dev/null 2>&1 &
  pid=$!
  for _ in $(seq 1 3000); do [ -e out/s.h5 ] && break; sleep 0.01; done
  tmp=out/s.h5.tmp-$pid
  n=0
  while [ ! -e "$tmp" ] && [ $n -lt 2000000 ]; do n=$((n + 1)); done
  [ $((i % 3)) = 0 ] || sleep "0.00$((i % 3))"
  kill -9 $pid
  wait $pid 2>/dev/null
  [ -e "$tmp" ] && hits=$((hits + 1))
  readable out/s.h5 || fail "kill $i: out/s.h5 is damaged"
done
[ "$hits" -ge 1 ] || fail "no kill landed inside a write (the test proved nothing)"
echo "   out/s.h5 intact after 6 kills, $hits of them inside a write (a temporary left)"
"$frmini" run write.toml --steps 1 --quiet >/dev/null 2>&1 || fail "the run after the kills failed"
ls out | grep -q '\.tmp-' && fail "temporaries of killed runs were not removed: $(ls out | grep tmp)"

if [ "$fails" = 0 ]; then echo "ok: signals and kills end as described"; else echo "$fails check(s) failed"; exit 1; fi
