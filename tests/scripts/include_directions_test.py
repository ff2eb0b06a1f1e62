#!/usr/bin/env python3
"""Every quoted include of the project's C++ is written from the project root and points down the
component order: cli -> {harness, reports} -> results -> core, harness -> backends -> core,
connector -> results (the kernels file's types and writer) -> core.
A component may include itself and anything below it; tests include anything. Inside a
component, its folders (reports/fit, reports/levels, ...) include each other without a loop. Prints
each offending include as file:line and exits 1; with --counts prints the edges between components
and between the folders of each component."""
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
    'connector': {'results', 'core'},
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


def check(root):
    """The offending includes of the tree at `root`, and the include counts between components."""
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
    return problems, edges


def folder_loops(root):
    """Loops between the folders of one component (reports/fit -> reports/levels -> reports/fit):
    each as 'a -> b -> a' with one include of each arrow, and the folder edges with counts."""
    edges, example = {}, {}
    for rel, n, target in includes(root):
        parts, to = rel.split('/'), target.split('/')
        if len(parts) < 3 or len(to) < 3 or parts[0] != to[0] or parts[1] == to[1]:
            continue
        a, b = f'{parts[0]}/{parts[1]}', f'{to[0]}/{to[1]}'
        if not os.path.isdir(os.path.join(root, b)):
            continue
        edges[(a, b)] = edges.get((a, b), 0) + 1
        example.setdefault((a, b), f'{rel}:{n}')
    graph = {}
    for a, b in edges:
        graph.setdefault(a, set()).add(b)
    loops, state = [], {}

    def visit(node, path):
        state[node] = 'open'
        for nxt in sorted(graph.get(node, ())):
            if state.get(nxt) == 'open':
                cycle = path[path.index(nxt):] + [nxt]
                arrows = ', '.join(example[(x, y)] for x, y in zip(cycle, cycle[1:]))
                loops.append(' -> '.join(cycle) + f' ({arrows})')
            elif nxt not in state:
                visit(nxt, path + [nxt])
        state[node] = 'done'

    for node in sorted(graph):
        if node not in state:
            visit(node, [node])
    return loops, edges


def planted_mistakes_are_found():
    """The check itself can fail: a tree with an upward, a sideways and an unrooted include."""
    import tempfile
    with tempfile.TemporaryDirectory() as t:
        files = {
            'core/a.hpp': '#include "reports/b.hpp"\n',         # up
            'reports/b.hpp': '#include "core/a.hpp"\n',         # down: fine
            'harness/c.cpp': '#include "cli/d.hpp"\n',          # up
            'results/e.cpp': '#include "e.hpp"\n',              # not from the root
            'results/e.hpp': '',
            'cli/d.hpp': '#include "harness/c.cpp"\n',         # down: fine
        }
        for rel, text in files.items():
            os.makedirs(os.path.join(t, os.path.dirname(rel)), exist_ok=True)
            with open(os.path.join(t, rel), 'w') as f:
                f.write(text)
        problems, _ = check(t)
    found = sorted(p.split(':')[0] for p in problems)
    if found != ['core/a.hpp', 'harness/c.cpp', 'results/e.cpp']:
        print('the check misses planted mistakes: found', problems)
        return False
    with tempfile.TemporaryDirectory() as t:  # a loop between two folders of one component
        for rel, text in {'reports/fit/a.hpp': '#include "reports/levels/b.hpp"\n',
                          'reports/levels/b.hpp': '#include "reports/fit/c.hpp"\n',
                          'reports/fit/c.hpp': ''}.items():
            os.makedirs(os.path.join(t, os.path.dirname(rel)), exist_ok=True)
            with open(os.path.join(t, rel), 'w') as f:
                f.write(text)
        loops, _ = folder_loops(t)
    if len(loops) != 1 or not loops[0].startswith('reports/fit -> reports/levels -> reports/fit'):
        print('the check misses a planted loop between folders: found', loops)
        return False
    return True


def main():
    args = [a for a in sys.argv[1:] if not a.startswith('--')]
    root = args[0] if args else os.path.join(os.path.dirname(__file__), '..', '..')
    if not planted_mistakes_are_found():
        return 1
    problems, edges = check(root)
    loops, folder_edges = folder_loops(root)
    problems += [f'folders include each other in a loop: {loop}' for loop in loops]
    if '--counts' in sys.argv:
        for (a, b), k in sorted(edges.items()):
            print(f'{a:>10} -> {b:<10} {k}')
        for (a, b), k in sorted(folder_edges.items()):
            print(f'{a:>18} -> {b:<18} {k}')
    for p in problems:
        print(p)
    print(f'{len(problems)} includes against the component order' if problems else
          'every include is rooted and points down, and no folders include each other in a loop')
    return 1 if problems else 0


if __name__ == '__main__':
    sys.exit(main())
