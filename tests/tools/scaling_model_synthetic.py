#!/usr/bin/env python3
"""tools/scaling-model on a synthetic bench scaling CSV with known answers: 10^6 elements,
10 s per step on one rank (1e-5 s per element-step), halo bytes exactly 1000 x E^(2/3) per
rank, 40 messages per step. At 1000 ranks: E = 1000, compute 0.01 s, 1e5 bytes, comm
40 x 2e-6 + 1e5 / 12.5e9 = 8.8e-5 s, efficiency 0.01 / 0.010088 without overlap, 1 with.
At 10^5 ranks: E = 10, compute 1e-4 s, comm 8.0 us + 3.7 ns: 0.5519 and 1 (compute still
exceeds comm); at 10^6 ranks E = 1: compute 1e-5 s < comm 8.008e-5 s: overlap 0.1249.
At 3 ranks (between the measured 2 and 4, log-log) the bytes are the law's too; with 4 ranks
a node sharing the link, the bandwidth term at 1000 ranks is four times larger.

usage: scaling_model_synthetic.py TOOL
"""
import csv
import os
import subprocess
import sys
import tempfile

tool = sys.argv[1]
cols = ('ranks,threads_per_rank,elements_per_rank_max,total_elements,s_per_step,speedup,efficiency,'
        'halo_mb_per_step_per_rank,halo_mb_per_step_max_rank,messages_per_step,neighbours_max,'
        'wait_ms_per_step')
errors = []
with tempfile.TemporaryDirectory() as d:
    src, out = os.path.join(d, 'in.csv'), os.path.join(d, 'out.csv')
    with open(src, 'w') as f:
        f.write(cols + '\n1,1,1000000,1000000,10,1,1,0,0,0,0,0\n')
        for n in (2, 4, 8):
            e = 1e6 / n
            f.write(f'{n},1,{e:.0f},1000000,{10 / n},{n},1,{1000 * e ** (2 / 3) / 1e6},'
                    f'{1000 * e ** (2 / 3) / 1e6},40,2,0\n')
    r = subprocess.run([sys.executable, tool, src, '--ranks', '1,3,1000,100000,1000000', '--csv-out', out],
                       capture_output=True, text=True)
    print(r.stdout, r.stderr)
    if r.returncode != 0:
        sys.exit(f'FAILED: exit status {r.returncode}')
    rows = {int(x['ranks']): x for x in csv.DictReader(open(out))}
    r4 = subprocess.run([sys.executable, tool, src, '--ranks', '1000', '--ranks-per-node', '4',
                         '--csv-out', out], capture_output=True, text=True)
    node4 = list(csv.DictReader(open(out)))[0]
    bad = subprocess.run([sys.executable, tool, os.path.join(d, 'nope.csv')], capture_output=True, text=True)


def near(what, got, want, tol=1e-6):
    if abs(float(got) - want) > tol * max(abs(want), 1e-300):
        errors.append(f'{what}: {got}, expected {want}')


if 'fitted exponent 0.667' not in r.stdout:
    errors.append('the fitted exponent is not 0.667')
near('halo MB at 3 ranks', rows[3]['halo_mb'], 1000 * (1e6 / 3) ** (2 / 3) / 1e6)
near('comm at 1000 ranks, 4 a node', node4['comm_s'], 40 * 2e-6 + 1e5 / (12.5e9 / 4))
near('compute at 1000 ranks', rows[1000]['compute_s'], 0.01)
near('halo MB at 1000 ranks', rows[1000]['halo_mb'], 0.1)
near('comm at 1000 ranks', rows[1000]['comm_s'], 8.8e-5)
near('efficiency at 1000 ranks', rows[1000]['eff_no_overlap'], 0.01 / 0.010088)
near('overlapped efficiency at 1000 ranks', rows[1000]['eff_overlap'], 1.0)
comm5 = 40 * 2e-6 + 1000 * 10 ** (2 / 3) / 12.5e9
near('efficiency at 1e5 ranks', rows[100000]['eff_no_overlap'], 1e-4 / (1e-4 + comm5))
comm6 = 40 * 2e-6 + 1000 / 12.5e9
near('overlapped efficiency at 1e6 ranks', rows[1000000]['eff_overlap'], 1e-5 / comm6)
if 'with the exchange hidden: efficiency falls below 50% at 1000000 ranks' not in r.stdout:
    errors.append('the 50% line for the overlapped model')
if bad.returncode != 2 or 'nope.csv' not in bad.stderr:
    errors.append(f'a missing file: exit {bad.returncode}, {bad.stderr!r}')
for e in errors:
    print('FAILED:', e)
if not errors:
    print('scaling-model: ok')
sys.exit(1 if errors else 0)
