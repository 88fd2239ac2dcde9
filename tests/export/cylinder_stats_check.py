#!/usr/bin/env python3
"""tools/cylinder-stats against answers known in closed form, end to end through frmini:
1. a synthetic force history (uneven steps, St = 0.21, Cd = 1 + 0.05 sin, Cl = 0.5 sin):
   Strouhal number from crossings and from the spectrum, mean Cd, rms Cl;
2. a mean field set by a case's [ics] on the curved cylinder3d mesh (p = 3, the t = 0 file of
   a one-step run): u = 0.2 x - 0.4, v = 0.3 y, p = Pinf + (-0.9 + 0.1 x) q. Its statistics are
   exact: Lr/D = 1.5 (u = 0 at x = 2), Umin = u at the first axis point, -Cpb = 0.9 - 0.1 x at
   the rear point against Pinf, separation where d(u_theta)/dr = 0.05 sin(2 theta) changes sign
   (90 degrees from the front on both sides), folded profiles u = 0.2 x - 0.4 and v = 0.3 y;
   and the measured reference pressure: p at x = -8 (Pinf - 1.7 q) less the far field's Cp
   there for the history's mean Cd, so -Cpb and the front point's Cp against it are known too;
3. the coarsest rung of the Re 3900 ladder, a few steps, its time averages (with moments)
   written several times: every statistic and picture made, intervals from 3 batches, and
   the batches of a statistic linear in the field (-Cpb against Pinf, the reference pressure,
   the front Cp) averaging, weighted by their lengths, to the whole window's value.

usage: cylinder_stats_check.py FRMINI TOOLS_DIR CONFIGS_DIR WORKDIR
"""
import csv
import glob
import math
import os
import random
import subprocess
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from checks import check, failures  # noqa: E402

frmini, tools, configs, work = sys.argv[1:5]
stats_tool = os.path.join(tools, 'cylinder-stats')
os.makedirs(work, exist_ok=True)
os.chdir(work)


def run_stats(args):
    r = subprocess.run([sys.executable, stats_tool, '--frmini', frmini] + args, capture_output=True, text=True)
    print(r.stdout + r.stderr)
    if r.returncode:
        sys.exit(f'cylinder-stats failed ({r.returncode})')
    out = args[args.index('--out') + 1]
    return {r['name']: float(r['value']) for r in csv.DictReader(open(os.path.join(out, 'cylinder-stats.csv')))}


# 1. forces
random.seed(3)
with open('forces.csv', 'w') as f:
    f.write('t,cd,cl\n')
    t = 0.0
    while t < 120:
        f.write(f'{t!r},{1 + 0.05 * math.sin(2 * math.pi * 0.42 * t)!r},{0.5 * math.sin(2 * math.pi * 0.21 * t + 0.3)!r}\n')
        t += 0.04 + 0.03 * random.random()
s = run_stats(['--forces', 'forces.csv', '--tstart', '20', '--out', 'synthetic', '--png'])
check('St (crossings)', s.get('st'), 0.21, 1e-4)
check('St (spectrum)', s.get('st_spectrum'), 0.21, 2e-3)
check('mean Cd', s.get('mean_cd'), 1.0, 2e-3)
check('rms Cl', s.get('rms_cl'), 0.5 / math.sqrt(2), 2e-3)
for png in ('forces.png', 'spectrum.png'):
    if not os.path.getsize(os.path.join('synthetic', png)):
        failures.append(png)

# 2. an exact mean field
case = open(os.path.join(configs, 'validation', 'cylinder3900-r1.toml')).read()
head = case[:case.index('\n[ics]\n') + 1]
head = head.replace('order = 1', 'order = 3').replace('nspan = 8', 'nspan = 2')
with open('field.toml', 'w') as f:
    f.write(head + '''[ics]
rho = 1.0
u = "0.2*x - 0.4"
v = "0.3*y"
w = 0.0
p = "Pinf + 0.5*(-0.9 + 0.1*x)"

[bcs.farfield]
type = "char-riem-inv"
rho = 1.0
u = "Uinf"
v = 0.0
w = 0.0
p = "Pinf"

[bcs.cylinder]
type = "no-slp-adia-wall"

[plugins.writer]
dt-out = 100.0
basedir = "field-out"
basename = "field-{t}"
''')
subprocess.run([frmini, 'run', 'field.toml', '--steps', '1', '--quiet'], check=True, stdout=subprocess.DEVNULL)
t0 = sorted(glob.glob('field-out/field-0*.h5'))[0]
s = run_stats(['--forces', 'forces.csv', '--tavg', t0, '--case', 'field.toml', '--nz', '3', '--out', 'field'])
x_rear = 0.5 + 1e-4
check('Lr/D', s.get('lr'), 1.5, 1e-9)
check('Umin', s.get('umin'), 0.2 * x_rear - 0.4, 1e-9)
# p comes from E = p/(gamma-1) + rho |u|^2 / 2, quadratic in x: not exact on curved hexes.
check('-Cpb against Pinf', s.get('minus_cpb_pinf'), 0.9 - 0.1 * x_rear, 1e-6)
check('theta_s upper', s.get('theta_s_upper'), 90.0, 1e-3)
check('theta_s lower', s.get('theta_s_lower'), 90.0, 1e-3)
# the reference pressure: p(-8) = Pinf - 1.7 q, less the doublet's and the wake source's Cp
u8 = 1 - 0.25 / 64 - s['mean_cd'] / (4 * math.pi * 8)
cp_pot = 1 - u8 * u8
check('reference point x', s.get('pref_x'), -8.0, 0)
check('reference pressure (p_ref - Pinf) / q', s.get('pref_cp_pinf'), -1.7 - cp_pot, 1e-6)
check('-Cpb against p_ref', s.get('minus_cpb'), -((-0.9 + 0.1 * x_rear) - (-1.7 - cp_pot)), 1e-6)
check('front Cp against Pinf', s.get('cp_front_pinf'), -0.9 - 0.1 * x_rear, 1e-6)
check('front Cp against p_ref', s.get('cp_front'), (-0.9 - 0.1 * x_rear) - (-1.7 - cp_pot), 1e-6)
check('isentropic front Cp at M = 0.2', s.get('cp_front_isentropic'), 1.0100, 5e-5)
worst = 0.0
for r in csv.DictReader(open('field/profiles.csv')):
    x, y = float(r['x']), float(r['y'])
    worst = max(worst, abs(float(r['u']) - (0.2 * x - 0.4)), abs(float(r['v']) - 0.3 * y))
check('profiles (largest error)', worst, 0.0, 1e-9)

# 3. the coarsest rung, a few steps, its means (with moments) written every 0.0015
os.makedirs('rung', exist_ok=True)
os.chdir('rung')
case = open(os.path.join(configs, 'validation', 'cylinder3900-r1.toml')).read()
tavg = case[case.index('[plugins.tavg]\n'):]
tavg = tavg[:tavg.index('\n\n') + 1]
with open('r1.toml', 'w') as f:
    f.write(case.replace(tavg, '[plugins.tavg]\nnsteps = 2\ntstart = 0.0\ndt-out = 0.0015\nbasedir = "out"\n'
                               'basename = "tavg-{t}"\nmoments = true\n'))
subprocess.run([frmini, 'run', 'r1.toml', '--steps', '30', '--quiet'], check=True, stdout=subprocess.DEVNULL)
s = run_stats(['--forces', 'out/forces-cylinder.csv', '--tavg', 'out', '--nz', '2', '--case', 'r1.toml',
               '--field-batches', '3', '--out', 'stats', '--png'])
for k in ('mean_cd', 'rms_cl', 'st_spectrum', 'minus_cpb', 'minus_cpb_pinf', 'cp_front', 'umin'):
    if k not in s or not math.isfinite(s[k]):
        failures.append(f'rung statistic {k}')
for png in ('forces.png', 'spectrum.png', 'axis.png', 'profiles.png', 'wall.png', 'stresses.png'):
    if not os.path.isfile(os.path.join('stats', png)):
        failures.append(f'rung picture {png}')
rows = {r['name']: r for r in csv.DictReader(open('stats/cylinder-stats.csv'))}
check('field batches', s.get('field_nbatches'), 3, 0)
batches = list(csv.DictReader(open('stats/field-batches.csv')))
for k in ('minus_cpb_pinf', 'pref_cp_pinf', 'cp_front_pinf'):
    check(f'{k}: batches in the interval column', float(rows[k]['nbatches'] or 0), 3, 0)
    span = sum(float(b['t_b']) - float(b['t_a']) for b in batches)
    mean = sum(float(b[k]) * (float(b['t_b']) - float(b['t_a'])) for b in batches) / span
    check(f'{k}: the batches\' weighted mean is the window\'s', mean, s[k], 1e-9 * max(1.0, abs(s[k])))
head = next(csv.reader(open('stats/stresses.csv')))
if head[:5] != ['x', 'y', 'uu', 'vv', 'uv'] or 'cp_rms' not in next(csv.reader(open('stats/wall.csv'))):
    failures.append('stresses.csv and the wall\'s Cp_rms from the moments')

if failures:
    sys.exit('FAILED: ' + ', '.join(failures))
print('cylinder-stats: every statistic as expected')
