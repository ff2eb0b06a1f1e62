#!/usr/bin/env python3
"""The thresholds of tools/hip/check_codegen.py on llvm-objdump text written here: each
check passes on the code it must pass and fails on the code the issue saw (fmac + mov, a rung
unrolled 2x or unlike its ladder's others, a peak loop under 99 %, loads split, waits too early,
spills, an SRAM word moved in pieces)."""
import os
import sys
import unittest

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), '..', '..', 'tools',
                                'hip'))
import check_codegen as cc  # noqa: E402

SYMBOL = '_Z6kernelv'
CLEAN = {'.vgpr_count': 20, '.sgpr_count': 12, '.agpr_count': 0, '.private_segment_fixed_size': 0,
         '.vgpr_spill_count': 0, '.sgpr_spill_count': 0}


def objdump(prologue, loop, epilogue=('s_endpgm',)):
    """llvm-objdump -d text of one function: prologue, a loop closed by a backward branch, end."""
    base, lines, address = 0x1600, [f'{0x1600:016x} <{SYMBOL}>:'], 0x1600
    loop_start = base + 8 * len(prologue)
    for op in list(prologue) + list(loop):
        lines.append(f'\t{op:58} // {address:012X}: 00000000')
        address += 8
    lines.append(f'\ts_cbranch_scc1 65000                                       // {address:012X}: '
                 f'BF85FEFB <{SYMBOL}+0x{loop_start - base:x}>')
    address += 8
    for op in epilogue:
        lines.append(f'\t{op:58} // {address:012X}: 00000000')
        address += 8
    return '\n'.join(lines)


def failures(kind, label, detail, text, meta=CLEAN):
    body = cc.parse_disassembly(text)[SYMBOL]
    return cc.failed_checks(kind, label, detail, meta, cc.analyse(SYMBOL, body))


FMA = 'v_fma_f64 v[2:3], s[2:3], v[2:3], v[18:19]'
FMAC = 'v_fmac_f64_e32 v[2:3], s[2:3], v[4:5]'
MOV = 'v_mov_b64 v[4:5], v[18:19]'
LOOP_CONTROL = ['s_add_i32 s4, s4, -16', 's_cmp_lg_u32 s4, 0']


class PeakLoop(unittest.TestCase):
    def test_fma_loop_passes(self):
        self.assertEqual(failures('peak', 'PeakProbe<fp64>', None, objdump([], [FMA] * 128 + LOOP_CONTROL)), [])

    def test_fmac_plus_mov_fails(self):
        msgs = failures('peak', 'PeakProbe<fp64>', None, objdump([], [FMAC, MOV] * 64 + LOOP_CONTROL))
        self.assertTrue(any('vector ALU 0.500' in m and '64 v_mov' in m for m in msgs), msgs)

    def test_no_loop_fails(self):
        msgs = failures('peak', 'PeakProbe<fp64>', None, objdump([], ['s_nop 0'] * 4))
        self.assertIn('no hot loop with >= 16 FMAs', msgs)

    def test_peak_under_99_percent_of_vector_alu_fails(self):  # passed the 95 % it had before
        loop = [FMA] * 128 + ['v_add_u32_e32 v1, 16, v1'] * 4 + LOOP_CONTROL
        msgs = failures('peak', 'PeakProbe<fp64>', None, objdump([], loop))
        self.assertTrue(any('vector ALU 0.970 < 0.99' in m for m in msgs), msgs)

    def test_rung_keeps_95_percent_of_vector_alu(self):  # the fp32 rungs: 79 of 83
        loop = [FMA] * 79 + ['v_add_u32_e32 v1, 16, v1'] * 4 + LOOP_CONTROL
        self.assertEqual(failures('ladder', 'FmaLadderProbe<fp32, K=64>', 64, objdump([], loop)), [])


class LadderRung(unittest.TestCase):
    def test_unrolled_2x_fails(self):  # 16 FMAs of 20 instructions, as K = 64 had on gfx90a
        loop = [FMA] * 16 + LOOP_CONTROL + ['s_nop 0']  # and the branch: 20
        msgs = failures('ladder', 'FmaLadderProbe<fp64, K=64>', 64, objdump([], loop))
        self.assertTrue(any('all instructions 0.800' in m for m in msgs), msgs)

    def test_unrolled_16x_passes(self):
        loop = [FMA] * 128 + LOOP_CONTROL
        self.assertEqual(failures('ladder', 'FmaLadderProbe<fp64, K=64>', 64, objdump([], loop)), [])

    def test_short_rungs_are_not_graded(self):
        self.assertEqual(failures('ladder', 'FmaLadderProbe<fp64, K=8>', 8, objdump([], ['s_nop 0'])), [])


class Unrolling(unittest.TestCase):
    """Every FmaLadderProbe rung with K >= 64 has its step loop unrolled like its ladder's others;
    the check did not exist before (each rung was graded on its own)."""
    RUNGS = [('FmaLadderProbe<fp64, K=64>', 64, 128), ('FmaLadderProbe<fp64, K=256>', 256, 56),
             ('FmaLadderProbe<fp64, K=4096>', 4096, 128), ('FmaLadderProbe<fp64, K=16>', 16, 128),
             ('FmaLadderProbe<fp64, K=256, xy>', 256, 112), ('FmaLadderProbe<fp64, K=512>', 512, None)]

    def test_rung_unrolled_unlike_its_ladder_fails(self):
        # 56 FMAs of 60 instructions pass the share thresholds: only the comparison catches it.
        msgs = cc.unrolling_failures(self.RUNGS, 'FmaLadderProbe<fp64, K=256>')
        self.assertEqual(len(msgs), 1, msgs)
        self.assertIn('holds 56 FMAs where the other rungs of FmaLadderProbe<fp64> hold 128', msgs[0])

    def test_rung_without_a_loop_fails(self):
        self.assertEqual(len(cc.unrolling_failures(self.RUNGS, 'FmaLadderProbe<fp64, K=512>')), 1)

    def test_rungs_unrolled_alike_pass(self):
        self.assertEqual(cc.unrolling_failures(self.RUNGS, 'FmaLadderProbe<fp64, K=4096>'), [])

    def test_forms_and_short_rungs_are_separate(self):
        for label in ('FmaLadderProbe<fp64, K=256, xy>', 'FmaLadderProbe<fp64, K=16>'):
            self.assertEqual(cc.unrolling_failures(self.RUNGS, label), [], label)

    def test_half_ladder_keeps_its_two_loop_shapes(self):
        rungs = [('HalfFmaLadderProbe<fp16, K=64>', 64, 256), ('HalfFmaLadderProbe<fp16, K=512>', 512, 1024)]
        self.assertEqual(cc.unrolling_failures(rungs, 'HalfFmaLadderProbe<fp16, K=64>'), [])


class Stream(unittest.TestCase):
    def stream(self, loads, waits_after, count=8, extra=()):
        pro = [f'global_load_{loads} v[{2 * i}:{2 * i + 1}], v[0:1], off' for i in range(count)]
        pro.insert(waits_after, 's_waitcnt vmcnt(0)')
        pro[0:0] = extra
        return objdump(pro + ['global_store_dwordx2 v[0:1], v[2:3], off'], [], ())

    def test_chunk_in_flight_passes(self):
        self.assertEqual(failures('stream', 'copy<fp64>', 'copy', self.stream('dwordx2', 8)), [])

    def test_early_wait_fails(self):
        msgs = failures('stream', 'copy<fp64>', 'copy', self.stream('dwordx2', 2))
        self.assertIn('16 bytes loaded before the first vmcnt wait < 64', msgs)

    def test_round_of_16_byte_vectors_passes(self):
        self.assertEqual(failures('stream', 'copy<fp64>', 'copy', self.stream('dwordx4', 4, 4)), [])

    def test_work_group_size_reads_are_not_split_elements(self):  # clang 19, gfx942 reductions
        text = self.stream('dwordx2', 8, extra=['global_load_ushort v36, v3, s[14:15]'])
        self.assertEqual(failures('stream', 'copy<fp64>', 'copy', text), [])

    def test_short_loads_of_data_fail(self):
        text = self.stream('dwordx2', 8, extra=['global_load_ushort v36, v[0:1], off'])
        self.assertIn('1 loads narrower than a fp64 element', failures('stream', 'copy<fp64>', 'copy', text))

    def test_split_element_fails(self):
        msgs = failures('stream', 'copy<fp64>', 'copy', self.stream('dword', 8))
        self.assertIn('8 loads narrower than a fp64 element', msgs)


    def test_kokkos3_launch_reports_load_order_without_failing(self):
        # Kokkos 3.x hands the kernel its functor through a pointer: what its loads look like is
        # Kokkos' code, reported as not graded.
        body = cc.parse_disassembly(self.stream('dword', 2))[SYMBOL]
        ungraded = []
        msgs = cc.failed_checks('stream', 'copy<fp64>', 'copy', CLEAN, cc.analyse(SYMBOL, body), ungraded)
        self.assertEqual(msgs, [])
        self.assertIn('8 loads narrower than a fp64 element', ungraded)
        self.assertTrue(any('before the first vmcnt wait' in m for m in ungraded), ungraded)

    def test_kokkos3_launch_still_fails_spills(self):
        meta = dict(CLEAN, **{'.vgpr_spill_count': 2, '.agpr_count': 4})
        body = cc.parse_disassembly(self.stream('dwordx2', 8))[SYMBOL]
        ungraded = []
        msgs = cc.failed_checks('stream', 'copy<fp64>', 'copy', meta, cc.analyse(SYMBOL, body), ungraded)
        self.assertEqual(len(msgs), 2, msgs)
        self.assertEqual(ungraded, [])


RD128, WR128 = 'ds_read_b128 v[4:7], v1', 'ds_write_b128 v1, v[4:7]'
RD2_B32, WR2_B32 = 'ds_read2_b32 v[4:5], v1 offset1:1', 'ds_write2_b32 v1, v4, v5 offset1:1'
FMA32 = 'v_fma_f32 v4, s2, v4, s3'


class Sram(unittest.TestCase):
    def test_word_wide_sweeps_pass(self):
        read = objdump([WR128], [RD128, RD128] + LOOP_CONTROL)
        self.assertEqual(failures('sram', 'sram_read<fp32>', 'read', read), [])
        update = objdump([WR128], [RD128, FMA32, WR128, RD128, FMA32, WR128] + LOOP_CONTROL)
        self.assertEqual(failures('sram', 'sram_update<fp32>', 'update', update), [])

    def test_a_word_updated_in_pieces_fails(self):  # what clang 15 made of the update by reference
        code = objdump([WR128], [RD2_B32, FMA32, WR2_B32, RD128, RD128] + LOOP_CONTROL)
        msgs = failures('sram', 'sram_update<fp32>', 'update', code)
        self.assertIn('LDS accesses in loops other than 16-byte ds_read_b128/ds_write_b128: '
                      '1 ds_read2_b32, 1 ds_write2_b32', msgs)
        self.assertIn('no ds_write_b128 in a loop', msgs)

    def test_one_word_in_flight_fails(self):
        msgs = failures('sram', 'sram_read<fp64>', 'read', objdump([WR128], [RD128] + LOOP_CONTROL))
        self.assertIn('no loop with 2 ds_read_b128 (most: 1)', msgs)

    def test_team_kernels_are_recognised(self):
        name = ('void Kokkos::Experimental::Impl::hip_parallel_launch_local_memory<Kokkos::Impl::'
                'ParallelFor<ridgeline::SramProbe<Kokkos::Experimental::HIP, float>::run_op<'
                '(ridgeline::SramOp)1>()::{lambda(Kokkos::Impl::HIPTeamMember const&)#1}, '
                'Kokkos::TeamPolicy<>, Kokkos::Experimental::HIP>, 1024u, 1u>(...)')
        self.assertEqual(cc.classify(name), ('sram', 'sram_update<fp32>', 'update'))


class Resources(unittest.TestCase):
    def test_spills_scratch_and_agprs_fail(self):
        meta = dict(CLEAN, **{'.vgpr_spill_count': 3, '.private_segment_fixed_size': 16, '.agpr_count': 4})
        msgs = failures('peak', 'PeakProbe<fp64>', None, objdump([], [FMA] * 128 + LOOP_CONTROL), meta)
        self.assertEqual(len(msgs), 3, msgs)


class Names(unittest.TestCase):
    def test_probe_kernels_are_recognised(self):
        name = ('void Kokkos::Impl::hip_parallel_launch_local_memory<Kokkos::Impl::ParallelFor<'
                'ridgeline::FmaLadderProbe<Kokkos::HIP, double, 256, (ridgeline::LadderForm)1>::run()'
                '::{lambda(unsigned long)#1}, Kokkos::RangePolicy<Kokkos::HIP>, Kokkos::HIP>, 1024u, 1u>'
                '(Kokkos::Impl::ParallelFor<...> const*)')
        self.assertEqual(cc.classify(name), ('ladder', 'FmaLadderProbe<fp64, K=256, xy>', 256))
        self.assertIsNone(cc.classify('void Kokkos::Impl::hip_parallel_launch_local_memory<Foo>()'))

    def test_functor_through_a_pointer_is_kokkos3s_local_launch(self):
        k3 = ('void Kokkos::Experimental::Impl::hip_parallel_launch_local_memory<Kokkos::Impl::'
              'ParallelFor<F, P, Kokkos::Experimental::HIP>, 128u, 4u>(Kokkos::Impl::ParallelFor<F, P, '
              'Kokkos::Experimental::HIP> const*)')
        k4 = ('void Kokkos::Impl::hip_parallel_launch_local_memory<Kokkos::Impl::ParallelFor<F, P, '
              'Kokkos::HIP>, 128u, 4u>(Kokkos::Impl::ParallelFor<F, P, Kokkos::HIP>)')
        k4_global = k4.replace('local_memory', 'global_memory').replace('Kokkos::HIP>)', 'Kokkos::HIP> const*)')
        self.assertTrue(cc.functor_by_pointer(k3))
        self.assertFalse(cc.functor_by_pointer(k4))
        self.assertFalse(cc.functor_by_pointer(k4_global))  # a large functor: still graded


class CeilingLoops(unittest.TestCase):
    """The loops and classes the arithmetic ceiling counts (tools/arith_ceiling.py)."""

    def loops(self, kind, loop, prologue=()):
        body = cc.parse_disassembly(objdump(list(prologue), loop))[SYMBOL]
        return cc.ceiling_loops(SYMBOL, body, kind)

    def test_stream_round_counts_classes_and_bytes(self):
        loop = (['global_load_dwordx4 v[4:7], v[2:3], off'] * 4 + ['v_pk_add_f32 v[8:9], v[8:9], v[4:5]'] * 8
                + ['v_add_co_u32_e32 v2, vcc, 64, v2', 'v_mul_lo_u32 v1, v1, s3'] + LOOP_CONTROL)
        self.assertEqual(self.loops('stream', loop), [{'bytes': 64, 'counts': {
            'vmem': 4, 'fp32': 8, 'int32': 5, 'valu': 13, 'salu': 2}}])

    def test_sram_sweep_not_fill(self):
        sweep = ['ds_read_b128 v[4:7], v1', 'ds_read_b128 v[8:11], v1 offset:2048',
                 'v_add_f64 v[12:13], v[12:13], v[4:5]'] + LOOP_CONTROL
        self.assertEqual(self.loops('sram', sweep)[0]['bytes'], 32)
        fill = ['global_load_dwordx4 v[4:7], v[2:3], off', 'ds_write_b128 v1, v[4:7]'] + LOOP_CONTROL
        self.assertEqual(self.loops('sram', fill), [])


if __name__ == '__main__':
    unittest.main()
