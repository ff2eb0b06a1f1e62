#!/usr/bin/env python3
"""The checks of tools/cuda/check_codegen.py on SASS words and kernel names written here:
each passes on the code it must pass and fails on the code it exists for (a ladder rung it did
not recognise, a peak loop at 97 %, a rung unrolled unlike the others, an SRAM word accessed lane
by lane, local memory)."""
import os
import re
import shutil
import struct
import subprocess
import sys
import tempfile
import unittest

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), '..', '..', 'tools',
                                'cuda'))
import check_codegen as cc  # noqa: E402
import fatbin  # noqa: E402

FFMA, NOP, LDL = 0x223, 0x918, cc.LDL  # FFMA's low 9 bits are 0x023; 0x918 is no probe opcode


def sass(prologue, loop):
    """A kernel's .text: prologue, then a loop closed by a backward BRA (sm_89's encoding: the
    signed byte offset to the next instruction in bits 32..), then EXIT. An instruction is an
    opcode, or (opcode, high word) where the high word matters (shared access widths)."""
    words = [op if isinstance(op, tuple) else (op, 0) for op in list(prologue) + list(loop)]
    branch, start = len(words), len(prologue)
    offset = (start - branch - 1) * 16
    words.append((cc.BRA | ((offset & 0xFFFFFFFF) << 32), 0))
    words.append((cc.EXIT, 0))
    return b''.join(struct.pack('<QQ', lo, hi) for lo, hi in words)


def failures(kind, label, detail, code):
    return cc.failed_checks(kind, label, detail, cc.analyse(code, 'sm_89'))


def launch(probe):
    return ('void Kokkos::Impl::cuda_parallel_launch_local_memory<Kokkos::Impl::ParallelFor<'
            f'ridgeline::{probe}::run()::{{lambda(unsigned long)#1}}, Kokkos::RangePolicy<Kokkos::Cuda, '
            'Kokkos::LaunchBounds<128u, 1u> >, Kokkos::Cuda> >(Kokkos::Impl::ParallelFor<...>)')


class Names(unittest.TestCase):
    def test_ladder_rungs_with_their_form_are_recognised(self):
        # The form argument hid every fp64/fp32 rung from the check before.
        name = launch('FmaLadderProbe<Kokkos::Cuda, double, 256, (ridgeline::LadderForm)0>')
        self.assertEqual(cc.classify(name), ('ladder', 'FmaLadderProbe<fp64, K=256>', 256))
        name = launch('FmaLadderProbe<Kokkos::Cuda, float, 64, (ridgeline::LadderForm)1>')
        self.assertEqual(cc.classify(name), ('ladder', 'FmaLadderProbe<fp32, K=64, xy>', 64))

    def test_peak_and_half_kernels_are_recognised(self):
        self.assertEqual(cc.classify(launch('PeakProbe<Kokkos::Cuda, double>')),
                         ('peak', 'PeakProbe<fp64>', None))
        self.assertEqual(cc.classify(launch('HalfFmaLadderProbe<Kokkos::Cuda, ridgeline::Fp16, 512>')),
                         ('ladder', 'HalfFmaLadderProbe<fp16, K=512>', 512))

    def test_setup_kernels_are_not_probes(self):
        name = launch('FmaLadderProbe<Kokkos::Cuda, double, 256, (ridgeline::LadderForm)0>')
        self.assertIsNone(cc.classify(name.replace('::run()', '::setup()')))


class PeakLoop(unittest.TestCase):
    def test_unrolled_128_passes(self):  # 1024 FFMA against 4 loop instructions and the branch
        self.assertEqual(failures('peak', 'PeakProbe<fp32>', None, sass([NOP], [FFMA] * 1024 + [NOP] * 4)), [])

    def test_unrolled_16_fails(self):  # 128 FFMA in 133 instructions: the 97 % cap of the H200 run
        msgs = failures('peak', 'PeakProbe<fp32>', None, sass([NOP], [FFMA] * 128 + [NOP] * 4))
        self.assertIn('hot loop FMA share 0.962 < 0.99', msgs)

    def test_no_loop_fails(self):
        msgs = failures('peak', 'PeakProbe<fp32>', None, sass([NOP], [NOP] * 4))
        self.assertIn('hot loop FMA share None < 0.99', msgs)


class LadderRung(unittest.TestCase):
    def test_unrolled_2x_fails(self):  # 16 FMAs in 20 instructions
        msgs = failures('ladder', 'FmaLadderProbe<fp64, K=64>', 64, sass([NOP], [FFMA] * 16 + [NOP] * 3))
        self.assertIn('hot loop FMA share 0.8 < 0.9', msgs)

    def test_unrolled_16x_passes(self):
        code = sass([NOP], [FFMA] * 128 + [NOP] * 4)
        self.assertEqual(failures('ladder', 'FmaLadderProbe<fp64, K=64>', 64, code), [])

    def test_short_rungs_are_not_graded(self):
        self.assertEqual(failures('ladder', 'FmaLadderProbe<fp64, K=8>', 8, sass([NOP], [NOP])), [])

    def test_local_memory_fails(self):
        msgs = failures('ladder', 'FmaLadderProbe<fp64, K=8>', 8, sass([LDL], [NOP]))
        self.assertIn('1 local-memory instructions', msgs)


# Shared loads and stores of 16, 8 and 4 bytes (hi bits 8-11: 0xC, 0xA, 0x8; sass_calibration.cu).
LDS128, LDS64, LDS32 = (cc.LDS, 0xC00), (cc.LDS, 0xA00), (cc.LDS, 0x800)
STS128, STS64 = (cc.STS, 0xC00), (cc.STS, 0xA00)
DFMA = 0x22B


class Sram(unittest.TestCase):
    def test_team_kernels_are_recognised(self):
        name = ('void Kokkos::Impl::cuda_parallel_launch_local_memory<Kokkos::Impl::ParallelFor<'
                'ridgeline::SramProbe<Kokkos::Cuda, double>::run_op<(ridgeline::SramOp)1>()::'
                '{lambda(Kokkos::Impl::CudaTeamMember const&)#1}, Kokkos::TeamPolicy<Kokkos::Cuda>, '
                'Kokkos::Cuda> >(Kokkos::Impl::ParallelFor<...>)')
        self.assertEqual(cc.classify(name), ('sram', 'sram_update<fp64>', 'update'))
        self.assertEqual(cc.classify(name.replace('SramOp)1', 'SramOp)0').replace('double', 'float')),
                         ('sram', 'sram_read<fp32>', 'read'))
        self.assertIsNone(cc.classify(name.replace('run_op<(ridgeline::SramOp)1>()', 'setup()')))

    def test_word_wide_sweeps_pass(self):
        read = sass([STS128] * 2, [LDS128, LDS128, NOP, NOP])
        self.assertEqual(failures('sram', 'sram_read<fp64>', 'read', read), [])
        update = sass([STS128], [LDS128, DFMA, DFMA, STS128, LDS128, DFMA, DFMA, STS128])
        self.assertEqual(failures('sram', 'sram_update<fp64>', 'update', update), [])

    def test_a_word_updated_lane_by_lane_fails(self):
        # What nvcc made of `Word& x = buf[i]; x.v[l] = fma(x.v[l], a, b)`: 8-byte accesses at the
        # words' 16-byte stride.
        code = sass([STS128], [LDS64, DFMA, STS64, LDS64, DFMA, STS64, LDS128, LDS128])
        msgs = failures('sram', 'sram_update<fp64>', 'update', code)
        self.assertIn('shared accesses in loops narrower than 16 bytes: 2 LDS.64, 2 STS.64', msgs)
        self.assertIn('no 16-byte shared store in a loop', msgs)

    def test_one_word_in_flight_fails(self):
        msgs = failures('sram', 'sram_read<fp32>', 'read', sass([STS128], [LDS128, NOP]))
        self.assertIn('no loop with 2 16-byte shared loads (most: 1)', msgs)

    def test_narrow_accesses_outside_loops_are_not_sweeps(self):
        code = sass([LDS32, STS128], [LDS128, LDS128])
        self.assertEqual(failures('sram', 'sram_read<fp32>', 'read', code), [])


class Unrolling(unittest.TestCase):
    RUNGS = [('FmaLadderProbe<fp64, K=64>', 64, 16), ('FmaLadderProbe<fp64, K=256>', 256, 128),
             ('FmaLadderProbe<fp64, K=1024>', 1024, 128), ('FmaLadderProbe<fp64, K=8>', 8, 64),
             ('FmaLadderProbe<fp64, K=64, xy>', 64, 112), ('FmaLadderProbe<fp32, K=64>', 64, 56)]

    def test_rung_unrolled_unlike_its_ladder_fails(self):
        msgs = cc.unrolling_failures(self.RUNGS, 'FmaLadderProbe<fp64, K=64>')
        self.assertEqual(len(msgs), 1, msgs)
        self.assertIn('holds 16 FMAs where the other rungs of FmaLadderProbe<fp64> hold 128', msgs[0])

    def test_rungs_unrolled_alike_pass(self):
        self.assertEqual(cc.unrolling_failures(self.RUNGS, 'FmaLadderProbe<fp64, K=1024>'), [])

    def test_other_forms_dtypes_and_short_rungs_are_separate(self):
        for label in ('FmaLadderProbe<fp64, K=64, xy>', 'FmaLadderProbe<fp32, K=64>',
                      'FmaLadderProbe<fp64, K=8>'):
            self.assertEqual(cc.unrolling_failures(self.RUNGS, label), [], label)

    def test_half_ladder_keeps_its_two_loop_shapes(self):
        rungs = [('HalfFmaLadderProbe<fp16, K=64>', 64, 256), ('HalfFmaLadderProbe<fp16, K=512>', 512, 1024),
                 ('HalfFmaLadderProbe<fp16, K=1024>', 1024, 1024)]
        self.assertEqual(cc.unrolling_failures(rungs, 'HalfFmaLadderProbe<fp16, K=64>'), [])


NVCC = shutil.which('nvcc') or ('/usr/local/cuda/bin/nvcc' if os.access('/usr/local/cuda/bin/nvcc', os.X_OK) else None)
KERNELS = r"""
__global__ void small(float* a) { a[threadIdx.x] *= 2.f; }
__global__ void wide(double* a, int n) {
  double s[24];
#pragma unroll
  for (int i = 0; i < 24; ++i) s[i] = a[i * n + threadIdx.x];
  double t = 0;
#pragma unroll
  for (int j = 0; j < 24; ++j)
    for (int i = 0; i < 24; ++i) t += s[i] * s[(i + j) % 24];
  a[threadIdx.x] = t;
}
"""


@unittest.skipUnless(NVCC, 'no nvcc: the fat-binary reader is checked where the CUDA toolkit is')
class FatbinReader(unittest.TestCase):
    """fatbin.py reads the cubins of an object nvcc compiled (-c), and each kernel's registers from
    the cubin's own records: the same counts ptxas prints, for two kernels of different sizes."""

    def compile(self, *flags):
        tmp = tempfile.mkdtemp()
        self.addCleanup(shutil.rmtree, tmp)
        src, obj = os.path.join(tmp, 'k.cu'), os.path.join(tmp, 'k.o')
        open(src, 'w').write(KERNELS)
        r = subprocess.run([NVCC, '-c', '-arch=sm_89', '-Xptxas', '-v', *flags, '-o', obj, src],
                           capture_output=True, text=True, check=True)
        ptxas, name = {}, None
        for line in r.stderr.splitlines():
            m = re.search(r"Compiling entry function '(\S+)'", line)
            name = m.group(1) if m else name
            m = re.search(r'Used (\d+) registers', line)
            if m and name:
                ptxas[name] = int(m.group(1))
        return obj, ptxas

    def test_registers_match_ptxas(self):
        obj, ptxas = self.compile('--no-compress')
        blobs = fatbin.cubins(fatbin.fatbin_section(obj), 89)
        self.assertEqual(len(blobs), 1)
        regs = {}
        for b in blobs:
            regs.update(fatbin.registers(b))
        self.assertEqual(regs, ptxas)
        self.assertGreater(ptxas['_Z4widePdi'], ptxas['_Z5smallPf'])
        self.assertEqual(fatbin.cubins(fatbin.fatbin_section(obj), 90), [])  # no sm_90 code in it

    def test_compressed_code_is_refused_with_the_reason(self):
        obj, _ = self.compile('--no-compress')
        data = bytearray(fatbin.fatbin_section(obj))
        at = data.find(b'\x7fELF')
        data[at:at + 4] = b'LZ4\0'  # what a compressed entry's payload looks like to the reader
        with self.assertRaisesRegex(fatbin.FatbinError, 'compressed.*--no-compress'):
            fatbin.cubins(bytes(data), 89)

    def test_not_a_fat_binary(self):
        with self.assertRaisesRegex(fatbin.FatbinError, 'not a fat binary'):
            fatbin.cubins(b'\x01' * 32, 89)


if __name__ == '__main__':
    unittest.main()
