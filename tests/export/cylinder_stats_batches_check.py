#!/usr/bin/env python3
"""tools/cylinder-stats' intervals and Reynolds stresses on answers known in closed form,
without frmini (the library in tools/lib, and the command line on force histories):
1. Student t quantiles against their tabulated values;
2. batches of whole cycles: a lift sin(2 pi f t) whose upward crossings are at t = k / f, the
   default batch count and the cut times;
3. coverage: a mean drag 1 + x with AR(1) noise x, whose time mean's standard error is known
   analytically: over many seeds the 95 % intervals cover 1 about 95 % of the time and their
   half-widths are t(0.975, B-1) times that standard error (median, and mean square);
4. the mean over a sub-window from cumulative means (a field quadratic in t), the mean-field
   batch groups and the window's nodes;
5. Reynolds stresses, Cp_rms, the measured reference pressure and the isentropic stagnation
   Cp from sampled rows built the way `frmini sample` writes them, with moments and without;
6. the command line: the CSV's columns, its intervals equal to the library's, and bad input
   refused with exit status 2 and one line.

usage: cylinder_stats_batches_check.py TOOLS_DIR WORKDIR
"""
import csv
import math
import os
import random
import statistics
import subprocess
import sys

tools, work = os.path.abspath(sys.argv[1]), sys.argv[2]
sys.path.insert(0, os.path.join(tools, 'lib'))
import cylinder_stats_field as fld  # noqa: E402
import cylinder_stats_forces as frc  # noqa: E402

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from checks import check, failures, truth  # noqa: E402

os.makedirs(work, exist_ok=True)
os.chdir(work)


# 1. Student t: 0.975 quantiles as the tables give them
for nu, want in ((1, 12.706), (2, 4.303), (4, 2.776), (7, 2.365), (9, 2.262), (30, 2.042)):
    check(f't(0.975, {nu})', frc.student_t_quantile(0.975, nu), want, 1e-3)
check('P(|T| <= 1.96), nu large', frc.student_t_two_sided(1.959964, 2000), 0.95, 1e-3)

# 2. whole cycles: sin(2 pi 0.2 t) crosses upwards at t = 5 k; uneven samples
random.seed(5)
t, cd, cl = [], [], []
x = 0.0
while x < 100:
    t.append(x)
    cd.append(1.0)
    cl.append(math.sin(2 * math.pi * 0.2 * x))
    x += 0.01 + 0.01 * random.random()
# [1.25, 96.25] is 19 whole periods, so the mean of the lift there is 0 and the crossings of
# the mean are the zeros: 5, 10, ..., 95 (the one at 0 lies before the window)
s = frc.force_stats(t, cd, cl, 1.25, 96.25)
check('cycles in the window', s['cycles'], 18, 0)
check('default batches for 18 cycles (18 // 4 -> 5, at most 18 // 3)', s['nbatches'], 5, 0)
want_cuts = [5 + 5 * k for k in (0, 3, 7, 10, 14, 18)]  # floor(k * 18 / 5) cycles
got_cuts = [b['t_a'] for b in s['batches']] + [s['batches'][-1]['t_b']]
check('batch cuts at crossings (largest error)', max(abs(a - b) for a, b in zip(got_cuts, want_cuts)), 0, 1e-4)
truth('batches hold whole cycles', [b['cycles'] for b in s['batches']] == [3, 4, 3, 4, 4],
      str([b['cycles'] for b in s['batches']]))
check('St of a pure sine, interval', s['ci']['st'][0], 0.0, 1e-5)
s6 = frc.force_stats(t, cd, cl, 1.25, 96.25, 6)
truth('--batches 6: 3 cycles each', [b['cycles'] for b in s6['batches']] == [3] * 6)
for c, b in ((8, 2), (9, 3), (12, 4), (20, 5), (30, 7), (41, 10), (200, 10)):
    check(f'default batches for {c} cycles', frc.default_batches(c), b, 0)

# 3. coverage of the mean drag with AR(1) noise of known standard error
phi, sig_x, dt, n = 0.9, 0.05, 0.05, 4000
nsamp = n + 1
# variance of the mean of nsamp AR(1) samples of variance sig_x^2
var_mean = sig_x ** 2 / nsamp * ((1 + phi) / (1 - phi)
                                 - 2 * phi * (1 - phi ** nsamp) / (nsamp * (1 - phi) ** 2))
covered, ratios = 0, []
seeds = range(30)
for seed in seeds:
    rng = random.Random(seed)
    xk = rng.gauss(0, sig_x)
    t, cd, cl = [], [], []
    for k in range(nsamp):
        t.append(k * dt)
        cd.append(1 + xk)
        cl.append(0.5 * math.sin(2 * math.pi * 0.2 * k * dt + 0.4))
        xk = phi * xk + sig_x * math.sqrt(1 - phi * phi) * rng.gauss(0, 1)
    s = frc.force_stats(t, cd, cl, -math.inf, math.inf)
    half, nb = s['ci']['mean_cd']
    covered += abs(s['mean_cd'] - 1.0) <= half
    ratios.append(half / (frc.student_t_quantile(0.975, nb - 1) * math.sqrt(var_mean)))
print(f'     batches {nb}, analytic standard error {math.sqrt(var_mean):.5f}')
truth('95 % intervals cover the true mean drag', covered >= 26, f'({covered} of {len(seeds)})')
check('median half-width / (t * analytic standard error)', statistics.median(ratios), 1.0, 0.3)
# s^2 is unbiased: its mean over the seeds is the variance (each s^2 / var ~ chi^2(B-1) / (B-1))
check('mean of (half-width / (t * analytic standard error))^2', statistics.fmean(r * r for r in ratios), 1.0, 0.3)

# 4. sub-windows of cumulative means: g(t) = 2 + 3 t^2 at one point, window from w = 10
w = 10.0


def cum(tk):  # the mean of g over [w, tk]
    return 2 + 3 * (tk ** 3 - w ** 3) / (3 * (tk - w))


row = lambda tk: [{'t': tk, 'point': 0, 'x': 1.0, 'y': 0.0, 'p': cum(tk), 'uu': 2 * cum(tk)}]  # noqa: E731
got = fld.subwindow((12.0, row(12.0)), (15.0, row(15.0)), w)[0]
check('mean over [12, 15] from cumulative means', got['p'], 2 + (15 ** 3 - 12 ** 3) / 3, 1e-11)
check('the same for a moment column', got['uu'], 2 * (2 + (15 ** 3 - 12 ** 3) / 3), 1e-11)
check('coordinates kept', got['x'], 1.0, 0)
got = fld.subwindow((w, None), (15.0, row(15.0)), w)[0]
check('from the window start', got['p'], cum(15.0), 1e-12)
truth('20 intervals: 10 batches of 2', fld.field_batches(20) == list(range(0, 21, 2)))
truth('13 intervals: 6 batches of 2 or 3', fld.field_batches(13) == [0, 2, 4, 6, 8, 10, 13])
truth('7 intervals: 7 batches', fld.field_batches(7) == list(range(8)))
files = [(60.0 + 10 * k, 50.0, f'tavg-{k}.h5', 'primitive-mean') for k in range(6)]  # t = 60..110
nodes = fld.select_window(files, -math.inf, math.inf)
truth('window nodes: the start, then every file', [n[0] for n in nodes] == [50.0, 60, 70, 80, 90, 100, 110]
      and nodes[0][1] is None)
nodes = fld.select_window(files, 75.0, 100.0)
truth('--tstart 75 --tend 100: from the first output at or after 75', [n[0] for n in nodes] == [80, 90, 100])

# 5. sampled rows with moments: u = 1 + 0.1 y + fluctuations of known variance
parts, xs, ys = fld.layout(-8.0)
ref = {'pinf': 17.0, 'uinf': 1.0, 'q': 0.5, 'gamma': 1.4, 'mach2': 1 / (1.4 * 17.0), 'cd': 1.2}
A = lambda y: 0.01 + 0.02 * y * y  # noqa: E731  <u'u'>, even
B = lambda y: 0.03 * math.exp(-y * y)  # noqa: E731  <v'v'>, even
C = lambda y: -0.004 * y  # noqa: E731  <u'v'>, odd
P = lambda x, y: 0.05 * (1 + x * x)  # noqa: E731  <p'p'>
pref_p = 17.2


def fake_row(x, y, moments=True):
    u, v, p = 1 + 0.1 * y + 0.3 * x, 0.2 * y, (pref_p if x == -8.0 else 17.0 + 0.1 * x)
    r = {'x': x, 'y': y, 'rho': 1.0, 'u': u, 'v': v, 'w': 0.0, 'p': p}
    for var in ('rho', 'u', 'v', 'w', 'p'):
        for ax in 'xy':
            r[f'grad_{var}_{ax}'] = {('u', 'x'): 0.3, ('u', 'y'): 0.1, ('v', 'y'): 0.2}.get((var, ax), 0.0)
    if moments:
        r.update(uu=u * u + A(y), vv=v * v + B(y), ww=0.0, uv=u * v + C(y), uw=0.0, vw=0.0,
                 pp=p * p + P(x, y))
    return r


pts = parts['ring'] + parts['axis'] + parts['profiles'] + parts['pref']
s, out = fld.field_stats([fake_row(x, y) for x, y in pts], ref, -8.0, len(parts['ring']), xs, ys)
worst = 0.0
for x0, y, uu, vv, uv in out['stresses']:
    worst = max(worst, abs(uu - A(y)), abs(vv - B(y)), abs(uv - C(y)))
check('stresses u\'u\', v\'v\', u\'v\' (largest error)', worst, 0.0, 1e-12)
truth('stresses at every station, y >= 0', len(out['stresses']) == 3 * 61 and min(r[1] for r in out['stresses']) == 0)
worst = max(abs(wr[4] - math.sqrt(P(*xy)) / ref['q']) for wr, xy in zip(out['wall'], parts['ring']))
check('Cp_rms on the wall (largest error)', worst, 0.0, 1e-9)
u8 = 1 - 0.25 / 64 - 1.2 / (4 * math.pi * 8)
check('reference Cp of the far field at x = -8', s['pref_cp_pot'], 1 - u8 * u8, 1e-15)
p_ref = pref_p - (1 - u8 * u8) * ref['q']
x_rear = 0.5 + fld.WALL_EPS
check('-Cpb against the measured reference', s['minus_cpb'], -(17.0 + 0.1 * x_rear - p_ref) / 0.5, 1e-12)
check('-Cpb against Pinf', s['minus_cpb_pinf'], -(0.1 * x_rear) / 0.5, 1e-12)
check('front Cp against the reference', s['cp_front'], (17.0 - 0.1 * x_rear - p_ref) / 0.5, 1e-12)
check('isentropic stagnation Cp at M = 0.2', fld.isentropic_cp0({'gamma': 1.4, 'mach2': 0.04}), 1.0100, 5e-5)
s, out = fld.field_stats([fake_row(x, y, False) for x, y in pts], ref, -8.0, len(parts['ring']), xs, ys)
truth('no moments: no stresses, no Cp_rms', out['stresses'] is None and len(out['wall'][0]) == 4)

# 6. the command line on a force history
random.seed(3)
with open('forces.csv', 'w') as f:
    f.write('t,cd,cl\n')
    x, xk = 0.0, 0.0
    while x < 150:
        xk = 0.9 * xk + 0.02 * random.gauss(0, 1)
        f.write(f'{x!r},{1 + xk!r},{0.5 * math.sin(2 * math.pi * 0.21 * x)!r}\n')
        x += 0.04 + 0.03 * random.random()
cmd = [sys.executable, os.path.join(tools, 'cylinder-stats'), '--forces', 'forces.csv', '--out', 'cli']
r = subprocess.run(cmd + ['--tstart', '20', '--tend', '140', '--batches', '6'], capture_output=True, text=True)
print(r.stdout + r.stderr)
truth('cylinder-stats ran', r.returncode == 0)
rows = list(csv.DictReader(open('cli/cylinder-stats.csv')))
truth('columns name,value,ci95,nbatches', list(rows[0]) == ['name', 'value', 'ci95', 'nbatches'])
got = {r['name']: r for r in rows}
t, cd, cl = frc.read_forces('forces.csv')
lib = frc.force_stats(t, cd, cl, 20, 140, 6)
for k in ('mean_cd', 'rms_cl', 'st', 'st_spectrum'):
    check(f'{k} interval as the library computes it', float(got[k]['ci95']), lib['ci'][k][0], 1e-12)
    check(f'{k} batches', int(got[k]['nbatches']), 6, 0)
check('window end', float(got['t1']['value']), max(x for x in t if x <= 140), 0)
truth('force-batches.csv has 6 batches', len(list(csv.DictReader(open('cli/force-batches.csv')))) == 6)
with open('nocl.csv', 'w') as f:
    f.write('t,cd\n0,1\n1,1\n')
for args, msg in ((['--tstart', '50', '--tend', '40'], '--tend 40 must come after --tstart 50'),
                  (['--batches', '80'], '--batches 80: only'),
                  (['--batches', '2'], '--batches 2: needs at least 3 batches'),
                  (['--tavg', 'x.h5'], '--tavg needs --case'),
                  (['--tavg', 'x.h5', '--case', 'c.toml', '--frmini', '/nonexistent/frmini'],
                   '--frmini /nonexistent/frmini: no such executable')):
    r = subprocess.run(cmd + args, capture_output=True, text=True)
    truth(f'refused: {" ".join(args)}', r.returncode == 2 and msg in r.stderr and r.stderr.count('\n') == 1,
          repr(r.stderr))
r = subprocess.run(cmd[:3] + ['nocl.csv', '--out', 'cli'], capture_output=True, text=True)
truth('refused: a history without cl', r.returncode == 2 and 'nocl.csv: needs columns t, cd and cl' in r.stderr,
      repr(r.stderr))

# Lr: the end of the bubble, downstream of the most negative u, not a secondary vortex's u > 0
# within 0.02 D of the base (one batch of the GPU rung's time average had one).
xs = [0.5 + 0.02 * i for i in range(200)]
bubble = [-0.3 * math.sin(math.pi * (x - 0.5) / 1.4) if x < 1.9 else 0.2 * (x - 1.9) for x in xs]
base = [-1e-4] + [0.002 if x < 0.55 else u for x, u in zip(xs[1:], bubble[1:])]
check('Lr: bubble end (x = 1.9)', fld.recirculation_end(xs, bubble), 1.9, 1e-9)
check('Lr: secondary vortex at the base ignored', fld.recirculation_end(xs, base), 1.9, 1e-9)
truth('Lr: none without reversed flow', fld.recirculation_end(xs, [abs(u) + 0.01 for u in bubble]) is None)

if failures:
    sys.exit('FAILED: ' + ', '.join(failures))
print('cylinder-stats batches: every check as expected')
