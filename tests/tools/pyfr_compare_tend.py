"""tools/pyfr-compare's PyFR end time gives exactly N steps of PyFR's loop (tcurr += dt while
tcurr < tend), where tend = N*dt takes one step more for some N and dt."""
import importlib.machinery
import importlib.util
import sys

loader = importlib.machinery.SourceFileLoader('pyfr_compare', sys.argv[1])
spec = importlib.util.spec_from_loader('pyfr_compare', loader)
pc = importlib.util.module_from_spec(spec)
loader.exec_module(pc)


def pyfr_steps(tend, dt):
    t, n = 0.0, 0
    while t < tend:
        t += min(dt, tend - t)
        n += 1
    return n


bad, naive = [], 0
for dt in (1e-3, 1e-4, 0.005, 2e-4):
    for n in range(1, 1200):
        if pyfr_steps(pc.pyfr_tend(n, dt), dt) != n:
            bad.append((n, dt))
        naive += pyfr_steps(n * dt, dt) != n
if bad:
    sys.exit(f'pyfr_tend gives the wrong number of steps for (N, dt) = {bad[:5]}')
print(f'ok: exactly N steps for every N < 1200 and 4 values of dt (N*dt is off for {naive})')
