# Sourced by tests/cli scripts: a work folder of their own (the current folder from here on,
# removed at exit), one tuning cache so every run picks the same kernels, and a failure
# counter with its reporter.
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
cd "$work" || exit 1
export FRMINI_CACHE_DIR="$work/cache"
fails=0
fail() { echo "FAIL: $*"; fails=$((fails + 1)); }
