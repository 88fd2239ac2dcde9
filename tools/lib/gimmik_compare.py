"""What tools/gimmik-opencl-compare and tools/gimmik-cuda-compare share: the operators from
`frmini operators --mtx`, frmini's own times from `frmini bench matmul --csv`, and the table
of GiMMiK-best against frmini's generated kernel per operator. Each tool brings the part that
differs: how GiMMiK's kernels for its platform are compiled, launched and timed."""
import argparse
import csv
import os
import subprocess
import tempfile
from pathlib import Path

import numpy as np

OPS = ['M0', 'M3', 'M6', 'M132', 'M460']


def read_mtx(path):
    with open(path) as f:
        lines = [ln for ln in f if not ln.startswith('%')]
    m, k, _ = map(int, lines[0].split())
    a = np.zeros((m, k))
    for ln in lines[1:]:
        i, j, v = ln.split()
        a[int(i) - 1, int(j) - 1] = float(v)
    return a


def operands(a, beta, dtype, n):
    """B, C and the float64 reference A B + beta C, seeded: both sides see the same data."""
    m, k = a.shape
    rng = np.random.default_rng(1)
    b = rng.uniform(-1, 1, (k, n)).astype(dtype)
    c0 = rng.uniform(-1, 1, (m, n)).astype(dtype)
    want = a.astype(np.float64) @ b.astype(np.float64) + beta * c0.astype(np.float64)
    return b, c0, want


def max_rel_err(got, want):
    return float(np.abs(got - want).max() / max(np.abs(want).max(), 1e-300))


def frmini_times(frmini, backend, etype, order, prec, n, nrep, stat, tmp):
    out = Path(tmp) / f'{etype}-{order}-{prec}.csv'
    subprocess.run([frmini, 'bench', 'matmul', '--backend', backend, '--etype', etype,
                    '--order', str(order), '--precision', prec, '--n', str(n), '--nrep',
                    str(nrep), '--stat', stat, '--providers', 'generated', '--no-dram',
                    '--csv', str(out)],
                   check=True, stdout=subprocess.DEVNULL)
    with open(out) as f:
        return {r['operator']: r for r in csv.DictReader(f)}


def int_list(s):
    out = []
    for part in s.split(','):
        lo, _, hi = part.partition('-')
        out += list(range(int(lo), int(hi or lo) + 1))
    return out


def arg_parser(description, backend):
    ap = argparse.ArgumentParser(description=description)
    ap.add_argument('--frmini', default='build/frmini')
    ap.add_argument('--etypes', default='hex')
    ap.add_argument('--orders', default='3', help='e.g. 3 or 1-4')
    ap.add_argument('--precision', default='double', help='single, double or both (comma list)')
    ap.add_argument('--n', type=int, default=50000)
    ap.add_argument('--nrep', type=int, default=10)
    ap.add_argument('--stat', default='median', choices=['median', 'min'],
                    help='statistic of the timed runs, both sides (min: for a busy machine)')
    ap.add_argument('--nkerns', type=int, default=8, help=f"PyFR's [backend-{backend}] gimmik-nkerns")
    ap.add_argument('--csv', help='also write the table as CSV')
    return ap


HDR = ['etype', 'order', 'op', 'precision', 'm', 'k', 'nnz', 'beta', 'gimmik_strategy',
       'gimmik_ms', 'frmini_strategy', 'frmini_ms', 'speedup']
FMT = '{:5} {:>5} {:5} {:6} {:>5} {:>5} {:>6} {:>4}  {:16} {:>9}  {:22} {:>9} {:>7}'


def run_table(args, backend, gimmik_best):
    """gimmik_best(a, beta, dtype, n) -> (strategy, seconds, why-not)."""
    print(FMT.format(*HDR))
    table, ratios = [], []
    with tempfile.TemporaryDirectory() as tmp:
        for etype in args.etypes.split(','):
            for order in int_list(args.orders):
                subprocess.run([args.frmini, 'operators', '--etype', etype, '--order',
                                str(order), '--mtx', tmp], check=True, stdout=subprocess.DEVNULL)
                for prec in args.precision.split(','):
                    dtype = np.float32 if prec == 'single' else np.float64
                    fr = frmini_times(args.frmini, backend, etype, order, prec, args.n,
                                      args.nrep, args.stat, tmp)
                    for op in OPS:
                        a = read_mtx(os.path.join(tmp, f'{etype}-p{order}-{op}.mtx'))
                        r = fr[op]
                        beta = float(r['beta'])
                        gname, gt, why = gimmik_best(a, beta, dtype, args.n)
                        ft = float(r['generated_ms'])
                        sp = gt * 1e3 / ft if gt else None
                        if sp:
                            ratios.append(sp)
                        row = [etype, order, op, prec, a.shape[0], a.shape[1],
                               int(np.count_nonzero(a)), f'{beta:g}', gname or why,
                               f'{gt * 1e3:.4f}' if gt else '-', r['generated_strategy'],
                               f'{ft:.4f}', f'{sp:.2f}' if sp else '-']
                        table.append(row)
                        print(FMT.format(*row), flush=True)
    if ratios:
        g = float(np.exp(np.mean(np.log(ratios))))
        print(f'geomean speedup of frmini over GiMMiK-best ({len(ratios)} operators): {g:.2f}x '
              f'(min {min(ratios):.2f}, max {max(ratios):.2f})')
    if args.csv:
        with open(args.csv, 'w', newline='') as f:
            w = csv.writer(f)
            w.writerow(HDR)
            w.writerows(table)
