#!/usr/bin/env python3
"""Every relative link of README.md and docs/*.md resolves: the file or folder exists, and an
#anchor names a heading of the target markdown file as GitHub slugs it (lower case, punctuation
dropped, each space a hyphen, a repeated heading -1, -2, ...). Links inside fenced code blocks and
inline code are not links; http(s) and mailto links are not checked (no network here).
Prints each broken link as FILE:LINE: [text](target): why, and exits 1.

  doc_links_test.py ROOT [FILE.md ...]   check ROOT's README.md and docs/*.md (or the files given)
  doc_links_test.py --self-test          show that the check finds links planted broken
"""
import os
import re
import sys
import tempfile

FENCE = re.compile(r'^\s*(```|~~~)')
ATX = re.compile(r'^\s{0,3}(#{1,6})\s+(.*?)\s*#*\s*$')
SETEXT = re.compile(r'^\s{0,3}(=+|-+)\s*$')
CODE_SPAN = re.compile(r'(`+)(.+?)\1')
# [text](target "title") and ![alt](target); the text may hold one level of brackets.
LINK = re.compile(r'!?\[((?:[^\[\]]|\[[^\]]*\])*)\]\(\s*<?([^)\s>]*)>?(?:\s+"[^"]*")?\s*\)')
REF_DEF = re.compile(r'^\s{0,3}\[([^\]]+)\]:\s*<?(\S+?)>?(?:\s+"[^"]*")?\s*$')
HTML_ATTR = re.compile(r'<(?:a|img)\b[^>]*?\b(?:href|src)="([^"]*)"', re.I)
HTML_ID = re.compile(r'<a\b[^>]*?\b(?:name|id)="([^"]+)"', re.I)
SCHEME = re.compile(r'^[a-zA-Z][a-zA-Z0-9+.-]*:')


def prose_lines(text):
    """(line number, line) of every line outside fenced code blocks."""
    fence = None
    for n, line in enumerate(text.split('\n'), 1):
        m = FENCE.match(line)
        if m:
            if fence is None:
                fence = m.group(1)
            elif m.group(1) == fence:
                fence = None
            continue
        if fence is None:
            yield n, line


def slug(heading):
    """GitHub's anchor of a heading's text (github-slugger on the rendered text)."""
    text = re.sub(r'!?\[((?:[^\[\]]|\[[^\]]*\])*)\]\([^)]*\)', r'\1', heading)  # links: their text
    text = text.replace('`', '')
    text = re.sub(r'\\(.)', r'\1', text)  # escapes: the character
    text = re.sub(r'<[^>]+>', '', text)  # inline HTML tags
    text = text.lower()
    text = ''.join(c for c in text if c.isalnum() or c in '_- ' or (not c.isascii() and c.isalpha()))
    return text.replace(' ', '-')


def anchors(path):
    """Every anchor a markdown file offers: its headings' slugs (repeats numbered) and HTML ids."""
    with open(path, encoding='utf-8') as f:
        text = f.read()
    seen, out = {}, set()
    previous = None
    for _, line in prose_lines(text):
        heading = None
        m = ATX.match(line)
        if m:
            heading = m.group(2)
        elif previous and previous.strip() and SETEXT.match(line) and not ATX.match(previous):
            heading = previous.strip()
        if heading is not None:
            s = slug(heading)
            n = seen.get(s, 0)
            seen[s] = n + 1
            out.add(s if n == 0 else f'{s}-{n}')
        out.update(HTML_ID.findall(line))
        previous = line
    return out


def links(text):
    """(line number, text, target) of every link outside code."""
    for n, line in prose_lines(text):
        plain = CODE_SPAN.sub(lambda m: ' ' * len(m.group(0)), line)
        for m in LINK.finditer(plain):
            yield n, m.group(1), m.group(2)
        m = REF_DEF.match(plain)
        if m:
            yield n, m.group(1), m.group(2)
        for target in HTML_ATTR.findall(plain):
            yield n, target, target


def check_file(root, path, cache):
    problems = []
    rel = os.path.relpath(path, root)
    with open(path, encoding='utf-8') as f:
        text = f.read()
    for n, label, target in links(text):
        where = f'{rel}:{n}: [{label}]({target})'
        if not target or SCHEME.match(target):
            if not target:
                problems.append(f'{where}: empty target')
            continue
        file_part, _, anchor = target.partition('#')
        dest = path if not file_part else os.path.normpath(
            os.path.join(os.path.dirname(path), file_part))
        if not os.path.abspath(dest).startswith(os.path.abspath(root) + os.sep):
            problems.append(f'{where}: points outside the repository')
            continue
        if not os.path.exists(dest):
            problems.append(f'{where}: {os.path.relpath(dest, root)} does not exist')
            continue
        if not anchor:
            continue
        if os.path.isdir(dest):
            problems.append(f'{where}: an anchor on a folder')
        elif dest.endswith('.md'):
            if dest not in cache:
                cache[dest] = anchors(dest)
            if anchor not in cache[dest]:
                problems.append(f'{where}: no heading of {os.path.relpath(dest, root)} '
                                f'has the anchor #{anchor}')
        elif not re.fullmatch(r'L\d+(-L\d+)?', anchor):
            problems.append(f'{where}: #{anchor} on a file that is not markdown')
    return problems


def default_files(root):
    files = [os.path.join(root, 'README.md')]
    docs = os.path.join(root, 'docs')
    if os.path.isdir(docs):
        for dirpath, _, names in os.walk(docs):
            files += [os.path.join(dirpath, n) for n in sorted(names) if n.endswith('.md')]
    return files


def check(root, files=None):
    cache, problems = {}, []
    for path in files or default_files(root):
        problems += check_file(root, path, cache)
    return problems


def self_test():
    """The check on a tree with planted mistakes: each is found, named by file and line, and
    nothing that resolves is reported."""
    with tempfile.TemporaryDirectory() as root:
        os.makedirs(os.path.join(root, 'docs'))
        os.makedirs(os.path.join(root, 'data'))
        with open(os.path.join(root, 'data', 'x.svg'), 'w') as f:
            f.write('<svg/>')
        with open(os.path.join(root, 'README.md'), 'w') as f:
            f.write('# Title\n\n## Exit codes\n\n## The `--workload` option: I\\* and B_read\n\n'
                    '## Exit codes\n\n'
                    'Good: [a](docs/a.md), [b](docs/a.md#building-without-root-or-not-on-debian),\n'
                    '[c](#exit-codes), [c1](#exit-codes-1), [d](#the---workload-option-i-and-b_read),\n'
                    '![e](data/x.svg), [f](data/), [g](https://example.invalid/nowhere).\n'
                    'Bad: [h](docs/missing.md) and [i](#exit-code)\n'
                    '```\n[in a code block](nowhere.md)\n```\n'
                    'Not a link: `[code](nowhere.md)`. Bad: ![j](data/y.svg)\n')
        with open(os.path.join(root, 'docs', 'a.md'), 'w') as f:
            f.write('# A\n\n## Building without root, or not on Debian\n\n'
                    'Good: [k](../README.md#title). Bad: [l](../README.md#building),\n'
                    '[m](../../outside.md), [n](../data/x.svg#frag)\n')
        got = sorted(check(root))
        want = sorted([
            'README.md:12: [h](docs/missing.md): docs/missing.md does not exist',
            'README.md:12: [i](#exit-code): no heading of README.md has the anchor #exit-code',
            'README.md:16: [j](data/y.svg): data/y.svg does not exist',
            'docs/a.md:5: [l](../README.md#building): no heading of README.md has the anchor #building',
            'docs/a.md:6: [m](../../outside.md): points outside the repository',
            'docs/a.md:6: [n](../data/x.svg#frag): #frag on a file that is not markdown',
        ])
        if got != want:
            print('the check did not report the planted mistakes as expected')
            print('got:\n  ' + '\n  '.join(got))
            print('want:\n  ' + '\n  '.join(want))
            return 1
    print(f'doc_links: all {len(want)} planted mistakes found, nothing else')
    return 0


def main(argv):
    if len(argv) == 2 and argv[1] == '--self-test':
        return self_test()
    if len(argv) < 2:
        print(__doc__)
        return 2
    root = os.path.abspath(argv[1])
    files = [os.path.abspath(a) for a in argv[2:]] or None
    problems = check(root, files)
    for p in problems:
        print(p)
    checked = files or default_files(root)
    if problems:
        print(f'doc_links: {len(problems)} broken link(s) in {len(checked)} file(s)')
        return 1
    print(f'doc_links: every relative link and anchor of {len(checked)} file(s) resolves')
    return 0


if __name__ == '__main__':
    sys.exit(main(sys.argv))
