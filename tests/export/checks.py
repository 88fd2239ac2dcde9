"""What the tools' Python tests share: named checks that print "ok" or "FAIL" and collect the
failures, so that a test reports every failed check before it exits non-zero."""

failures = []


def check(name, got, want, tol):
    ok = got is not None and abs(got - want) <= tol
    print(f'{"ok  " if ok else "FAIL"} {name}: {got} (expected {want} +- {tol})')
    if not ok:
        failures.append(name)


def truth(name, cond, detail=''):
    print(f'{"ok  " if cond else "FAIL"} {name} {detail}')
    if not cond:
        failures.append(name)
