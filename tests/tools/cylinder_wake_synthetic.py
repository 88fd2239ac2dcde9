"""tools/cylinder-wake on a synthetic sampler CSV whose answers are known: on the axis
u = (x - 2.1)(x + 1) changes sign at x = 2.1 (Lw/D = 1.6); on rings r = 0.505, 0.51, 0.52 the
tangential velocity is cos(theta) - cos(a(r)), a(r) = 55 - 100 (r - 0.5) degrees (positive
from the rear point to a(r)), so the rings read 54.5, 54 and 53 degrees and the separation
extrapolated to the wall is 55 degrees. An earlier sample (t = 10) has its crossings elsewhere (x = 3.1,
70 degrees): the last sample alone and the mean from --tstart 20 ignore it, the mean from
--tstart 0 does not. tools/plot-wake (PLOT) finds the same Lw/D on the axis and draws it.

usage: cylinder_wake_synthetic.py TOOL WORKDIR [PLOT]
"""
import math
import os
import subprocess
import sys

tool, work = sys.argv[1], sys.argv[2]
os.makedirs(work, exist_ok=True)
path = os.path.join(work, 'wake.csv')
pts = [(0.5 + 0.05 * i, 0.0) for i in range(1, 111)]
for rr in (0.505, 0.51, 0.52):
    pts += [(rr * math.cos(math.radians(2.5 * i)), rr * math.sin(math.radians(2.5 * i)))
            for i in range(73)]
with open(path, 'w') as f:
    f.write('step,t,point,x,y,rho,u,v,p\n')
    for t, x0, a0 in ((10.0, 3.1, 70.0), (20.0, 2.1, 55.0), (30.0, 2.1, 55.0)):
        for k, (x, y) in enumerate(pts):
            th = math.atan2(y, x)
            rr = math.hypot(x, y)
            if rr < 0.53 and (abs(y) > 1e-12 or x < 0):
                ut = math.cos(th) - math.cos(math.radians(a0 - 100 * (rr - 0.5)))
                u, v = -ut * math.sin(th), ut * math.cos(th)
            else:
                u, v = (x - x0) * (x + 1), 0.0
            f.write(f'{int(t)},{t},{k},{x!r},{y!r},1,{u!r},{v!r},17.8\n')
ok = True
for args, want in (([], True), (['--tstart', '20'], True), (['--tstart', '0'], False)):
    out = subprocess.run([sys.executable, tool, path, *args], capture_output=True, text=True).stdout
    print(out.strip())
    lw = float(out.split('Lw/D = ')[1].split()[0])
    th = float(out.split('separation angle = ')[1].split()[0])
    # Linear interpolation between samples 0.05 apart (axis) and 2.5 degrees apart (ring).
    ok = ok and (abs(lw - 1.6) < 1e-3 and abs(th - 55.0) < 0.05) == want
if len(sys.argv) > 3:
    png = os.path.join(work, 'wake.png')
    r = subprocess.run([sys.executable, sys.argv[3], path + '=synthetic', '--tstart', '20',
                        '--png', png], capture_output=True, text=True)
    print(r.stdout.strip(), r.stderr.strip())
    ok = ok and r.returncode == 0 and abs(float(r.stdout.split('Lw/D = ')[1].split()[0]) - 1.6) < 1e-3
    ok = ok and 'min u -2.40' in r.stdout and 'at x = 0.55;' in r.stdout and os.path.getsize(png) > 1000
sys.exit(0 if ok else 1)
