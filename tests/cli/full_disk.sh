#!/usr/bin/env bash
# A full disk and a file-size limit, injected for real (docs/reliability.md): a solution file,
# a history row and an export that cannot be written end the run with exit 2 and one line
# naming the file; every file written before stays whole and readable, the histories keep
# their whole rows, and `frmini restart` from the last good file ends where an uninterrupted
# run ends, bit for bit.
# Part 1 needs a small tmpfs (root and mount); without it, it says "skipped: ..." and parts 2
# and 3 (ulimit -f: EFBIG instead of ENOSPC, the same code paths) still run.
# usage: full_disk.sh FRMINI CASE.toml
set -u
frmini=$(realpath "$1") base=$(realpath "$2")
work=$(mktemp -d)
disk=$work/disk
cleanup() { umount "$disk" 2>/dev/null; rm -rf "$work"; }
trap cleanup EXIT
cd "$work"
fails=0
fail() { echo "FAIL: $*"; fails=$((fails + 1)); }
export FRMINI_CACHE_DIR="$work/cache"  # one tuning cache: every run picks the same kernels

# whole_rows CSV: every line has the header's number of fields, the last ends in a newline.
whole_rows() {
  [ -s "$1" ] || return 1
  [ "$(tail -c 1 "$1" | od -An -c | tr -d ' ')" = '\n' ] || return 1
  awk -F, 'NR == 1 { n = NF } NF != n { exit 1 }' "$1"
}
# one_error: stderr is exactly one "frmini: error:" line matching $1.
one_error() {
  [ "$(wc -l <err.txt)" = 1 ] && grep -qE "^frmini: error: .*$1" err.txt
}

cp "$base" case.toml
printf '\n[plugins.integrals]\nnsteps = 1\nfile = "out/integrals.csv"\nflushsteps = 1\n' >>case.toml

echo "1. a full disk (a 150 KiB tmpfs): solution files of 35 KiB, the fourth does not fit"
mkdir -p "$disk"
if mount -t tmpfs -o size=150k tmpfs "$disk" 2>/dev/null; then
  ( cd "$disk" && "$frmini" run "$work/case.toml" --quiet >"$work/out.txt" 2>"$work/err.txt" )
  st=$?
  [ "$st" = 2 ] || fail "exit status $st, expected 2"
  one_error "out/[a-z0-9.-]+: .*(No space left on device)" || fail "not one line naming the file and the cause: $(cat err.txt)"
  ls "$disk/out" | grep -q 'tmp-' && fail "a temporary was left: $(ls "$disk/out")"
  n=0
  for f in "$disk"/out/*.h5; do
    h5dump -H "$f" >/dev/null 2>&1 || fail "$f does not read back"
    n=$((n + 1))
  done
  [ "$n" -ge 2 ] || fail "expected at least two good solution files, found $n"
  whole_rows "$disk/out/integrals.csv" || fail "the integrals history is not whole rows"
  # Continue from the last good file on a disk with room; the end equals an uninterrupted run.
  cp -r "$disk/out" resumed
  umount "$disk"
  last=$(ls resumed/*.h5 | sort -V | tail -1)
  mkdir -p a b && cp case.toml a/ && cp case.toml b/ && cp -r resumed b/out
  ( cd a && "$frmini" run case.toml --quiet >/dev/null 2>&1 ) || fail "the uninterrupted run failed"
  before=$(cd b/out && md5sum ./*.h5)
  ( cd b && "$frmini" restart case.toml "out/$(basename "$last")" --quiet >/dev/null 2>err.txt ) ||
    fail "restart from $(basename "$last") failed: $(cat b/err.txt)"
  # The restart numbers its files as the uninterrupted run (vortex-{n}): the earlier ones stay.
  echo "$before" | (cd b/out && md5sum -c --quiet) || fail "the restart changed a file written before it"
  final=$(ls a/out/*.h5 | sort -V | tail -1)
  h5diff "$final" "b/out/$(basename "$final")" /soln /soln >/dev/null ||
    fail "the restarted run's $(basename "$final") differs from the uninterrupted run's"
  whole_rows b/out/integrals.csv || fail "the continued history is not whole rows"
  echo "1b. a checkpoint (SIGTERM) on a disk with no room left for it"
  mount -t tmpfs -o size=150k tmpfs "$disk"
  sed -E -e 's|^tend = .*|tend = 1e9|' -e 's|^dt-out = .*|dt-out = 1e8|' -e '/^\[plugins.integrals\]/,$d' case.toml >long.toml
  head -c 100000 /dev/zero >"$disk/filler"
  ( cd "$disk" && exec "$frmini" run "$work/long.toml" --quiet >"$work/out.txt" 2>"$work/err.txt" ) &
  pid=$!
  for _ in $(seq 100); do [ -f "$disk/out/vortex-0.h5" ] && break; sleep 0.1; done
  sleep 0.5
  kill -TERM "$pid"
  wait "$pid"
  st=$?
  [ "$st" = 2 ] || fail "checkpoint: exit status $st, expected 2"
  one_error "out/long-checkpoint-[0-9]+\.h5: .*(No space left on device)" || fail "checkpoint message: $(cat err.txt)"
  h5dump -H "$disk/out/vortex-0.h5" >/dev/null 2>&1 || fail "checkpoint: the earlier solution file does not read back"
  ls "$disk/out" | grep -q 'tmp-' && fail "checkpoint: a temporary was left: $(ls "$disk/out")"
  umount "$disk"
else
  echo "skipped: part 1 needs a tmpfs mount (root); parts 2 and 3 use a file-size limit"
fi

echo "2. a history row that cannot be written (ulimit -f 16: a 16 KiB file-size limit)"
sed '/^\[plugins.writer\]/,/^$/d' case.toml >nowriter.toml
rm -rf out
( ulimit -f 16; "$frmini" run nowriter.toml --quiet >out.txt 2>err.txt )
st=$?
[ "$st" = 2 ] || fail "exit status $st, expected 2"
one_error "plugins.integrals.*cannot write out/integrals.csv \(File too large\)" || fail "message: $(cat err.txt)"
whole_rows out/integrals.csv || fail "the history kept a cut row"
[ "$(wc -l <out/integrals.csv)" -gt 5 ] || fail "the rows flushed before are gone"

echo "3. an export and a solution file that cannot be written (ulimit -f 20)"
rm -rf out
printf '\n[plugins.export]\ndt-out = 1.0\nbasedir = "out"\nbasename = "v-{n}"\n' | cat nowriter.toml - >export.toml
if "$frmini" run export.toml --steps 0 --quiet >/dev/null 2>&1 || ! grep -q "built without VTK" <("$frmini" run export.toml --steps 0 2>&1); then
  rm -rf out
  ( ulimit -f 20; "$frmini" run export.toml --quiet >out.txt 2>err.txt )
  st=$?
  [ "$st" = 2 ] || fail "export: exit status $st, expected 2"
  one_error "out/v-[0-9]+\.vtu: cannot write the VTK file" || fail "export message: $(cat err.txt)"
  ls out | grep -q 'tmp-' && fail "export: a temporary was left: $(ls out)"
else
  echo "skipped: part 3's export (built without VTK)"
fi
rm -rf out
( ulimit -f 20; "$frmini" run case.toml --quiet >out.txt 2>err.txt )
st=$?
[ "$st" = 2 ] || fail "solution: exit status $st, expected 2"
one_error "out/vortex-0\.h5: .*File too large" || fail "solution message: $(cat err.txt)"
ls out | grep -q '\.h5' && fail "a solution file was left: $(ls out)"

if [ "$fails" = 0 ]; then echo "ok: every write that failed was said, and nothing written before was lost"; else echo "$fails check(s) failed"; exit 1; fi
