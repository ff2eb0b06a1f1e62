#!/usr/bin/env python3
"""Every quoted include of the project's C++ is written from the project root and points down the
component order: cli -> {harness, reports} -> results -> core, harness -> backends -> core.
A component may include itself and anything below it; tests include anything. Prints each
offending include as file:line and exits 1; with --counts prints the edges between components."""
import os
import re
import sys

# What each component may include besides itself (the direction the review asked for).
ALLOWED = {
    'core': set(),
    'results': {'core'},
    'backends': {'core'},
    'reports': {'results', 'core'},
    'harness': {'backends', 'results', 'core'},
    'connector': {'core'},
    'cli': {'harness', 'reports', 'backends', 'results', 'core'},
    'examples': set(),
    'tests': {'cli', 'harness', 'reports', 'backends', 'results', 'core', 'connector', 'examples'},
}
# Includes that are not paths in this tree: a generated header (build tree), the connector's public
# header (installed as <ridgeline/annotate.hpp>), and an example's own sibling (the example is
# written as a user's program would be).
NOT_ROOTED = {'provenance.hpp', 'app_kernels.hpp'}
EXTS = ('.cpp', '.hpp', '.h', '.cu', '.cc', '.in')
INCLUDE = re.compile(r'^\s*#\s*include\s+"([^"]+)"')


def includes(root):
    for comp in ALLOWED:
        for dirpath, _, names in os.walk(os.path.join(root, comp)):
            for name in sorted(names):
                if not name.endswith(EXTS):
                    continue
                path = os.path.join(dirpath, name)
                rel = os.path.relpath(path, root)
                with open(path, errors='replace') as f:
                    for n, line in enumerate(f, 1):
                        m = INCLUDE.match(line)
                        if m:
                            yield rel, n, m.group(1)


def main():
    args = [a for a in sys.argv[1:] if not a.startswith('--')]
    root = args[0] if args else os.path.join(os.path.dirname(__file__), '..', '..')
    problems, edges = [], {}
    for rel, n, target in includes(root):
        comp = rel.split('/')[0]
        if target in NOT_ROOTED or target.startswith('ridgeline/'):
            continue
        if not os.path.isfile(os.path.join(root, target)):
            problems.append(f'{rel}:{n}: "{target}" is not a path from the project root')
            continue
        to = target.split('/')[0]
        if to != comp:
            edges[(comp, to)] = edges.get((comp, to), 0) + 1
            if to not in ALLOWED.get(comp, set()):
                problems.append(f'{rel}:{n}: {comp}/ includes "{target}" ({to}/ is not below it)')
    if '--counts' in sys.argv:
        for (a, b), k in sorted(edges.items()):
            print(f'{a:>10} -> {b:<10} {k}')
    for p in problems:
        print(p)
    print(f'{len(problems)} includes against the component order' if problems else
          'every include is rooted and points down')
    return 1 if problems else 0


if __name__ == '__main__':
    sys.exit(main())
