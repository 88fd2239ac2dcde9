"""tools/plot-forces on a synthetic forces CSV whose statistics are known: from t = 20 on,
Cd = 1.3 + 0.01 sin(2 w t) and Cl = 0.05 + 0.3 sin(w t) with w = 2 pi 0.2, sampled unevenly
over whole periods (t = 20 to 60), so the mean Cd is 1.3 and the rms of Cl about its mean is
0.3/sqrt(2); before t = 20 a start-up transient (Cd = 5) that --tstart 20 leaves out and
--tstart 0 does not. A row repeated at the same t (a restart) counts once, the last one. The
figure is drawn too.

usage: plot_forces_synthetic.py TOOL WORKDIR
"""
import math
import os
import subprocess
import sys

tool, work = sys.argv[1], sys.argv[2]
os.makedirs(work, exist_ok=True)
path = os.path.join(work, 'forces.csv')
w = 2 * math.pi * 0.2
ts = [0.5 * i for i in range(40)] + [20 + 40 * (j / 4000) ** 1.1 for j in range(4001)]
with open(path, 'w') as f:
    f.write('step,t,px,py,vx,vy,cd,cl\n')
    for k, t in enumerate(ts):
        cd = 5.0 if t < 20 else 1.3 + 0.01 * math.sin(2 * w * t)
        cl = 0.05 + 0.3 * math.sin(w * t)
        if k == 100:  # a restart wrote this time twice; the second row stands
            f.write(f'{k},{t!r},0,0,0,0,99,99\n')
        f.write(f'{k},{t!r},0,0,0,0,{cd!r},{cl!r}\n')
png = os.path.join(work, 'forces.png')
ok = True
for args, want in ((['--tstart', '20', '--png', png], True), (['--tstart', '0'], False)):
    r = subprocess.run([sys.executable, tool, path + '=synthetic', *args], capture_output=True, text=True)
    print(r.stdout.strip(), r.stderr.strip())
    cd = float(r.stdout.split('mean Cd ')[1].split(',')[0])
    cl = float(r.stdout.split('rms Cl ')[1].split()[0])
    ok = ok and r.returncode == 0 and (abs(cd - 1.3) < 1e-5 and abs(cl - 0.3 / math.sqrt(2)) < 1e-4) == want
ok = ok and os.path.getsize(png) > 1000
bad = subprocess.run([sys.executable, tool, os.path.join(work, 'none.csv')], capture_output=True, text=True)
print(bad.stderr.strip())
ok = ok and bad.returncode != 0 and 'none.csv' in bad.stderr
sys.exit(0 if ok else 1)
