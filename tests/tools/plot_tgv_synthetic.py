"""tools/plot-tgv on two synthetic integrals CSVs whose dissipation rates are known:
Ek(t) = 1/8 - (c/2)(1 + tanh(t - t0)), so -dEk/dt = (c/2) sech^2(t - t0), peak c/2 at t0, and
an enstrophy whose rate 2 mu enstrophy / V is (e/2) sech^2(t - t1), peak e/2 at t1 (the two
runs with different c, e, t0, t1, sampled every 0.05 over [0, 20] and over the volume (2 pi)^3
as the plugin integrates). A row repeated at the same t (a restart) counts once, the last
one. Each run's peaks must be found to the sampling's accuracy, under its label, and the
figure of both drawn.

usage: plot_tgv_synthetic.py TOOL WORKDIR
"""
import math
import os
import subprocess
import sys

tool, work = sys.argv[1], sys.argv[2]
os.makedirs(work, exist_ok=True)
mu, vol = 6.25e-4, (2 * math.pi) ** 3
runs = {'coarse': (0.026, 8.9, 0.018, 8.3), 'fine': (0.0256, 9.0, 0.022, 8.6)}
for name, (c, t0, e, t1) in runs.items():
    with open(os.path.join(work, name + '.csv'), 'w') as f:
        f.write('step,t,int_enstrophy,int_ke\n')
        for k in range(401):
            t = 0.05 * k
            ek = 0.125 - 0.5 * c * (1 + math.tanh(t - t0))
            rate = 0.5 * e / math.cosh(t - t1) ** 2
            if k == 200:  # a restart wrote this time twice; the second row stands
                f.write(f'{k},{t!r},{99.0!r},{99.0!r}\n')
            f.write(f'{k},{t!r},{rate / (2 * mu) * vol!r},{ek * vol!r}\n')
png = os.path.join(work, 'tgv.png')
args = [os.path.join(work, n + '.csv') + '=' + n for n in runs]
r = subprocess.run([sys.executable, tool, *args, '--png', png], capture_output=True, text=True)
print(r.stdout.strip(), r.stderr.strip())
ok = r.returncode == 0
for name, (c, t0, e, t1) in runs.items():
    try:
        line = next(s for s in r.stdout.splitlines() if s.startswith(name + ': peak -dEk/dt'))
        val, at = float(line.split()[3]), float(line.split()[-1])
        line = next(s for s in r.stdout.splitlines() if s.startswith(name + ': peak 2 mu'))
        val_w, at_w = float(line.split()[7]), float(line.split()[-1])
    except (StopIteration, IndexError, ValueError):
        ok = False
        continue
    # Central differences over 0.1 of a sech^2 peak: within 0.2 % of c/2.
    ok = ok and abs(val - c / 2) < 2e-3 * c and abs(at - t0) < 0.051
    ok = ok and abs(val_w - e / 2) < 1e-6 and abs(at_w - t1) < 0.051
ok = ok and os.path.exists(png) and os.path.getsize(png) > 1000
bad = subprocess.run([sys.executable, tool, os.path.join(work, 'none.csv')], capture_output=True, text=True)
print(bad.stderr.strip())
ok = ok and bad.returncode != 0 and 'none.csv' in bad.stderr
sys.exit(0 if ok else 1)
