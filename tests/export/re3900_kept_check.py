#!/usr/bin/env python3
"""The Re 3900 rows of docs/validation.md against the data kept behind them: tools/re3900-table
recomputes each kept rung's force statistics (mean Cd, rms Cl, St, their intervals) from its
kept forces.csv over the window its stats.csv records and must find the kept values (--strict),
and every row it prints must stand, character for character, in docs/validation.md, so that
neither the kept files nor the page can change without the other.

usage: re3900_kept_check.py TOOLS_DIR DATA_DIR VALIDATION_MD WORKDIR
"""
import os
import shutil
import subprocess
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from checks import failures, truth  # noqa: E402

tools, data, page, work = (os.path.abspath(a) for a in sys.argv[1:5])
shutil.rmtree(work, ignore_errors=True)
os.makedirs(work)
rungs = sorted(d for d in os.listdir(data) if os.path.isfile(os.path.join(data, d, 'stats.csv')))
truth('kept rungs found', bool(rungs), f'({", ".join(rungs)} in {data})')
table = os.path.join(work, 'table.md')
r = subprocess.run([sys.executable, os.path.join(tools, 're3900-table'), data, '--strict', '--out', table],
                   capture_output=True, text=True)
truth('recomputed from the kept histories as kept', r.returncode == 0, r.stderr.strip())
rows = [ln for ln in open(table).read().splitlines()[2:] if ln.startswith('| ')] if r.returncode == 0 else []
truth('one row a kept rung', len(rows) == len(rungs), f'({len(rows)} rows)')
text = open(page).read()
for row in rows:
    truth(f'on the page: {row.split("|")[1].strip()}', row in text.splitlines(), '' if row in text else row)
if failures:
    sys.exit(f'FAIL: {", ".join(failures)}')
print('re3900 kept rows: every check as expected')
