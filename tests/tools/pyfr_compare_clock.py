"""tools/pyfr-compare's loop clock: the seconds of frmini's steps after the first, read from the
run report of a real run (mean x count, checked against the report's own figures), its floor and
the step as laid out from the same report, nothing from
text without a report, and PyFR's case file with the writer that saves the end state (whose
statistics give PyFR's wall-time) exactly at the end time and synchronously."""
import configparser
import tempfile
from pathlib import Path
import importlib.machinery
import importlib.util
import re
import subprocess
import sys

tool, frmini, case = sys.argv[1:4]
loader = importlib.machinery.SourceFileLoader('pyfr_compare', tool)
spec = importlib.util.spec_from_loader('pyfr_compare', loader)
pc = importlib.util.module_from_spec(spec)
loader.exec_module(pc)

out = subprocess.run([frmini, 'run', case, '--steps', '5', '--no-plugins'], capture_output=True,
                     text=True, check=True).stdout
t = pc.frmini_loop_seconds(out)
m = re.search(r'median (\S+) s \(min (\S+) s, mean (\S+) s; (\d+) steps', out)
if t is None or m is None:
    sys.exit(f'no loop time in frmini\'s report:\n{out}')
mean, n = float(m.group(3)), int(m.group(4))
if n != 4 or abs(t - 4 * mean) > 1e-12 * t or not (4 * float(m.group(2)) <= t):
    sys.exit(f'loop time {t} from mean {mean} over {n} steps')
# The floor and the pipeline as laid out, from the same report: the latter moves more.
fl = pc.report_floor(out)
lo = re.search(r'as laid out\s+(\S+) s a step: (\S+) MB \((\S+) MB between', out)
if fl is None or lo is None or fl[2] != float(lo.group(1)) or not fl[2] > fl[0] \
        or not float(lo.group(3)) > 0:
    sys.exit(f'floor {fl} and as laid out {lo and lo.groups()} from the report:\n{out}')
if pc.frmini_loop_seconds('frmini: error: nope.toml: cannot open case file') is not None:
    sys.exit('a loop time read from text without a run report')

ini = configparser.ConfigParser()
ini.read_string(pc.pyfr_case(pc.CASES['tg'], 3, 'single', 23, None, '', 'tg-p3-single-23', 3))
w = ini['soln-plugin-writer']
if float(w['dt-out']) != pc.pyfr_tend(3, pc.CASES['tg']['dt']) or w['async-timeout'] != '0' \
        or '{n' not in w['basename']:
    sys.exit(f'writer section {dict(w)}')

# About eight saved states whatever the run's length, the first after N1 steps.
for n1, n2, want in ((3, 23, 3), (3, 18, 3), (3, 803, 102), (50, 2050, 250)):
    if pc.pyfr_every(n1, n2) != want or n2 // pc.pyfr_every(n1, n2) > 9:
        sys.exit(f'pyfr_every({n1}, {n2}) = {pc.pyfr_every(n1, n2)}, want {want}')

# PyFR's step from its saved states: (steps, wall-time less plugins) of each file, as the
# statistics reader prints them (here a stand-in Python that prints them without h5py): the
# initial state left out, the first after N1 steps to the last; the files are removed.
with tempfile.TemporaryDirectory() as d:
    d = Path(d)
    for i in range(4):
        (d / f'x-{i:03d}.pyfrs').write_text('')
    fake = d / 'python'
    fake.write_text('#!/bin/sh\nprintf "0 0.5\\n3 2.0\\n6 2.9\\n21 7.4\\n"\n')
    fake.chmod(0o755)
    step = pc.pyfr_loop_step(fake, d, 'x')
    if step is None or abs(step - (7.4 - 2.0) / 18) > 1e-12 or list(d.glob('*.pyfrs')):
        sys.exit(f'PyFR step {step} from saved states (want {(7.4 - 2.0) / 18})')
    if pc.pyfr_loop_step(fake, d, 'x') is not None:
        sys.exit('a PyFR step without saved states')
if 'soln-plugin-writer' in pc.pyfr_case(pc.CASES['tg'], 3, 'single', 23, None):
    sys.exit('a writer in the case file of a process-clock run')
print(f'ok: frmini loop {t:.4g} s over {n} steps; PyFR writer at tend = {w["dt-out"]}')
