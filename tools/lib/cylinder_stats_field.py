"""The mean-field side of tools/cylinder-stats: time-average files sampled with `frmini sample`,
the statistics of the mean field (wall pressure against a measured free-stream pressure,
separation, recirculation, wake profiles, Reynolds stresses when the file holds the moments),
and their 95 % intervals by batch means over sub-windows of the run's cumulative means.

A tavg file at time t_k holds the mean M_k over [w, t_k] (w its `/window-start`), so the mean
over [t_a, t_b] is (M_b (t_b - w) - M_a (t_a - w)) / (t_b - t_a) exactly; sampling is linear
in the field (one polynomial evaluated, then a span average), so the sampled values of the
files are differenced instead of the files themselves."""
import csv
import functools
import glob
import math
import os
import re
import subprocess

from cylinder_stats_forces import MIN_BATCHES, die, even_groups, interval95

PROFILE_X = (1.06, 1.54, 2.02)
WALL_EPS = 1e-4  # wall samples just inside the fluid: the curved wall is the mesh's polynomial
RADIUS = 0.5
NOT_SUMMED = ('t', 'point', 'x', 'y', 'z')  # columns that are not field values


# ---------------------------------------------------------------- files
def h5_value(path, args, what):
    """A value h5dump prints (full precision), or None when the object is absent."""
    r = subprocess.run(['h5dump', '-m', '%.17g'] + args + [path], capture_output=True, text=True)
    if r.returncode:
        return None
    m = re.search(r'DATA \{\s*\(0\):\s*(.*?)\s*\}', r.stdout, re.S)
    if not m:
        die(f'{path}: h5dump printed no value for {what}')
    return m.group(1)


@functools.lru_cache(maxsize=None)
def tavg_info(path):
    """(t, window start or None, variables) of a solution or time-average file."""
    if not os.path.isfile(path):
        die(f'{path}: no such time-average file')
    stats = h5_value(path, ['-d', '/stats'], '/stats')
    if stats is None:
        die(f'{path}: not a frmini solution file (no /stats dataset)')
    var = h5_value(path, ['-a', '/variables'], 'the variables attribute')
    var = var.strip('"') if var else 'conserved'
    w = h5_value(path, ['-d', '/window-start'], '/window-start')
    return float(stats.split(',')[0]), (float(w) if w is not None else None), var


def expand_tavg(paths):
    """Files as given, and a folder's primitive-mean files; each (t, w, path), sorted by t."""
    files = []
    for p in paths:
        if os.path.isdir(p):
            inside = [f for f in sorted(glob.glob(os.path.join(p, '*.h5')))
                      if tavg_info(f)[2] == 'primitive-mean']
            if not inside:
                die(f'{p}: no time-average (primitive-mean) file in this folder')
            files += inside
        else:
            files.append(p)
    seen, out = set(), []
    for f in files:
        if os.path.realpath(f) in seen:
            continue
        seen.add(os.path.realpath(f))
        t, w, var = tavg_info(f)
        out.append((t, w, f, var))
    out.sort()
    for (ta, _, fa, _), (tb, _, fb, _) in zip(out, out[1:]):
        if ta == tb:
            die(f'{fb}: the same time t = {tb:g} as {fa}')
    return out


def select_window(files, tstart, tend):
    """The nodes of the averaging window: [(t, path or None)], None standing for the window
    start, where the running integral is zero. One file: its own window (or a snapshot)."""
    if len(files) == 1:
        t, w, f, _ = files[0]
        if w is not None and (tstart > w or tend < t):
            # the forces still take the window asked for: say so rather than stop
            print(f'mean field: {f} averages over [{w:g}, {t:g}]; a window inside it needs the '
                  "run's other time-average outputs (--tavg with every file, or their folder)")
        return [(w, None), (t, f)] if w is not None else [(t, f)]
    w0 = files[0][1]
    for t, w, f, var in files:
        if var != 'primitive-mean' or w is None:
            die(f'{f}: not a time-average file with a window start (several files must be '
                "one run's cumulative means)")
        if abs(w - w0) > 1e-9 * max(1.0, abs(w0)):
            die(f'{f}: its mean starts at t = {w:g}, the first file\'s at {w0:g} (several files '
                'must be one averaging window)')
    nodes = [(w0, None)] + [(t, f) for t, _, f, _ in files]
    nodes = [n for n in nodes if n[0] <= tend]
    first = [i for i, n in enumerate(nodes) if n[0] >= tstart]
    if not first or first[0] >= len(nodes) - 1:
        die(f'fewer than two time-average outputs in t = [{tstart:g}, {tend:g}] '
            f'(files at {", ".join(f"{x[0]:g}" for x in files)}, window start {w0:g})')
    return nodes[first[0]:]


def field_batches(nintervals, nbatches=None):
    """Node cuts grouping the output intervals into B batches: by default ceil(n / 10)
    intervals a batch (B up to 10, batches of equal length where n allows)."""
    if nbatches:
        if nbatches > nintervals:
            die(f'--field-batches {nbatches}: only {nintervals} output intervals in the window')
        b = nbatches
    else:
        b = nintervals // math.ceil(nintervals / 10)
    return even_groups(nintervals, b)


# ---------------------------------------------------------------- sampling
def layout(pref_x):
    """The sample points: the wall ring (theta from -180 to 180 degrees, 0 at the rear), the
    wake axis to x = 10, the three profiles (y from -3 to 3) and the reference point."""
    r = RADIUS + WALL_EPS
    ring = [(r * math.cos(math.radians(th)), r * math.sin(math.radians(th))) for th in range(-180, 181)]
    xs = [r + 0.02 * i for i in range(476)]
    ys = [-3 + 0.05 * i for i in range(121)]
    parts = {'ring': ring, 'axis': [(x, 0.0) for x in xs],
             'profiles': [(x0, y) for x0 in PROFILE_X for y in ys], 'pref': [(pref_x, 0.0)]}
    return parts, xs, ys


def sample(frmini, files, points, three_d, nz):
    """One `frmini sample` over every file: per file, one dict of values per point."""
    pts = ', '.join(f'({x!r}, {y!r}' + (', 0.0)' if three_d else ')') for x, y in points)
    cmd = [frmini, 'sample'] + files + ['--points', pts, '--gradients']
    if three_d:
        cmd += ['--average', f'z:{nz}']
    r = subprocess.run(cmd, capture_output=True, text=True)
    if r.returncode:
        hint = ' (--pref-x moves the reference point)' if 'lies in no element' in r.stderr else ''
        die(f'frmini sample failed ({r.returncode}): {r.stderr.strip()}{hint}')
    rows = [{k: float(v) for k, v in row.items()} for row in csv.DictReader(r.stdout.splitlines())]
    if len(rows) != len(files) * len(points):
        die(f'frmini sample returned {len(rows)} rows for {len(files)} file(s) x {len(points)} points')
    n = len(points)
    return [rows[i * n:(i + 1) * n] for i in range(len(files))]


def subwindow(a, b, w):
    """Rows of the mean over [t_a, t_b] from the nodes a = (t_a, rows or None at the window
    start) and b, rows of cumulative means from w."""
    (ta, ra), (tb, rb) = a, b
    out = []
    for i, row in enumerate(rb):
        d = {k: v for k, v in row.items() if k in NOT_SUMMED}
        for k, v in row.items():
            if k not in NOT_SUMMED:
                d[k] = (v * (tb - w) - (ra[i][k] * (ta - w) if ra else 0.0)) / (tb - ta)
        out.append(d)
    return out


# ---------------------------------------------------------------- statistics
def zero_up(xs, fs):
    """The first x where f goes from < 0 to >= 0, linearly interpolated; None if none."""
    for i in range(1, len(xs)):
        if fs[i - 1] < 0 <= fs[i]:
            return xs[i - 1] + (xs[i] - xs[i - 1]) * (-fs[i - 1]) / (fs[i] - fs[i - 1])
    return None


def recirculation_end(xs, us):
    """Where the mean recirculation bubble ends on the wake axis: the first x downstream of the
    most negative u where u turns >= 0. Not the first zero from the wall: a secondary vortex at
    the base can give u > 0 within a few hundredths of D of it, which is not the bubble's end."""
    i = us.index(min(us))
    return zero_up(xs[i:], us[i:]) if us[i] < 0 else None


def potential_cp_axis(x, cd):
    """Cp on the axis upstream (x < 0) of the unbounded flow's far field: the cylinder's
    doublet (u = U (1 - R^2/x^2)) and the source that feeds its wake's displacement flux,
    strength Q = Cd U D / 2 (the drag's momentum deficit), u = -Q / (2 pi |x|)."""
    u = 1 - RADIUS ** 2 / x ** 2 - cd / (4 * math.pi * abs(x))
    return 1 - u * u


def isentropic_cp0(ref):
    """Stagnation-point Cp of the free stream at the case's Mach number."""
    g, m2 = ref['gamma'], ref['mach2']
    return ((1 + 0.5 * (g - 1) * m2) ** (g / (g - 1)) - 1) / (0.5 * g * m2)


def has_moments(row):
    return all(k in row for k in ('uu', 'vv', 'uv', 'pp'))


def wall_rows(rows, ref, p_ref):
    """(theta, Cp against p_ref, Cp against Pinf, d(u_theta)/dr[, Cp_rms]) on the ring
    r = 1/2 + eps; theta from the rear point (0) through the upper side (90) to the front."""
    out = []
    for r in rows:
        th = math.atan2(r['y'], r['x'])
        # d(u_theta)/dr with u_theta = -u sin + v cos: the wall shear's sign on either side
        du_r = math.cos(th) * r['grad_u_x'] + math.sin(th) * r['grad_u_y']
        dv_r = math.cos(th) * r['grad_v_x'] + math.sin(th) * r['grad_v_y']
        w = [math.degrees(th), (r['p'] - p_ref) / ref['q'], (r['p'] - ref['pinf']) / ref['q'],
             -math.sin(th) * du_r + math.cos(th) * dv_r]
        if has_moments(r):
            # <pp> and <p> are two polynomials: between solution points (the ring lies outside
            # the outermost ones) <pp> - <p>^2 can dip below zero where the variance is small
            w.append(math.sqrt(max(r['pp'] - r['p'] ** 2, 0.0)) / ref['q'])
        out.append(tuple(w))
    return out


def separation(wall):
    """Angles from the front stagnation point where the mean wall shear changes sign: the first
    change going downstream on the upper side, then on the lower side."""
    sides = []
    for sign in (1, -1):
        # theta > 0 (upper side): attached flow runs towards the rear, clockwise, so
        # d(u_theta)/dr < 0 until separation; the lower side mirrors it (sign flipped).
        pts = sorted((180 - abs(w[0]), sign * w[3]) for w in wall if sign * w[0] >= 0)
        sides.append(zero_up([p[0] for p in pts], [p[1] for p in pts]))
    return sides


def field_stats(rows, ref, pref_x, nring, xs, ys):
    """The statistics of one mean field, rows in layout() order: (scalars, curves)."""
    ring, rows = rows[:nring], rows[nring:]
    axis, rows = rows[:len(xs)], rows[len(xs):]
    prof_rows, pref_row = rows[:-1], rows[-1]
    s = {'pref_x': pref_x, 'pref_cp_pot': potential_cp_axis(pref_x, ref['cd'])}
    p_ref = pref_row['p'] - s['pref_cp_pot'] * ref['q']
    s['pref_cp_pinf'] = (p_ref - ref['pinf']) / ref['q']
    wall = wall_rows(ring, ref, p_ref)
    rear = min(wall, key=lambda w: abs(w[0]))
    s['minus_cpb'], s['minus_cpb_pinf'] = -rear[1], -rear[2]
    front = [w for w in wall if abs(abs(w[0]) - 180) < 1e-6]
    s['cp_front'] = sum(w[1] for w in front) / len(front)
    s['cp_front_pinf'] = sum(w[2] for w in front) / len(front)
    sep = separation(wall)
    if all(x is not None for x in sep):
        s['theta_s'] = 0.5 * (sep[0] + sep[1])
        s['theta_s_upper'], s['theta_s_lower'] = sep
    u = [r['u'] / ref['uinf'] for r in axis]
    s['umin'] = min(u)
    s['x_umin'] = xs[u.index(s['umin'])]
    xr = recirculation_end(xs, u)
    if xr is not None:
        s['lr'] = xr - RADIUS
    prof, stress, n = [], [], len(ys)
    U, U2 = ref['uinf'], ref['uinf'] ** 2
    for k, x0 in enumerate(PROFILE_X):
        r = prof_rows[k * n:(k + 1) * n]
        for i in range(n // 2, n):  # y >= 0, folded with the mirror point
            a, b = r[i], r[n - 1 - i]
            prof.append((x0, ys[i], 0.5 * (a['u'] + b['u']) / U, 0.5 * (a['v'] - b['v']) / U))
            if has_moments(a):
                def rey(q, f, g):  # the Reynolds stress <f'g'> = <fg> - <f><g>
                    return q[f + g] - q[f] * q[g]
                # u'u' and v'v' are even in y, u'v' odd: folded like u and v
                stress.append((x0, ys[i], 0.5 * (rey(a, 'u', 'u') + rey(b, 'u', 'u')) / U2,
                               0.5 * (rey(a, 'v', 'v') + rey(b, 'v', 'v')) / U2,
                               0.5 * (rey(a, 'u', 'v') - rey(b, 'u', 'v')) / U2))
    out = {'wall': wall, 'axis': list(zip(xs, u)), 'profiles': prof, 'stresses': stress or None}
    return s, out


BATCHED = ('minus_cpb', 'minus_cpb_pinf', 'cp_front', 'cp_front_pinf', 'pref_cp_pinf', 'theta_s',
           'theta_s_upper', 'theta_s_lower', 'lr', 'umin')


def curve_intervals(curves_per_batch, key, first_col):
    """Per-row 95 % intervals of the columns from first_col on of one curve over the batches."""
    rows = [c[key] for c in curves_per_batch]
    if any(r is None for r in rows):
        return None
    return [[interval95([r[i][j] for r in rows]) for j in range(first_col, len(rows[0][i]))]
            for i in range(len(rows[0]))]


def mean_field(frmini, files, ref, tstart, tend, pref_x, three_d, nz, nbatches=None):
    """The window's statistics, their intervals by batch means and the per-batch values:
    (stats, curves, ci {name: (half, B)}, curve ci {key: rows}, batches [(t_a, t_b, stats)],
    window (t_a, t_b) or None for a snapshot)."""
    nodes = select_window(files, tstart, tend)
    parts, xs, ys = layout(pref_x)
    points = parts['ring'] + parts['axis'] + parts['profiles'] + parts['pref']
    need = [f for _, f in nodes if f]
    sampled = dict(zip(need, sample(frmini, need, points, three_d, nz)))
    nring = len(parts['ring'])
    if len(nodes) == 1:  # a snapshot or a plain solution file
        s, out = field_stats(sampled[need[0]], ref, pref_x, nring, xs, ys)
        return s, out, {}, {}, [], None
    w = files[0][1]  # one window start for every file (select_window checked it)
    node_rows = [(t, sampled[f] if f else None) for t, f in nodes]
    s, out = field_stats(subwindow(node_rows[0], node_rows[-1], w), ref, pref_x, nring, xs, ys)
    cuts = field_batches(len(nodes) - 1, nbatches)
    nb = len(cuts) - 1
    batches, curves = [], []
    if nb >= MIN_BATCHES:
        for k in range(nb):
            a, b = node_rows[cuts[k]], node_rows[cuts[k + 1]]
            bs, bo = field_stats(subwindow(a, b, w), ref, pref_x, nring, xs, ys)
            batches.append((a[0], b[0], bs))
            curves.append(bo)
    ci = {}
    for name in BATCHED:
        vals = [b[2][name] for b in batches if name in b[2]]
        if batches and len(vals) == nb:
            ci[name] = (interval95(vals), nb)
    cci = {}
    if batches:
        cci = {'wall': curve_intervals(curves, 'wall', 1), 'axis': curve_intervals(curves, 'axis', 1),
               'profiles': curve_intervals(curves, 'profiles', 2),
               'stresses': curve_intervals(curves, 'stresses', 2)}
    return s, out, ci, cci, batches, (nodes[0][0], nodes[-1][0])
