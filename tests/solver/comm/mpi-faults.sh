#!/bin/bash
# Faults in one rank of a distributed run (mpirun -np 3), each of which must end the whole job
# within a few seconds, with one message that names the rank and the cause, the right exit
# status, no rank left running, and every file written before intact:
#   1. a user error in one rank's part only (a non-physical initial state in one element): 2
#   2. a blow-up (a pressure spike of 1e307 in one element: the flux overflows): 3
#   3. SIGTERM to one rank: every rank stops after the same step, a checkpoint is written
#      and `frmini restart` continues from it: 143
#   4. kill -9 of one rank: mpirun ends the others: 137; the last solution file restarts
#   5. kill -9 of mpirun itself: no rank left running (OpenMPI's ranks lose their daemon and
#      end; frmini's also get SIGTERM from the kernel when their parent goes, which now and
#      then wins the race and writes a checkpoint); the newest file restarts
# usage: mpi-faults.sh FRMINI MPIEXEC CASE   (CASE: the Euler vortex of mpi-run.sh)
set -u
frmini=$(realpath "$1") mpiexec=$2 case=$(realpath "$3")
export OMP_NUM_THREADS=1 OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
work=$(mktemp -d)
trap 'pkill -f "$work" 2>/dev/null; rm -rf "$work"' EXIT
cd "$work"
fail=0
bad() { echo "FAILED: $*"; fail=1; }
# The ranks of this test's jobs (not mpirun or timeout, whose command lines name the case too).
ranks() {
  for p in $(pgrep -f "frmini run $work"); do
    [ "$(cat /proc/"$p"/comm 2>/dev/null)" = frmini ] && echo "$p"
  done
}
left() { ranks | wc -l; }

# The vortex case with changed initial state or end time: sed expressions on the case file.
variant() {  # name sed-expr...
  local name=$1; shift
  local args=()
  for e in "$@"; do args+=(-e "$e"); done
  sed "${args[@]}" "$case" > "$work/$name.toml"
}
variant userr 's|^p = .*|p = "(1 - 2*exp(-(x*x + y*y)))/(gamma*M^2)"|'
variant blowup 's|^p = .*|p = "1/(gamma*M^2) + 1e307*exp(-((x-10)^2 + (y-10)^2)/0.01)"|'
printf '\n[plugins.nancheck]\nnsteps = 1\n' >> blowup.toml
variant long 's|^tend = .*|tend = 1000.0|'

# Runs the case to its end or its fault; checks status, the one message and the clean-up.
expect() {  # name status message-regex
  local name=$1 want=$2 re=$3
  local t0=$SECONDS
  timeout 60 "$mpiexec" -np 3 --oversubscribe "$frmini" run "$work/$name.toml" --quiet \
    > "$name.out" 2> "$name.err"
  local rc=$? n
  n=$(grep -c "^frmini: error: " "$name.err")
  [ $rc = "$want" ] || bad "$name: exit status $rc, expected $want"
  [ "$n" = 1 ] || bad "$name: $n error lines, expected one"
  grep -Eq "$re" "$name.err" || bad "$name: no message matching '$re'"
  [ "$(left)" = 0 ] || bad "$name: ranks left running"
  echo "$name: exit $rc after $((SECONDS - t0)) s: $(grep "^frmini: error: " "$name.err" | cut -c1-200)"
  [ $fail = 0 ] || { cat "$name.out" "$name.err"; }
}
expect userr 2 "userr.toml: \[ics\] gives a non-physical state .* quad element [0-9]+ \(rank [0-2] of 3\)"
expect blowup 3 "nancheck: the solution diverged at step 1, .* quad element [0-9]+ \(rank [0-2] of 3\)"

# A long run, then a signal to its second rank (or to mpirun) once it has written a few files.
signal_one_rank() {  # signal name
  local sig=$1 name=$2
  rm -rf out
  timeout 60 "$mpiexec" -np 3 --oversubscribe "$frmini" run "$work/long.toml" --quiet \
    > "$name.out" 2> "$name.err" &
  local job=$!
  for _ in $(seq 100); do [ -f out/v-1.0000.h5 ] && break; sleep 0.1; done
  local victim
  victim=$(ranks | sort -n | sed -n 2p)
  # The launcher (mpirun, mpiexec or orterun by name): the ranks' parent.
  [ "$name" = mpirun ] && [ -n "$victim" ] && victim=$(ps -o ppid= -p "$victim" | tr -d ' ')
  [ -n "$victim" ] || { bad "$name: nothing to signal"; return; }
  local t0=$SECONDS
  kill -"$sig" "$victim"
  wait $job
  local rc=$?
  # Killing mpirun ends the job's command at once; the ranks stop on their own after that.
  for _ in $(seq 100); do [ "$(left)" = 0 ] && break; sleep 0.1; done
  local took=$((SECONDS - t0))
  [ $took -le 10 ] || bad "$name: the job took $took s to end"
  [ "$(left)" = 0 ] || bad "$name: ranks left running"
  echo "$name: exit $rc after $took s"
  echo $rc > "$name.rc"
}

# The file a stopped job left (a checkpoint, or its newest solution) must restart.
restarts() {  # name file
  [ -n "$2" ] || { bad "$1: no checkpoint or solution file left"; return; }
  if "$frmini" restart "$work/long.toml" "$2" --steps 3 --quiet > "$1-restart.out" 2>&1; then
    echo "$1: restart from $2: ok"
  else bad "$1: restart from $2 failed"; cat "$1-restart.out"; fi
}

signal_one_rank TERM sigterm
[ "$(cat sigterm.rc)" = 143 ] || bad "sigterm: exit status $(cat sigterm.rc), expected 143"
grep -Eq "^frmini: stopped by SIGTERM \(to rank [0-2] of 3\) after step [0-9]+; checkpoint out/long-checkpoint-[0-9]+\.h5" sigterm.err ||
  bad "sigterm: no message naming the rank and the checkpoint"
restarts sigterm "$(ls out/long-checkpoint-*.h5 2>/dev/null | head -1)"

signal_one_rank KILL sigkill
[ "$(cat sigkill.rc)" = 137 ] || bad "sigkill: exit status $(cat sigkill.rc), expected 137"
ls out | grep -v '\.h5$\|\.csv$' | grep . && bad "sigkill: a temporary file was left in out/"
restarts sigkill "$(ls -t out/v-*.h5 | head -1)"

signal_one_rank KILL mpirun
restarts mpirun "$(ls -t out/*.h5 2>/dev/null | head -1)"

[ $fail = 0 ] && echo "mpi faults: all ended cleanly"
exit $fail
