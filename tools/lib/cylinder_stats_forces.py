"""The force side of tools/cylinder-stats: the forces plugin's history (t, cd, cl) over a window
[tstart, tend], its statistics, and their 95 % intervals by batch means over whole shedding
cycles. Also the Student t quantile and the batch rule the mean-field side shares.

Standard library only: the tools run where numpy is not installed."""
import cmath
import csv
import functools
import math
import sys


PROG = ['cylinder-stats']  # the tool that reports, set by tools that share these modules


def die(msg):
    """Bad input: one line naming the problem, exit status 2."""
    print(f'{PROG[0]}: {msg}', file=sys.stderr)
    sys.exit(2)


# ---------------------------------------------------------------- Student t
def student_t_two_sided(t, nu):
    """P(|T| <= t) for Student's t with nu (whole) degrees of freedom: the finite series of
    Abramowitz & Stegun 26.7.3-4 in theta = atan(t / sqrt(nu)), exact for every nu."""
    th = math.atan(t / math.sqrt(nu))
    c2 = math.cos(th) ** 2
    if nu % 2:
        if nu == 1:
            return 2 * th / math.pi
        term, total = 1.0, 1.0
        for k in range(1, (nu - 1) // 2):  # (2 4 ... 2k) / (3 5 ... 2k+1) cos^2k
            term *= c2 * (2 * k) / (2 * k + 1)
            total += term
        return 2 / math.pi * (th + math.sin(th) * math.cos(th) * total)
    term, total = 1.0, 1.0
    for k in range(1, nu // 2):  # (1 3 ... 2k-1) / (2 4 ... 2k) cos^2k
        term *= c2 * (2 * k - 1) / (2 * k)
        total += term
    return math.sin(th) * total


@functools.lru_cache(maxsize=None)
def student_t_quantile(p, nu):
    """t with P(T <= t) = p (p > 1/2), by bisection on the two-sided probability 2p - 1."""
    want = 2 * p - 1
    lo, hi = 0.0, 1.0
    while student_t_two_sided(hi, nu) < want:
        hi *= 2
    for _ in range(200):
        mid = 0.5 * (lo + hi)
        if student_t_two_sided(mid, nu) < want:
            lo = mid
        else:
            hi = mid
        if hi - lo < 1e-13 * hi:
            break
    return 0.5 * (lo + hi)


def interval95(values):
    """Half-width of the 95 % interval of the mean of B batch values: t(0.975, B-1) s / sqrt(B)."""
    b = len(values)
    m = sum(values) / b
    s = math.sqrt(sum((v - m) ** 2 for v in values) / (b - 1))
    return student_t_quantile(0.975, b - 1) * s / math.sqrt(b)


MIN_BATCHES = 3  # fewer leaves a t quantile of 4.3 or more: no interval is given


def even_groups(n, b):
    """Split n consecutive units into b groups of floor(n/b) or ceil(n/b): the b + 1 cuts."""
    return [(k * n) // b for k in range(b + 1)]


# ---------------------------------------------------------------- history
def read_forces(path):
    try:
        with open(path) as f:
            rows = list(csv.DictReader(f))
    except OSError as e:
        die(f'{path}: {e.strerror}')
    if not rows or not {'t', 'cd', 'cl'} <= set(rows[0]):
        die(f"{path}: needs columns t, cd and cl (the forces plugin's CSV)")
    by_t = {}
    for r in rows:  # a restarted run may repeat times: the last row of a time wins
        try:
            by_t[float(r['t'])] = (float(r['cd']), float(r['cl']))
        except (TypeError, ValueError):
            die(f'{path}: a row with no number in t, cd or cl')
    t = sorted(by_t)
    return t, [by_t[x][0] for x in t], [by_t[x][1] for x in t]


def time_mean(t, f):
    span = t[-1] - t[0]
    return sum(0.5 * (f[i] + f[i + 1]) * (t[i + 1] - t[i]) for i in range(len(t) - 1)) / span


def crossings(t, f, mean, hyst):
    """Upward crossings of f through mean, armed only after f went below mean - hyst."""
    out, armed = [], False
    for i in range(1, len(t)):
        if f[i - 1] - mean < -hyst:
            armed = True
        if armed and f[i - 1] < mean <= f[i]:
            out.append(t[i - 1] + (t[i] - t[i - 1]) * (mean - f[i - 1]) / (f[i] - f[i - 1]))
            armed = False
    return out


def fft(a):
    n = len(a)
    if n == 1:
        return a
    even, odd = fft(a[0::2]), fft(a[1::2])
    tw = [cmath.exp(-2j * math.pi * k / n) * odd[k] for k in range(n // 2)]
    return [even[k] + tw[k] for k in range(n // 2)] + [even[k] - tw[k] for k in range(n // 2)]


def spectrum(t, f, nmax=8192):
    """One-sided Hann periodogram of f resampled to a power-of-two uniform grid: (freqs, power)."""
    n = 1
    while n * 2 <= min(len(t), nmax):
        n *= 2
    n = max(n, 16)
    dt = (t[-1] - t[0]) / n
    j, u = 0, []
    for k in range(n):
        x = t[0] + (k + 0.5) * dt
        while t[j + 1] < x:
            j += 1
        u.append(f[j] + (f[j + 1] - f[j]) * (x - t[j]) / (t[j + 1] - t[j]))
    m = sum(u) / n
    w = [0.5 - 0.5 * math.cos(2 * math.pi * (k + 0.5) / n) for k in range(n)]
    F = fft([complex((u[k] - m) * w[k]) for k in range(n)])
    return [k / (n * dt) for k in range(n // 2)], [abs(F[k]) ** 2 for k in range(n // 2)]


def spectral_peak(freqs, power):
    """The largest bin refined by a parabola through the logarithms of it and its neighbours:
    exact for a Gaussian peak, and the Hann window's main lobe is nearly one (on a linear
    scale the parabola was off by up to a tenth of a bin)."""
    k = max(range(1, len(power) - 1), key=lambda i: power[i])
    tiny = 1e-300 + 1e-30 * power[k]
    a, b, c = (math.log(max(power[i], tiny)) for i in (k - 1, k, k + 1))
    den = a - 2 * b + c
    shift = 0.5 * (a - c) / den if den != 0 else 0.0
    return freqs[k] + shift * (freqs[1] - freqs[0])


def window(t, f, a, b):
    """The piecewise-linear f restricted to [a, b] (end points interpolated)."""
    def at(x):
        for i in range(len(t) - 1):
            if t[i] <= x <= t[i + 1]:
                return f[i] + (f[i + 1] - f[i]) * (x - t[i]) / (t[i + 1] - t[i])
        return f[-1]
    tt = [a] + [x for x in t if a < x < b] + [b]
    return tt, [at(a)] + [f[i] for i in range(len(t)) if a < t[i] < b] + [at(b)]


# ---------------------------------------------------------------- batches
def default_batches(cycles):
    """The batch count for C whole cycles: C // 4 (4 cycles a batch) kept within 5..10, but
    never more than C // 3, so that every batch holds at least 3 whole cycles."""
    return min(max(5, cycles // 4), 10, cycles // 3)


def cycle_batches(ups, nbatches):
    """Batches of whole cycles between the upward crossings ups: B + 1 cut times, each a
    crossing, the C = len(ups) - 1 cycles shared out as evenly as whole cycles allow."""
    cuts = even_groups(len(ups) - 1, nbatches)
    return [ups[k] for k in cuts], [cuts[k + 1] - cuts[k] for k in range(nbatches)]


MIN_SPECTRUM_CYCLES = 4  # a batch's spectral peak stands clear of the Hann window's zero lobe


def batch_force_stats(t, cd, cl, a, b, cycles):
    """The force statistics of one batch [a, b] of `cycles` whole cycles."""
    tt, d = window(t, cd, a, b)
    _, lift = window(t, cl, a, b)
    m = time_mean(tt, lift)
    s = {'mean_cd': time_mean(tt, d),
         'rms_cl': math.sqrt(max(time_mean(tt, [(x - m) ** 2 for x in lift]), 0.0)),
         'st': cycles / (b - a)}
    if cycles >= MIN_SPECTRUM_CYCLES:
        s['st_spectrum'] = spectral_peak(*spectrum(tt, lift))
    return s


def force_stats(t, cd, cl, tstart, tend, nbatches=None):
    """Statistics over [tstart, tend] and, with enough whole cycles, their batch-means
    intervals: s['ci'][name] = (half-width, B); s['batches'] = per-batch rows."""
    idx = [i for i in range(len(t)) if tstart <= t[i] <= tend]
    if len(idx) < 3:
        die(f'fewer than 3 force samples in t = [{tstart:g}, {tend:g}] (the history covers '
            f'{t[0]:g} to {t[-1]:g})')
    t, cd, cl = [t[i] for i in idx], [cd[i] for i in idx], [cl[i] for i in idx]
    s = {'t0': t[0], 't1': t[-1], 'mean_cd': time_mean(t, cd), 'ci': {}, 'batches': []}
    mcl = time_mean(t, cl)
    s['rms_cl'] = math.sqrt(max(time_mean(t, [(x - mcl) ** 2 for x in cl]), 0.0))
    ups = crossings(t, cl, mcl, 0.1 * s['rms_cl'])
    s['cycles'] = max(len(ups) - 1, 0)
    if s['cycles'] >= 3:
        s['st'] = s['cycles'] / (ups[-1] - ups[0])
        s['mean_cd_cycles'] = time_mean(*window(t, cd, ups[0], ups[-1]))
        tt, lift = window(t, cl, ups[0], ups[-1])
        m = time_mean(tt, lift)
        s['rms_cl_cycles'] = math.sqrt(max(time_mean(tt, [(x - m) ** 2 for x in lift]), 0.0))
    freqs, power = spectrum(t, cl)
    s['st_spectrum'] = spectral_peak(freqs, power)
    s['spectrum'] = (freqs, power)
    nb = nbatches if nbatches else default_batches(s['cycles'])
    if nbatches and nbatches > s['cycles']:
        die(f'--batches {nbatches}: only {s["cycles"]} whole lift cycles in t = [{t[0]:g}, {t[-1]:g}]')
    s['nbatches'] = nb
    if nb < MIN_BATCHES:
        return s
    cuts, counts = cycle_batches(ups, nb)
    for k in range(nb):
        row = batch_force_stats(t, cd, cl, cuts[k], cuts[k + 1], counts[k])
        row.update(t_a=cuts[k], t_b=cuts[k + 1], cycles=counts[k])
        s['batches'].append(row)
    for name in ('mean_cd', 'rms_cl', 'st', 'st_spectrum'):
        vals = [r[name] for r in s['batches'] if name in r]
        if len(vals) == nb:
            s['ci'][name] = (interval95(vals), nb)
    # the batches tile exactly the whole cycles that mean is taken over
    s['ci']['mean_cd_cycles'], s['ci']['rms_cl_cycles'] = s['ci']['mean_cd'], s['ci']['rms_cl']
    return s
