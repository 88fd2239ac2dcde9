#!/usr/bin/env python3
"""tools/re3900-table on a kept run made here with known answers (no frmini needed): a force
history with mean Cd 0.98, rms Cl 0.3 / sqrt(2) and St 0.215 over whole cycles, its
cylinder-stats output kept as stats.csv with mean-field rows of known value and interval.
Checks the row it prints (the force statistics recomputed from the kept history, the kept
mean-field ones with their intervals, the windows, the words of row.toml), that the
pictures are drawn, that a kept value the history does not give is reported (and fails
--strict), and that a folder without its history is refused with exit status 2 and one line.

usage: re3900_table_check.py TOOLS_DIR WORKDIR
"""
import csv
import math
import os
import random
import re
import shutil
import subprocess
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from checks import check, failures, truth  # noqa: E402

tools, work = os.path.abspath(sys.argv[1]), sys.argv[2]
shutil.rmtree(work, ignore_errors=True)
os.makedirs(work)
os.chdir(work)


# a kept run: rung 9x, cuda, single, forces over t = 0-200, statistics over 50-190
kept = os.path.join('kept', '9x')
os.makedirs(kept)
with open(os.path.join(kept, 'case.toml'), 'w') as f:
    f.write('[backend]\nname = "cuda"\nprecision = "single"\n\n[constants]\nPinf = 17.857142857142858\n')
with open(os.path.join(kept, 'row.toml'), 'w') as f:
    f.write('run = "cuda, H200"\nwall-time = "8.3 min"\n')
random.seed(11)
with open(os.path.join(kept, 'forces.csv'), 'w') as f:
    f.write('t,cd,cl\n')
    t, x = 0.0, 0.0
    while t < 200:
        # drag at twice the shedding frequency, and a noise x of correlation time about 0.5
        x = 0.95 * x + 0.01 * random.gauss(0, 1)
        f.write(f'{t!r},{0.98 + 0.05 * math.sin(2 * math.pi * 0.43 * t) + x!r},'
                f'{0.3 * math.sin(2 * math.pi * 0.215 * t + 0.7)!r}\n')
        t += 0.02 + 0.02 * random.random()
r = subprocess.run([sys.executable, os.path.join(tools, 'cylinder-stats'), '--forces', os.path.join(kept, 'forces.csv'),
                    '--tstart', '50', '--tend', '190', '--out', 'made'], capture_output=True, text=True)
truth('cylinder-stats made the kept statistics', r.returncode == 0, r.stderr)
rows = list(csv.DictReader(open('made/cylinder-stats.csv')))
field = [('field_t0', 50.0, '', ''), ('field_t1', 180.0, '', ''), ('minus_cpb', 0.871, 0.012, 6),
         ('theta_s', 87.14, 0.43, 6), ('lr', 1.684, 0.05, 6), ('umin', -0.331, 0.011, 6)]
with open(os.path.join(kept, 'stats.csv'), 'w', newline='') as f:
    w = csv.writer(f)
    w.writerow(['name', 'value', 'ci95', 'nbatches'])
    w.writerows([(r['name'], r['value'], r['ci95'], r['nbatches']) for r in rows] + field)
with open(os.path.join(kept, 'profiles.csv'), 'w') as f:
    f.write('x,y,u,v\n' + ''.join(f'{x0},{0.05 * i},{1 - 0.5 * math.exp(-(0.05 * i) ** 2)},{-0.1 * 0.05 * i}\n'
                                  for x0 in (1.06, 1.54, 2.02) for i in range(61)))
with open(os.path.join(kept, 'wall.csv'), 'w') as f:
    f.write('theta_deg,cp,cp_pinf,dut_dr\n' + ''.join(f'{th},{-0.9 + 1.9 * math.cos(math.radians(th))},0,0\n'
                                                      for th in range(-180, 181)))

table = [sys.executable, os.path.join(tools, 're3900-table'), 'kept']
r = subprocess.run(table + ['--png', 'pictures'], capture_output=True, text=True)
print(r.stdout + r.stderr)
truth('re3900-table ran', r.returncode == 0 and not r.stderr)
lines = r.stdout.splitlines()
truth('a header, a rule and one row', len(lines) == 3 and lines[0].startswith('| rung | run | precision'))
cells = [c.strip() for c in lines[-1].strip('|').split('|')]
print(cells)
truth('rung, run and precision', cells[:3] == ['9x', 'cuda, H200', 'single'])
truth('the windows', re.fullmatch(r'50–190 \(140\) \(forces\), 50–180 \(130\) \(means\)', cells[3]) is not None,
      cells[3])


def value_ci(text):
    m = re.fullmatch(r'(−?[0-9.]+)°?(?: ± <?([0-9.]+)°?)?', text)
    if not m:
        return None, None
    return float(m.group(1).replace('−', '-')), (float(m.group(2)) if m.group(2) else None)


cd, cd_ci = value_ci(cells[4])
# the noise: AR(1) of variance 0.01^2 / (1 - 0.95^2) over about 4,700 samples; the standard
# error of its mean is sqrt(var / N (1 + 0.95) / (1 - 0.95)) = 0.0029, and about 30 cycles
# make 7 batches: t(0.975, 6) = 2.447
check('mean Cd (recomputed), within 3 standard errors', cd, 0.98, 0.009)
check('its interval, 2.447 standard errors', cd_ci, 0.0071, 0.0035)
check('rms Cl', value_ci(cells[5])[0], 0.3 / math.sqrt(2), 1.5e-3)
st, sts = cells[6].split(' / ')
check('St by crossings', value_ci(st)[0], 0.215, 1e-3)
check('St by the spectrum', value_ci(sts)[0], 0.215, 1e-3)
for k, (name, v, ci, _) in zip(range(7, 11), field[2:]):
    got_v, got_ci = value_ci(cells[k])
    dec = {'minus_cpb': 2, 'theta_s': 1, 'lr': 2, 'umin': 2}[name]
    check(f'{name} as kept', got_v, v, 0.5 * 10 ** -dec + 1e-12)
    check(f'{name} interval as kept', got_ci, ci, 0.5 * 10 ** -dec + 1e-12)
truth('theta_s in degrees', cells[8].endswith('°'))
truth('the wall time', cells[11] == '8.3 min')
for png in ('profiles.png', 'wall.png', '9x/forces.png', '9x/spectrum.png'):
    truth(f'picture {png}', os.path.isfile(os.path.join('pictures', png)))
truth('no stresses picture without stresses.csv', not os.path.exists('pictures/stresses.png'))

# a kept value the history does not give
text = open(os.path.join(kept, 'stats.csv')).read()
bad = re.sub(r'^mean_cd,[^,]*,', 'mean_cd,0.9,', text, flags=re.M)
open(os.path.join(kept, 'stats.csv'), 'w').write(bad)
r = subprocess.run(table, capture_output=True, text=True)
truth('a differing kept value is reported', r.returncode == 0 and 'rung 9x: mean_cd value recomputed as' in r.stderr,
      repr(r.stderr))
r = subprocess.run(table + ['--strict'], capture_output=True, text=True)
truth('--strict fails on it', r.returncode == 1)
os.unlink(os.path.join(kept, 'forces.csv'))
r = subprocess.run(table, capture_output=True, text=True)
truth('no history: refused', r.returncode == 2 and r.stderr == f're3900-table: {kept}/forces.csv: no such file '
      '(a kept run needs it)\n', repr(r.stderr))

if failures:
    sys.exit('FAILED: ' + ', '.join(failures))
print('re3900-table: every check as expected')
