"""The sampler and integrals plugins are exact where the elements are: on every
element type (quad, tri, hex, tet, pri, and pyr in the mixed box) and on the curved cylinder
mesh, an initial state whose conserved variables are polynomials the elements hold (degree 2 at
p = 2 on straight elements; degree 1 on the quadratic cylinder mesh, degree 2 in the reference
coordinates) is sampled at random points, points on element faces and corners included, and
every value (and, on straight elements, every gradient) is compared with the polynomial; on
the straight meshes (the unit box), the integrals of expressions of degree <= 2 of the primitive
variables and their gradients over the box, and over its half x < 0.5 (region, cells aligned
with it), are compared with the exact integrals (3-point Gauss-Legendre per direction, exact to
degree 5). Also: a point outside the mesh stops the run before its first step (exit 2, naming
it).

usage: plugins_exact.py FRMINI WORKDIR
"""
import csv
import math
import os
import random
import subprocess
import sys

FRMINI, WORK = os.path.abspath(sys.argv[1]), sys.argv[2]
os.makedirs(WORK, exist_ok=True)
GAMMA = 1.4
failures = 0


def run(args, **kw):
    return subprocess.run([FRMINI, *args], cwd=WORK, capture_output=True, text=True, **kw)


# Straight elements, p = 2: rho and p quadratic, the velocity constant (so rho u and E are
# quadratic too). Cylinder: linear.
QUAD = {
    'rho': ('1 + 0.1*x + 0.2*y + 0.05*x*y - 0.1*z*z + 0.03*x*z',
            lambda x, y, z: 1 + 0.1 * x + 0.2 * y + 0.05 * x * y - 0.1 * z * z + 0.03 * x * z,
            lambda x, y, z: (0.1 + 0.05 * y + 0.03 * z, 0.2 + 0.05 * x, -0.2 * z + 0.03 * x)),
    'p': ('10 + x - y*y + 0.5*y*z', lambda x, y, z: 10 + x - y * y + 0.5 * y * z,
          lambda x, y, z: (1.0, -2 * y + 0.5 * z, 0.5 * y)),
}
LIN = {
    'rho': ('1 + 0.01*x - 0.02*y', lambda x, y, z: 1 + 0.01 * x - 0.02 * y,
            lambda x, y, z: (0.01, -0.02, 0.0)),
    'p': ('10 + 0.05*x + 0.03*y', lambda x, y, z: 10 + 0.05 * x + 0.03 * y,
          lambda x, y, z: (0.05, 0.03, 0.0)),
}
VEL = (0.3, -0.2, 0.1)


# name -> (expression, python function of (x, y, z) given the primitive state); degree <= 2.
EXPRS = {
    'one': ('1', lambda x, y, z, s: 1.0),
    'mass': ('rho', lambda x, y, z, s: s['rho']),
    'pres': ('p', lambda x, y, z, s: s['p']),
    'ke': ('0.5*rho*(u*u + v*v + w*w)', lambda x, y, z, s: 0.5 * s['rho'] * s['vv']),
    'lin': ('x + 2*y - t', lambda x, y, z, s: x + 2 * y),
    'gx': ('grad_rho_x + grad_u_y', lambda x, y, z, s: s['drho'][0]),
    'gp': ('grad_p_y*grad_rho_x', lambda x, y, z, s: s['dp'][1] * s['drho'][0]),
}


def exact_integral(nd, poly, f, hi_x=1.0):
    g = [0.5 - math.sqrt(0.15), 0.5, 0.5 + math.sqrt(0.15)]
    w = [5 / 18, 8 / 18, 5 / 18]
    tot = 0.0
    for i in range(3):
        for j in range(3):
            for k in range(3 if nd == 3 else 1):
                x, y, z = g[i] * hi_x, g[j], g[k] if nd == 3 else 0.0
                wt = w[i] * hi_x * w[j] * (w[k] if nd == 3 else 1.0)
                vv = sum(v * v for v in VEL[:nd])
                s = {'rho': poly['rho'][1](x, y, z), 'p': poly['p'][1](x, y, z), 'vv': vv,
                     'drho': poly['rho'][2](x, y, z), 'dp': poly['p'][2](x, y, z)}
                tot += wt * f(x, y, z, s)
    return tot


def case_text(mesh, nd, poly, bcs, points, grads, region=None):
    ics = [f'rho = "{poly["rho"][0]}"', f'u = {VEL[0]}', f'v = {VEL[1]}']
    if nd == 3:
        ics.append(f'w = {VEL[2]}')
    ics.append(f'p = "{poly["p"][0]}"')
    pts = ', '.join('(' + ', '.join(repr(c) for c in p[:nd]) + ')' for p in points)
    return '\n'.join([
        '[backend]', 'name = "cpu"', 'precision = "double"', '',
        '[constants]', f'gamma = {GAMMA}', '',
        '[mesh]', f'file = "{mesh}"', '',
        '[solver]', 'system = "euler"', 'order = 2', 'riemann-solver = "rusanov"', '',
        '[time]', 'scheme = "rk4"', 'dt = 1e-6', 'tend = 1.0', '',
        '[ics]', *ics, '', *bcs,
        '[plugins.sampler]', 'nsteps = 1000000', f'points = "{pts}"',
        f'gradients = {"true" if grads else "false"}', 'file = "samples.csv"', '',
        '[plugins.integrals]', 'nsteps = 1000000', 'file = "integrals.csv"',
        *([f'region = "{region}"'] if region else []), '',
        '[plugins.integrals.expressions]', *[f'{k} = "{e}"' for k, (e, _) in EXPRS.items()], ''])


def check_integrals(name, nd, poly, hi_x):
    global failures
    with open(os.path.join(WORK, 'integrals.csv')) as f:
        row = [r for r in csv.DictReader(f) if r['step'] == '0'][0]
    worst = 0.0
    for k, (_, fn) in EXPRS.items():
        want = exact_integral(nd, poly, fn, hi_x)
        worst = max(worst, abs(float(row[f'int_{k}']) - want) / max(1.0, abs(want)))
    ok = worst < 1e-12
    print(f'{name:12s} integrals{" (x < 0.5)" if hi_x < 1 else ""}: {worst:.1e}' + ('' if ok else '  FAILED'))
    failures += not ok


def check(name, gen_args, nd, poly, points, grads, bcs=(), tol=1e-10, integrals=False,
          region=False):
    global failures
    msh, h5 = f'{name}.msh', f'{name}.h5'
    for args in (['mesh', *gen_args, '--out', msh], ['import', msh, h5]):
        r = run(args)
        if r.returncode:
            sys.exit(f'{name}: frmini {" ".join(args)} failed: {r.stderr}')
    with open(os.path.join(WORK, f'{name}.toml'), 'w') as f:
        f.write(case_text(h5, nd, poly, list(bcs), points, grads))
    r = run(['run', f'{name}.toml', '--steps', '1', '--quiet'])
    if r.returncode:
        sys.exit(f'{name}: run failed: {r.stderr}')
    if integrals:
        check_integrals(name, nd, poly, 1.0)
    if region:
        box = '(0, 0, 0), (0.5, 1, 1)' if nd == 3 else '(0, 0), (0.5, 1)'
        with open(os.path.join(WORK, f'{name}-half.toml'), 'w') as f:
            f.write(case_text(h5, nd, poly, list(bcs), points, grads, box))
        r = run(['run', f'{name}-half.toml', '--steps', '1', '--quiet'])
        if r.returncode:
            sys.exit(f'{name}: run failed: {r.stderr}')
        check_integrals(name, nd, poly, 0.5)
    with open(os.path.join(WORK, 'samples.csv')) as f:
        rows = [row for row in csv.DictReader(f) if row['step'] == '0']
    if len(rows) != len(points):
        print(f'{name}: {len(rows)} rows at step 0 for {len(points)} points')
        failures += 1
        return
    axes = 'xyz'[:nd]
    worst = worst_grad = 0.0
    for row, pt in zip(rows, points):
        x, y, z = pt
        want = {'rho': poly['rho'][1](x, y, z), 'p': poly['p'][1](x, y, z), 'u': VEL[0], 'v': VEL[1]}
        if nd == 3:
            want['w'] = VEL[2]
        for k, v in want.items():
            worst = max(worst, abs(float(row[k]) - v) / max(1.0, abs(v)))
        if grads:
            for k in ('rho', 'p'):
                g = poly[k][2](x, y, z)
                for c, a in enumerate(axes):
                    worst_grad = max(worst_grad, abs(float(row[f'grad_{k}_{a}']) - g[c]))
            for k in ('u', 'v', 'w')[:nd]:
                for a in axes:
                    worst_grad = max(worst_grad, abs(float(row[f'grad_{k}_{a}'])))
    ok = worst < tol and worst_grad < 1e3 * tol
    print(f'{name:12s} {len(points):4d} points: values {worst:.1e}' +
          (f', gradients {worst_grad:.1e}' if grads else '') + ('' if ok else '  FAILED'))
    failures += not ok


rng = random.Random(7)


def box_points(nd, n, cells):
    pts = [tuple(rng.uniform(0, 1) if c < nd else 0.0 for c in range(3)) for _ in range(n)]
    # On faces and corners of the cells (and the domain's own corners and faces).
    pts += [tuple((i / cells if c < nd else 0.0) for c in range(3)) for i in range(cells + 1)]
    pts.append(tuple((0.5 if c == 0 else 1 / cells if c < nd else 0.0) for c in range(3)))
    return pts


check('quad', ['box-quad', '--n', '4'], 2, QUAD, box_points(2, 40, 4), True, integrals=True, region=True)
check('tri', ['box-tri', '--n', '4'], 2, QUAD, box_points(2, 40, 4), True, integrals=True, region=True)
check('hex', ['box-hex', '--n', '2'], 3, QUAD, box_points(3, 40, 2), True, integrals=True, region=True)
check('tet', ['box-tet', '--n', '2'], 3, QUAD, box_points(3, 40, 2), True, integrals=True, region=True)
check('pri', ['box-pri', '--n', '2'], 3, QUAD, box_points(3, 40, 2), True, integrals=True, region=True)
# The mixed box's tets are unstructured (no region aligned with their faces).
check('mixed3d', ['box-mixed3d', '--n', '2'], 3, QUAD, box_points(3, 60, 2), True, integrals=True)

# Curved: points in the first rings of cells around the wall (r in [0.5, 1.2]) and beyond.
cyl = []
for _ in range(40):
    r, th = rng.uniform(0.5, 1.2), rng.uniform(0, 2 * math.pi)
    cyl.append((r * math.cos(th), r * math.sin(th), 0.0))
cyl += [(0.5, 0.0, 0.0), (0.0, -0.5, 0.0), (20.0, 3.0, 0.0), (-8.9, 8.9, 0.0)]
free = ['u = 0.3', 'v = -0.2']
check('cylinder2d', ['cylinder2d', '--scale', '0.25'], 2, LIN, cyl, False,
      bcs=['[bcs.cylinder]', 'type = "slp-adia-wall"', '',
           '[bcs.farfield]', 'type = "char-riem-inv"', 'rho = 1.0', *free, 'p = 10.0', ''])

# A point outside the mesh: exit 2 before the first step, the point named.
with open(os.path.join(WORK, 'outside.toml'), 'w') as f:
    f.write(case_text('quad.h5', 2, QUAD, [], [(0.5, 0.5, 0), (1.5, 0.5, 0)], False))
r = run(['run', 'outside.toml', '--steps', '1', '--quiet'])
if r.returncode != 2 or 'point 1 (1.5, 0.5) lies in no element' not in r.stderr:
    print(f'outside point: exit {r.returncode}, {r.stderr.strip()}  FAILED')
    failures += 1
else:
    print('outside point: refused (exit 2)')
sys.exit(1 if failures else 0)
