"""tools/tgv-beside-pyfr --compare-only on synthetic integrals of known rates: Ek(t) =
1/8 - (c/2)(1 + tanh(t - t0)), so -dEk/dt = (c/2) sech^2(t - t0), and an enstrophy whose rate
is (e/2) sech^2(t - t1). "frmini" samples every 0.05 from 0, "PyFR" every 0.05 from 0.02 with
the same Ek and an enstrophy 1% higher. The tool must find the -dEk/dt curves equal to the
interpolation's accuracy (under 0.05%), the enstrophy rates 1/1.01 - 1 = -0.990% apart at
every sample (to 0.02%), and write them all to differences.csv. And --compare-only without the CSVs
fails in one line.

usage: tgv_beside_pyfr_synthetic.py TOOL WORKDIR
"""
import csv
import math
import os
import re
import subprocess
import sys

tool, work = sys.argv[1], sys.argv[2]
os.makedirs(work, exist_ok=True)
mu, vol = 6.25e-4, (2 * math.pi) ** 3
c, t0, e, t1 = 0.026, 8.9, 0.018, 8.3


def write(name, start, scale):
    with open(os.path.join(work, name), 'w') as f:
        f.write('t,int_ke,int_enstrophy\n')
        for k in range(241):
            t = start + 0.05 * k
            ek = 0.125 - 0.5 * c * (1 + math.tanh(t - t0))
            rate = scale * 0.5 * e / math.cosh(t - t1) ** 2
            f.write(f'{t!r},{ek * vol!r},{rate / (2 * mu) * vol!r}\n')


write('frmini-integrals.csv', 0.0, 1.0)
write('pyfr-integrals.csv', 0.02, 1.01)
out = subprocess.run([sys.executable, tool, '--compare-only', '--workdir', work, '--tend', '10'],
                     capture_output=True, text=True)
print(out.stdout, out.stderr)
assert out.returncode == 0, out.returncode
m = re.search(r'-dEk/dt\s+([+-][0-9.]+)%', out.stdout)
w = re.search(r'2 mu enstrophy / V\s+([+-][0-9.]+)%', out.stdout)
assert m and abs(float(m.group(1))) < 0.05, m and m.group(1)
assert w and abs(float(w.group(1)) - 100 * (1 / 1.01 - 1)) < 0.02, w and w.group(1)
rows = list(csv.DictReader(open(os.path.join(work, 'differences.csv'))))
assert len(rows) == 201, len(rows)  # frmini's samples to t = 10
assert rows[0]['relative_difference_enstrophy'] == 'nan'  # t = 0: before PyFR's first sample
for r in rows[1:]:
    assert abs(float(r['relative_difference_enstrophy']) - (1 / 1.01 - 1)) < 2e-4, r
os.remove(os.path.join(work, 'pyfr-integrals.csv'))
bad = subprocess.run([sys.executable, tool, '--compare-only', '--workdir', work], capture_output=True, text=True)
assert bad.returncode == 2 and 'pyfr-integrals.csv: missing' in bad.stderr, bad.stderr
print('ok: the rates compared as built')
