"""What tools/cylinder-stats and tools/re3900-table share: atomic CSV writes, gnuplot, and the
published data kept in docs/data/re3900/reference."""
import csv
import glob
import os
import subprocess

from cylinder_stats_forces import die


def write_csv(path, head, rows):
    tmp = path + '.tmp'
    with open(tmp, 'w', newline='') as f:
        w = csv.writer(f)
        w.writerow(head)
        w.writerows(rows)
    os.replace(tmp, path)


def gnuplot(png, body, size='900,600'):
    tmp = png + '.tmp.png'
    script = f'set terminal pngcairo size {size} font ",11"\nset output "{tmp}"\nset grid\n' + body
    r = subprocess.run(['gnuplot'], input=script, text=True, capture_output=True)
    if r.returncode:
        die(f'gnuplot failed on {png}: {r.stderr.strip()}')
    os.replace(tmp, png)


def read_reference(folder):
    """Published data: every CSV of the folder, '#' lines first (one '# label: TEXT'), then a
    header naming its columns: x, y and a quantity (u, v, uu, vv, uv) for the wake profiles,
    x and u for the wake axis, theta_deg and cp for the wall."""
    refs = []
    for path in sorted(glob.glob(os.path.join(folder, '*.csv'))) if folder else []:
        label, lines = os.path.basename(path), []
        with open(path) as f:
            for ln in f:
                if ln.startswith('# label:'):
                    label = ln[len('# label:'):].strip()
                elif not ln.startswith('#') and ln.strip():
                    lines.append(ln)
        rows = list(csv.DictReader(lines))
        try:
            refs.append({'label': label, 'cols': set(rows[0]),
                         'rows': [{k: float(v) for k, v in r.items()} for r in rows]})
        except (IndexError, ValueError, TypeError):
            die(f'{path}: expected a header and rows of numbers after the # lines')
    return refs
