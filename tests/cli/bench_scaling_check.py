#!/usr/bin/env python3
"""frmini bench scaling on 1 and 2 ranks of the vortex box: the CSV's rows and the halo bytes.

usage: bench_scaling_check.py FRMINI CASE
"""
import csv
import os
import subprocess
import sys
import tempfile

frmini, case = sys.argv[1:3]
env = dict(os.environ, OMPI_ALLOW_RUN_AS_ROOT='1', OMPI_ALLOW_RUN_AS_ROOT_CONFIRM='1')
with tempfile.TemporaryDirectory() as d:
    out = os.path.join(d, 'scaling.csv')
    r = subprocess.run([frmini, 'bench', 'scaling', '--case', case, '--ranks', '1,2', '--steps', '4',
                        '--repeats', '1', '--csv', out], capture_output=True, text=True, env=env)
    print(r.stdout, r.stderr)
    if r.returncode != 0:
        sys.exit(f'FAILED: exit status {r.returncode}')
    rows = {int(row['ranks']): row for row in csv.DictReader(open(out))}
    # A bad case: one line, exit status 2, no run.
    bad = subprocess.run([frmini, 'bench', 'scaling', '--case', os.path.join(d, 'nope.toml')],
                         capture_output=True, text=True, env=env)
errors = []
if sorted(rows) != [1, 2]:
    errors.append(f'rows for ranks {sorted(rows)}')
else:
    one, two = rows[1], rows[2]
    if float(one['halo_mb_per_step_per_rank']) != 0:
        errors.append('one rank sent halo bytes')
    face = 3 * 4 * 8 * 4  # points x variables x bytes x RK4 stages
    mean = float(two['halo_mb_per_step_per_rank']) * 1e6
    top = float(two['halo_mb_per_step_max_rank']) * 1e6
    if abs(mean - top) > 0.5:
        errors.append(f'the two parts sent {mean} and {top} bytes per step (mean, max)')
    if abs(mean / face - round(mean / face)) > 1e-6 or round(mean / face) < 12:
        errors.append(f'{mean} bytes per step is not a whole number (>= 12) of {face}-byte faces')
    if int(two['elements_per_rank_max']) != 18 or int(two['total_elements']) != 36:
        errors.append(f"{two['elements_per_rank_max']} of {two['total_elements']} elements on the larger part")
    if not float(one['s_per_step']) > 0 or not float(two['s_per_step']) > 0:
        errors.append('no time per step')
if bad.returncode != 2 or len(bad.stderr.strip().splitlines()) != 1 or 'nope.toml' not in bad.stderr:
    errors.append(f'a missing case: exit {bad.returncode}, {bad.stderr!r}')
for e in errors:
    print('FAILED:', e)
if not errors:
    print(f'bench scaling: ok ({round(mean / face)} shared faces, {mean:.0f} bytes per step per rank)')
sys.exit(1 if errors else 0)
