#!/usr/bin/env python3
"""Reads the device code out of a host object file that nvcc compiled (`nvcc -c`), without
cuobjdump (the toolkit here has none): the `.nv_fatbin` section holds one or more fat binaries,
each a 16-byte header (magic 0xBA55ED50, version, header size, size of the entries) followed by
entries, each with its own header (kind 2 = an ELF cubin, 1 = PTX; the header's size; the payload's
size; the arch as a number at byte 28) and the payload. Layout read off objects of nvcc 13.0;
ctest `cuda_fatbin_reader` checks it against nvcc on a kernel of known registers. A cubin's
payload must start with the ELF magic, or the entry was compressed (nvcc compresses large device
code unless told `--no-compress`), which this reader refuses with that reason rather than guess.

Registers per kernel come from the cubin itself (its `.nv.info` section's EIATTR_REGCOUNT records:
symbol index and count), so no `-Xptxas -v` log, and no recompilation, is needed: the build's own
object is read as it was built.

  fatbin.py OBJECT --arch sm_89 --out DIR   # writes DIR/<object>-sm_89-<i>.cubin, prints how many
"""
import argparse
import os
import struct
import subprocess
import sys
import tempfile

FATBIN_MAGIC = 0xBA55ED50
KIND_CUBIN = 2
EIFMT_SVAL, EIATTR_REGCOUNT = 4, 0x2F


class FatbinError(Exception):
    pass


def fatbin_section(obj):
    """The raw `.nv_fatbin` section of a host object (objcopy, from binutils)."""
    with tempfile.TemporaryDirectory() as tmp:
        out = os.path.join(tmp, 'fatbin')
        r = subprocess.run(['objcopy', '-O', 'binary', '--only-section=.nv_fatbin', obj, out],
                           capture_output=True, text=True)
        if r.returncode != 0 or not os.path.exists(out) or os.path.getsize(out) == 0:
            raise FatbinError(f'{obj}: no .nv_fatbin section (not an object nvcc compiled with -c?) '
                              f'{r.stderr.strip()}')
        return open(out, 'rb').read()


def cubins(data, arch_number):
    """The cubins of one arch in a fat binary section, in order."""
    found, off = [], 0
    while off + 16 <= len(data):
        magic, _version, header, size = struct.unpack_from('<IHHQ', data, off)
        if magic != FATBIN_MAGIC:
            # Fat binaries are aligned within the section; zero padding between them.
            if data[off:off + 8] == b'\0' * 8:
                off += 8
                continue
            raise FatbinError(f'byte {off}: magic {magic:#x}, not a fat binary (0x{FATBIN_MAGIC:X})')
        entry, end = off + header, off + header + size
        while entry < end:
            kind, _, eheader, payload = struct.unpack_from('<HHIQ', data, entry)
            arch, = struct.unpack_from('<I', data, entry + 28)
            body = data[entry + eheader:entry + eheader + payload]
            if kind == KIND_CUBIN and arch == arch_number:
                if body[:4] != b'\x7fELF':
                    raise FatbinError(f'the sm_{arch} cubin at byte {entry} is compressed; compile with '
                                      '--no-compress (scripts/check-gpu-builds does) to read it')
                found.append(body)
            entry += eheader + payload
        off = end
    return found


def elf_sections(d):
    shoff, = struct.unpack_from('<Q', d, 0x28)
    shentsize, shnum, shstrndx = struct.unpack_from('<HHH', d, 0x3a)
    hdrs = [struct.unpack_from('<IIQQQQIIQQ', d, shoff + i * shentsize) for i in range(shnum)]
    names = d[hdrs[shstrndx][4]:hdrs[shstrndx][4] + hdrs[shstrndx][5]]
    return [(names[h[0]:names.index(b'\0', h[0])].decode(), h) for h in hdrs]


def registers(cubin):
    """{kernel symbol: registers} from the cubin's .nv.info EIATTR_REGCOUNT records."""
    sections = elf_sections(cubin)
    symbols = []
    for name, h in sections:
        if name == '.symtab':
            strtab = sections[h[6]][1]
            strings = cubin[strtab[4]:strtab[4] + strtab[5]]
            table = cubin[h[4]:h[4] + h[5]]
            for j in range(len(table) // 24):
                n, = struct.unpack_from('<I', table, j * 24)
                symbols.append(strings[n:strings.index(b'\0', n)].decode())
    regs = {}
    for name, h in sections:
        if name != '.nv.info':
            continue
        b, i = cubin[h[4]:h[4] + h[5]], 0
        while i + 4 <= len(b):
            fmt, attr = b[i], b[i + 1]
            if fmt != EIFMT_SVAL:
                i += 4  # EIFMT_NVAL / BVAL / HVAL: the value sits in the 4-byte record itself
                continue
            size, = struct.unpack_from('<H', b, i + 2)
            if attr == EIATTR_REGCOUNT and size >= 8:
                sym, count = struct.unpack_from('<II', b, i + 4)
                if sym < len(symbols):
                    regs[symbols[sym]] = count
            i += 4 + size
    return regs


def arch_number(arch):
    if not arch.startswith('sm_') or not arch[3:].rstrip('a').isdigit():
        raise FatbinError(f'arch {arch!r} is not sm_NN')
    return int(arch[3:].rstrip('a'))


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument('object')
    ap.add_argument('--arch', required=True)
    ap.add_argument('--out', required=True)
    args = ap.parse_args()
    try:
        found = cubins(fatbin_section(args.object), arch_number(args.arch))
    except FatbinError as e:
        print(f'fatbin.py: {e}', file=sys.stderr)
        return 1
    if not found:
        print(f'fatbin.py: {args.object} holds no {args.arch} cubin', file=sys.stderr)
        return 1
    os.makedirs(args.out, exist_ok=True)
    stem = os.path.splitext(os.path.basename(args.object))[0]
    for i, c in enumerate(found):
        with open(os.path.join(args.out, f'{stem}-{args.arch}-{i}.cubin'), 'wb') as f:
            f.write(c)
    print(f'{args.object}: {len(found)} {args.arch} cubin(s)')
    return 0


if __name__ == '__main__':
    sys.exit(main())
