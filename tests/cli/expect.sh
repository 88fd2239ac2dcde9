#!/usr/bin/env bash
# usage: expect.sh STATUS REGEX [--absent PATH] -- COMMAND ARGS...
# Runs COMMAND and checks:
#  - its exit status is STATUS;
#  - for STATUS 2 (user error): stderr is exactly one line, starting "frmini: error:" and
#    matching REGEX (extended regex);
#  - otherwise: stdout+stderr match REGEX;
#  - PATH (if given) does not exist afterwards.
set -u
want=$1 regex=$2; shift 2
absent=""
if [ "${1:-}" = "--absent" ]; then absent=$2; shift 2; fi
[ "${1:-}" = "--" ] && shift
out=$(mktemp) err=$(mktemp)
trap 'rm -f "$out" "$err"' EXIT
"$@" >"$out" 2>"$err"
got=$?
fail() { echo "FAIL: $*"; echo "--- command: $*"; echo "--- stdout:"; head -c 4000 "$out"; echo "--- stderr:"; head -c 4000 "$err"; exit 1; }
[ "$got" = "$want" ] || fail "exit status $got, expected $want"
if [ "$want" = 2 ]; then
  n=$(wc -l <"$err")
  [ "$n" = 1 ] || fail "stderr has $n lines, expected exactly one"
  grep -qE '^frmini: error: ' "$err" || fail "stderr does not start with 'frmini: error: '"
  grep -qE -- "$regex" "$err" || fail "stderr does not match /$regex/"
else
  cat "$out" "$err" | grep -qE -- "$regex" || fail "output does not match /$regex/"
fi
if [ -n "$absent" ] && [ -e "$absent" ]; then fail "$absent exists but should not"; fi
echo "ok: status $got"
