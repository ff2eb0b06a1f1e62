#!/usr/bin/env python3
"""The arithmetic-ceiling rule (tools/arith_ceiling.py) on loops written here, against
the shipped machine sheets and sweep profiles: an fp64 read fails on sm_89 and passes on sm_90,
an fp32 read passes both, an index-heavy loop fails on issue or int32, a planned point without a
loop fails, and the GPU profiles plan no fp64 pyramid. The SASS side: check_codegen.py's
ceiling_loops finds a stream's round loop and an SRAM sweep and counts their classes."""
import os
import struct
import sys
import unittest

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, '..', '..', 'tools'))
sys.path.insert(0, os.path.join(HERE, '..', '..', 'tools', 'cuda'))
import arith_ceiling as ac  # noqa: E402
import check_codegen as cc  # noqa: E402


def read_loop(dtype, extra_int=0):
    """A round of 8 16-byte loads summed lane by lane, with 3 int32 per vector of index work."""
    adds = 8 * (4 if dtype == 'fp32' else 2)
    ints = 8 * 3 + extra_int
    return {'bytes': 128, 'counts': {dtype: adds, 'int32': ints, 'load_store': 8,
                                     'issue': adds + ints + 8 + 1}}


def loops_for(dtype, **kw):
    keys = list(ac.planned(device=True))
    return {k: [read_loop(dtype, **kw)] for k in keys}


class Rule(unittest.TestCase):
    def test_sheets_of_each_arch_have_rates_and_levels(self):
        for arch, n in (('sm_89', 1), ('sm_90', 2), ('gfx90a', 2), ('gfx942', 1)):
            sheets = ac.sheets_for(arch)
            self.assertEqual(len(sheets), n, arch)
            for name, s in sheets:
                self.assertTrue(ac.rates(s), name)
                self.assertIn('DRAM', ac.level_limits(s))

    def test_fp64_read_is_capped_on_ada_not_on_hopper(self):
        loop = read_loop('fp64')
        ada = ac.ceilings(loop, ac.rates(ac.sheets_for('sm_89')[0][1]))
        hopper = ac.ceilings(loop, ac.rates(ac.sheets_for('sm_90')[0][1]))
        self.assertEqual(min(ada, key=ada.get), 'fp64')
        self.assertAlmostEqual(ada['fp64'], 2 * 128 / 16)  # 2 DADD/clk, 8 bytes each
        self.assertGreaterEqual(min(hopper.values()), ac.MARGIN * 128)

    def test_fp32_pyramid_passes_and_fp64_fails_on_sm_89(self):
        rows, failures = ac.judge('sm_89', loops_for('fp32'), device=True)
        self.assertEqual(failures, [])
        self.assertTrue(any(r['level'] == 'L1' and r['probe'] == 'cache_read' for r in rows))
        # The same loops in fp64, checked as if the profiles planned them: every on-chip row fails.
        rows, failures = ac.judge('sm_89', {k: [read_loop('fp64')] for k in ac.planned(True)},
                                  device=True)
        on_chip = [r for r in rows if r['level'] in ('L1', 'SRAM')]
        self.assertTrue(on_chip and not any(r['ok'] for r in on_chip))

    def test_index_arithmetic_counts(self):
        # 5 more int32 per vector: 64 x 128 / 64 = 128 B/clk, under 1.5 x L1.
        rows, failures = ac.judge('sm_89', loops_for('fp32', extra_int=40), device=True)
        self.assertTrue(any('int32' in f and 'cache_read' in f for f in failures), failures)

    def test_a_planned_point_without_its_loop_fails(self):
        loops = loops_for('fp32')
        del loops[('sram_read', 'fp32')]
        _, failures = ac.judge('sm_90', loops, device=True)
        self.assertTrue(any('sram_read<fp32>' in f and 'not found' in f for f in failures), failures)

    def test_gpus_plan_no_fp64_pyramid_and_hosts_keep_theirs(self):
        device = ac.planned(device=True)
        self.assertFalse([k for k in device if k[1] == 'fp64' and k[0].startswith(('cache_', 'sram_'))])
        host = ac.planned(device=False)
        self.assertIn(('cache_read', 'fp64'), host)
        self.assertIn('nightly', host[('sram_read', 'fp64')])


def sass(words, arch='sm_89'):
    """Instruction words with a backward BRA closing a loop over all of them, then EXIT."""
    ws = [w if isinstance(w, tuple) else (w, 0) for w in words]
    offset = (0 - len(ws) - 1) * 16
    ws.append((cc.BRA | ((offset & 0xFFFFFFFF) << 32), 0))
    ws.append((cc.EXIT, 0))
    return b''.join(struct.pack('<QQ', lo, hi) for lo, hi in ws)


LDG128, LDS128, STS128 = (cc.LDG, 0xD << 8), (cc.LDS, 0xC << 8), (cc.STS, 0xC << 8)
FADD, DADD, IADD3, ISETP, SEL = 0x221, 0x229, 0x210, 0x20C, 0x207


class Sass(unittest.TestCase):
    def test_stream_round(self):
        loop = [LDG128] * 4 + [FADD] * 16 + [IADD3, ISETP, SEL] * 4
        found = cc.ceiling_loops(sass(loop), 'sm_89', 'stream')
        self.assertEqual(found, [{'bytes': 64, 'counts': {'load_store': 4, 'fp32': 16, 'int32': 12,
                                                          'issue': 33}}])

    def test_sram_sweep_and_not_its_fill(self):
        sweep = [LDS128, LDS128] + [DADD] * 4 + [IADD3]
        found = cc.ceiling_loops(sass(sweep), 'sm_89', 'sram')
        self.assertEqual(found[0]['bytes'], 32)
        self.assertEqual(found[0]['counts']['fp64'], 4)
        fill = [LDG128, STS128, IADD3]
        self.assertEqual(cc.ceiling_loops(sass(fill), 'sm_89', 'sram'), [])


if __name__ == '__main__':
    unittest.main()
