#!/usr/bin/env python3
"""score_tables.py DIR IODASH - how many hand-written facts `IODASH compare --csv`
reads from the files of DIR (tests/fixtures/tables/{work,check}).

DIR/EXPECTED.tsv holds one fact a line, written by hand from the text:
    file<TAB>label<TAB>x<TAB>metric<TAB>value     ('#' lines are comments)
A fact is FOUND when one CSV row of its file carries the value (its mean, min
or max, within 0.01 % or 0.005) under a label that holds the expected one or
is held by it ('*' is any label), and whose x, x_name, metric or unit text
holds the expected x or metric ('*' x is any).  A value present only under
another label or x is MISREAD: a wrong reading counts worse than none.  A
label that looks like a derived column (a %, delta, diff, change, a bare
number) is DERIVED: a change column read as if it were a run.
These are the rules of the project's shared scoring tool, written again here
so that the tests run in a plain clone.

Prints one line per fact not found (MISREAD or missing), one per derived
label, and last the totals line
    score: FOUND of TOTAL found; MISREAD misread; DERIVED derived
Exit status 0, or 2 on a usage or file error.
"""
import csv
import io
import os
import re
import subprocess
import sys

DERIVED_WORD = re.compile(r'%|\bdelta\b|\bdiff\b|change', re.I)
DERIVED_NUMBER = re.compile(r'[(*]?\s*[-+]?[0-9]+(?:\.[0-9]+)?\s*%?\s*[)*]?')


def to_number(text):
    try:
        return float(str(text).replace(',', ''))
    except (TypeError, ValueError):
        return None


def read_rows(iodash, path):
    """The CSV rows iodash gives for one source; none when it gives no CSV."""
    try:
        run = subprocess.run([iodash, 'compare', '--csv', path], stdout=subprocess.PIPE,
                             stderr=subprocess.DEVNULL, timeout=60)
    except (OSError, subprocess.TimeoutExpired):
        return []
    text = run.stdout.decode('utf-8', 'replace')
    try:
        return list(csv.DictReader(io.StringIO(text)))
    except csv.Error:
        return []


def value_in_row(row, value):
    near = max(0.005, 1e-4 * abs(value))
    for key in ('mean', 'min', 'max'):
        got = to_number(row.get(key))
        if got is not None and abs(got - value) <= near:
            return True
    return False


def label_matches(want, got):
    if want == '*':
        return True
    want, got = want.lower(), (got or '').lower()
    return want in got or (got != '' and got in want)


def where_matches(x, metric, row):
    if x == '*':
        return True
    text = ' '.join(str(row.get(k) or '') for k in ('x', 'x_name', 'metric', 'unit')).lower()
    return x.lower() in text or metric.lower() in text


def looks_derived(label):
    label = (label or '').strip()
    return bool(DERIVED_WORD.search(label)) or bool(DERIVED_NUMBER.fullmatch(label))


def main(argv):
    if len(argv) != 3:
        sys.stderr.write(__doc__)
        return 2
    folder, iodash = argv[1], argv[2]
    expected = os.path.join(folder, 'EXPECTED.tsv')
    try:
        lines = open(expected, encoding='utf-8').read().splitlines()
    except OSError as e:
        sys.stderr.write('%s: %s\n' % (expected, e.strerror))
        return 2
    rows = {}
    found = total = misread = 0
    for number, line in enumerate(lines, 1):
        if not line.strip() or line.startswith('#'):
            continue
        cells = line.split('\t')
        if len(cells) != 5 or to_number(cells[4]) is None:
            sys.stderr.write('%s:%d: not file, label, x, metric, value\n' % (expected, number))
            return 2
        name, label, x, metric, value = cells[0], cells[1], cells[2], cells[3], to_number(cells[4])
        if name not in rows:
            rows[name] = read_rows(iodash, os.path.join(folder, name))
        total += 1
        seen = ok = False
        for row in rows[name]:
            if not value_in_row(row, value):
                continue
            seen = True
            if label_matches(label, row.get('label')) and where_matches(x, metric, row):
                ok = True
                break
        if ok:
            found += 1
            continue
        misread += seen
        print('%s  %s | %s | %s = %s' % ('MISREAD' if seen else 'missing', name, label, x, cells[4]))
    derived = sorted({'%s: %s' % (name, row.get('label')) for name, got in rows.items()
                      for row in got if looks_derived(row.get('label'))})
    for d in derived:
        print('DERIVED  ' + d)
    print('score: %d of %d found; %d misread; %d derived' % (found, total, misread, len(derived)))
    return 0


if __name__ == '__main__':
    sys.exit(main(sys.argv))
