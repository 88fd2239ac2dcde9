"""The TGV beside PyFR table of docs/validation-tgv.md from its kept data: tools/tgv-beside-pyfr
--compare-only on a copy of docs/data/tgv-pyfr/p3-n16 must print the largest differences the
page gives, at the times it gives (so the page cannot drift from its data).

usage: tgv_pyfr_kept_check.py TOOL DATA_DIR PAGE WORKDIR [ROW_SUFFIX]
(ROW_SUFFIX: ", anti-aliased" for the anti-aliased run's rows)
"""
import re
import shutil
import subprocess
import sys

tool, data, page, work = sys.argv[1:5]
suffix = sys.argv[5] if len(sys.argv) > 5 else ''
shutil.rmtree(work, ignore_errors=True)
shutil.copytree(data, work)
out = subprocess.run([sys.executable, tool, '--compare-only', '--workdir', work, '--tend', '10'],
                     capture_output=True, text=True)
print(out.stdout, out.stderr)
assert out.returncode == 0
text = open(page).read()
for name, col in (('-dEk/dt', 'peak −dEk/dt'), ('2 mu enstrophy / V', 'peak 2(μ/ρ0)·enstrophy/V')):
    m = re.search(re.escape(name) + r'\s+[+-]([0-9.]+)% at t = ([0-9.]+)', out.stdout)
    assert m, name
    cell = f'{m.group(1)}% (t = {float(m.group(2)):.2f})'
    rows = [l for l in text.splitlines() if l.startswith('| ' + col + suffix + ' |')]
    assert any(r.endswith(f'| {cell} |') for r in rows), (rows, cell)
print('ok: the page holds what its data gives')
