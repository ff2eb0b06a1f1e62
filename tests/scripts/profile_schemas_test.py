#!/usr/bin/env python3
"""Each profile schema (profiles/machines/schema.md, profiles/sweeps/schema.md) documents every
field its reader accepts, and no field the reader refuses: the known fields are the reader's
`only({...})` lists (and the machine reader's `cpu` keys), the documented ones the first column of
the schema's tables. Prints each difference and exits 1."""
import os
import re
import sys

ONLY = re.compile(r'\.only\(\s*\{(.*?)\}\s*\)', re.S)
CPU_KEY = re.compile(r'key != "(\w+)"')
ROW = re.compile(r'^\| `([^`]+)`', re.M)


def known_fields(source):
    """The field names a reader's source accepts."""
    names = set()
    for group in ONLY.findall(source):
        names.update(re.findall(r'"(\w+)"', group))
    names.update(CPU_KEY.findall(source))
    return names


def documented_fields(markdown):
    """The last part of each field path in the tables' first column ("levels[].per" -> "per");
    issue_rates' inside is read by the code checks (tools/arith_ceiling.py), not the
    reader, so it is left out."""
    names = set()
    for path in ROW.findall(markdown):
        if path.startswith('issue_rates.'):
            continue
        names.add(path.split('.')[-1].replace('[]', ''))
    return names


def differences(reader, known, schema, documented):
    return ([f'{schema}: `{n}` is accepted by {reader} but not documented' for n in sorted(known - documented)] +
            [f'{schema}: `{n}` is documented but {reader} does not accept it' for n in sorted(documented - known)])


def planted_mistakes_are_found():
    """The check itself can fail: an undocumented field and a documented one no reader knows."""
    source = 'f.only({"name", "clock"}); f.only({"extra"});'
    markdown = '| `name` | x |\n| `clock.ghost` | y |\n| `issue_rates.per` | z |\n'
    found = differences('r', known_fields(source), 's', documented_fields(markdown))
    want = ['s: `extra` is accepted by r but not documented', 's: `clock` is accepted by r but not documented',
            's: `ghost` is documented but r does not accept it']
    if sorted(found) != sorted(want):
        print('the check misses planted mistakes:', found)
        return False
    return True


def main():
    root = sys.argv[1] if len(sys.argv) > 1 else os.path.join(os.path.dirname(__file__), '..', '..')
    if not planted_mistakes_are_found():
        return 1
    problems = []
    for reader, schema in (('reports/machines/machine_profile.cpp', 'profiles/machines/schema.md'),
                           ('harness/sweep/sweep_profile.cpp', 'profiles/sweeps/schema.md')):
        with open(os.path.join(root, reader)) as f:
            known = known_fields(f.read())
        with open(os.path.join(root, schema)) as f:
            documented = documented_fields(f.read())
        if not known or not documented:
            problems.append(f'{reader} or {schema}: no fields found (the check no longer reads them)')
        problems += differences(reader, known, schema, documented)
    for p in problems:
        print(p)
    print(f'{len(problems)} differences' if problems else 'every field the readers accept is documented')
    return 1 if problems else 0


if __name__ == '__main__':
    sys.exit(main())
