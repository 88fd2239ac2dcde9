"""tools/pyfr-compare's loop clock: the seconds of frmini's steps after the first, read from the
run report of a real run (mean x count, checked against the report's own figures), nothing from
text without a report, and PyFR's case file with the writer that saves the end state (whose
statistics give PyFR's wall-time) exactly at the end time and synchronously."""
import configparser
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
if pc.frmini_loop_seconds('frmini: error: nope.toml: cannot open case file') is not None:
    sys.exit('a loop time read from text without a run report')

ini = configparser.ConfigParser()
ini.read_string(pc.pyfr_case(pc.CASES['tg'], 3, 'single', 23, None, '', 'tg-p3-single-23'))
w = ini['soln-plugin-writer']
if float(w['dt-out']) != pc.pyfr_tend(23, pc.CASES['tg']['dt']) or w['async-timeout'] != '0' \
        or '{n' not in w['basename']:
    sys.exit(f'writer section {dict(w)}')
if 'soln-plugin-writer' in pc.pyfr_case(pc.CASES['tg'], 3, 'single', 23, None):
    sys.exit('a writer in the case file of a process-clock run')
print(f'ok: frmini loop {t:.4g} s over {n} steps; PyFR writer at tend = {w["dt-out"]}')
