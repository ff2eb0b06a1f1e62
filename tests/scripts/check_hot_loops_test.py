#!/usr/bin/env python3
"""The checks of scripts/check-hot-loops on objdump lines written here: each passes on the code it
must pass and fails on the code it exists for (a copy that stayed scalar, a kernel on the wrong
register width, a scalar FMA in the hot loop, spills), and the hot loop is found where the time
goes (not in a pairwise sum through the stack). The arithmetic-ceiling gate (--ceiling) passes
reads that sum words with packed integer adds and fails a read planted with packed fp adds."""
import contextlib
import importlib.machinery
import importlib.util
import io
import os
import sys
import unittest

_path = os.path.join(os.path.dirname(os.path.abspath(__file__)), '..', '..', 'scripts',
                     'check-hot-loops')
_loader = importlib.machinery.SourceFileLoader('check_hot_loops', _path)
chl = importlib.util.module_from_spec(importlib.util.spec_from_loader('check_hot_loops', _loader))
_loader.exec_module(chl)

STREAM = ('ridgeline::StreamProbe<Kokkos::OpenMP, double, false>::run_host()::'
          '{lambda(unsigned long)#%d}')
SRAM = ('ridgeline::SramProbe<Kokkos::OpenMP, double>::run_op<(ridgeline::SramOp)0>()::'
        '{lambda(Kokkos::Impl::HostThreadTeamMember<Kokkos::OpenMP> const&)#1}')
LADDER = ('ridgeline::FmaLadderProbe<Kokkos::OpenMP, double, 16, (ridgeline::LadderForm)0>::run()::'
          '{lambda(unsigned long)#1}')


def dispatch(kernel):
    """The OpenMP outlined body Kokkos instantiates on a kernel lambda."""
    return (f'Kokkos::Impl::ParallelFor<{kernel}, Kokkos::RangePolicy<Kokkos::OpenMP>, '
            'Kokkos::OpenMP>::execute() const [clone ._omp_fn.0]')


def body(*blocks):
    """objdump lines of a function: each block is a list of instructions, or ('loop', [...]) for
    a loop closed by a backward branch to its first instruction."""
    lines, at = [], 0x1000
    for block in blocks:
        is_loop = isinstance(block, tuple)
        instructions = block[1] if is_loop else block
        start = at
        for instruction in instructions:
            lines.append(f'   {at:x}:\t{instruction}')
            at += 4
        if is_loop:
            lines.append(f'   {at:x}:\tjne    {start:x} <f+0x{start - 0x1000:x}>')
            at += 4
    lines.append(f'   {at:x}:\tret')
    return lines


def run(functions, isa=None):
    lines, _, _, _, failed = chl.check(functions, isa)
    return failed, '\n'.join(lines)


PACKED_COPY = ('loop', ['vmovupd (%r11,%rdx,1),%zmm3', 'vmovupd %zmm3,(%rax,%rdx,1)',
                        'add    $0x40,%rdx', 'cmp    %rdx,%rcx'])
SCALAR_COPY = ('loop', ['vmovsd (%r12,%rdx,1),%xmm0', 'vmovsd %xmm0,0x0(%r13,%rdx,1)',
                        'add    $0x8,%rdx', 'cmp    %rdx,%rdi'])


class Copy(unittest.TestCase):
    def test_a_packed_copy_with_a_scalar_remainder_passes(self):
        code = body(['push   %rbp'], SCALAR_COPY, PACKED_COPY)
        self.assertEqual(run([(dispatch(STREAM % 1), code)])[0], 0)
        self.assertEqual(run([(dispatch(STREAM % 1), code)], 'avx512')[0], 0)

    def test_a_copy_that_stayed_scalar_fails(self):
        # The gap this check closes: no packed arithmetic, so no hot loop, and nothing was read.
        failed, out = run([(dispatch(STREAM % 1), body(['push   %rbp'], SCALAR_COPY))])
        self.assertEqual(failed, 1)
        self.assertIn('did not vectorise', out)

    def test_a_jump_back_from_past_the_return_is_no_loop(self):
        # GCC's fp32 copy for AVX-512 (generic tuning): the zmm loop, a ymm and scalar remainder,
        # `ret`, then a cold block that jumps back into the remainder. Taken for a loop, that
        # range held more moves than the zmm loop, and the kernel "did not vectorise".
        lines = body(PACKED_COPY, ['vmovups (%rax,%rcx,4),%ymm2', 'vmovups %ymm2,(%r14,%rcx,4)',
                                   'vmovss (%rax,%r13,4),%xmm0', 'vmovss %xmm0,(%r14,%r13,4)',
                                   'vmovdqa %xmm3,%xmm4'])
        remainder = int(lines[5].split(':')[0], 16)
        end = int(lines[-1].split(':')[0], 16)
        lines += [f'   {end + 4:x}:\tmov    %r8,%r13', f'   {end + 8:x}:\tjmp    {remainder:x} <f+0x1>']
        failed, out = run([(dispatch(STREAM % 1), lines)], 'avx512')
        self.assertEqual(failed, 0, out)
        self.assertEqual(chl.hot_loops(lines), [(0x1000, 0x1010)])

    def test_a_zmm_copy_fails_where_ymm_is_expected(self):
        failed, out = run([(dispatch(STREAM % 6), body(PACKED_COPY))], 'avx2')
        self.assertEqual(failed, 1)
        self.assertIn('%ymm', out)


class Kernels(unittest.TestCase):
    def test_one_function_of_a_kernel_holding_the_loop_is_enough(self):
        # A reduction: the outlined body calls operator(), which holds the loop.
        reduce = STREAM.replace('(unsigned long)#%d', '(unsigned long, double&)#7')
        loop = ('loop', ['vaddpd (%rdx),%zmm1,%zmm1', 'add    $0x40,%rdx', 'cmp    %rdx,%rcx'])
        functions = [(dispatch(reduce), body(['call   1000 <f>'])),
                     (reduce + '::operator()(unsigned long, double&) const', body(loop))]
        self.assertEqual(run(functions, 'avx512')[0], 0)
        self.assertEqual(run(functions[:1], 'avx512')[0], 1)

    def test_the_hot_loop_is_the_arithmetic_not_a_pairwise_sum_through_the_stack(self):
        # Four adds in registers against the sum's three adds and six moves: counting the moves
        # would take the sum for the hot loop and fail its stack traffic (the SRAM probe's code).
        registers = ('loop', ['vaddpd (%rdx),%zmm10,%zmm10', 'vaddpd 0x40(%rdx),%zmm11,%zmm11',
                              'vaddpd 0x80(%rdx),%zmm12,%zmm12', 'vaddpd 0xc0(%rdx),%zmm13,%zmm13',
                              'add    $0x100,%rdx', 'cmp    %rcx,%rdx'])
        pairwise = ('loop', ['vmovupd (%rsi),%zmm7', 'vaddpd 0x40(%rsp),%zmm7,%zmm2',
                             'vmovapd %zmm2,0x40(%rsp)', 'vmovupd 0x40(%rsi),%zmm4',
                             'vaddpd 0x80(%rsp),%zmm4,%zmm2', 'vmovapd %zmm2,0x80(%rsp)',
                             'vmovupd 0x80(%rsi),%zmm5', 'vaddpd 0xc0(%rsp),%zmm5,%zmm2',
                             'vmovapd %zmm2,0xc0(%rsp)', 'shr    %rax'])
        failed, out = run([(dispatch(SRAM), body(registers, pairwise))], 'avx512')
        self.assertEqual(failed, 0, out)
        # And the stack check is live: with the adds gone from the first loop the sum is hot.
        failed, out = run([(dispatch(SRAM), body(registers[1][4:], pairwise))], 'avx512')
        self.assertEqual(failed, 1)
        self.assertIn('on the stack', out)

    def test_a_league_loop_calling_the_team_body_is_not_the_hot_loop(self):
        # GCC 12 outlined the SRAM update's team body once it grew: Kokkos' league loop sets the
        # team member up in a ymm register on the stack and calls it. The callee holds the work.
        league = ('loop', ['vinserti128 $0x1,%xmm0,%ymm1,%ymm0', 'vmovdqa %ymm0,0x20(%rsp)',
                           'call   2000 <f>', 'inc    %r15d', 'cmp    %r15d,0x1c(%rsp)'])
        team = ('loop', ['vfmadd132pd (%rax),%zmm0,%zmm9', 'vmovupd %zmm9,(%rax)',
                         'add    $0x40,%rax', 'cmp    %rax,%rdx'])
        functions = [(dispatch(SRAM), body(league)), (SRAM + '::operator()(...) const', body(team))]
        failed, out = run(functions, 'avx512')
        self.assertEqual(failed, 0, out)
        # Without the call the same loop is hot, and its stack store a spill.
        no_call = body(('loop', league[1][:2] + league[1][3:]))
        failed, out = run([(dispatch(SRAM), no_call), functions[1]], 'avx512')
        self.assertEqual(failed, 1)
        self.assertIn('on the stack', out)

    def test_serials_inlined_kernels_are_checked(self):
        # SramProbe<Serial>::run_op() holds the team body GCC inlined: with a memory clobber after
        # each pass it loaded and stored the word sums through the stack at every vector.
        serial = 'void ridgeline::SramProbe<Kokkos::Serial, double>::run_op<(ridgeline::SramOp)0>()'
        stack = ('loop', ['vmovdqu32 (%rax),%zmm4', 'vpaddd 0xc0(%rsp),%zmm4,%zmm0',
                          'vmovdqa32 %zmm0,0xc0(%rsp)', 'add    $0x40,%rax', 'cmp    %r11,%rcx'])
        failed, out = run([(serial, body(stack))], 'avx512')
        self.assertEqual(failed, 1)
        self.assertIn('on the stack in the hot loop', out)
        registers = ('loop', ['vpaddd (%rax),%zmm1,%zmm1', 'add    $0x40,%rax', 'cmp    %rax,%rcx'])
        self.assertEqual(run([(serial, body(registers))], 'avx512')[0], 0)
        read = 'ridgeline::StreamProbe<Kokkos::Serial, float, false>::run_host_read()'
        self.assertEqual(run([(read, body(registers))], 'avx512')[0], 0)
        self.assertEqual(run([(read + ' [clone .cold]', body(registers))], 'avx512'), (0, ''))

    def test_spills_in_the_hot_loop_fail(self):
        loop = ('loop', ['vfmadd231pd %zmm1,%zmm2,%zmm3', 'vmovapd %zmm3,0x40(%rsp)',
                         'cmp    %rcx,%rdx'])
        failed, out = run([(dispatch(LADDER), body(loop))], 'avx512')
        self.assertEqual(failed, 1)
        self.assertIn('on the stack', out)


class Fma(unittest.TestCase):
    def test_packed_fmas_of_the_expected_width_pass(self):
        loop = ('loop', ['vfmadd231pd %ymm1,%ymm2,%ymm3', 'vfmadd231pd %ymm1,%ymm2,%ymm4',
                         'cmp    %rcx,%rdx'])
        self.assertEqual(run([(dispatch(LADDER), body(loop))], 'avx2')[0], 0)
        failed, out = run([(dispatch(LADDER), body(loop))], 'avx512')
        self.assertEqual(failed, 2)  # the function's FMAs, and the kernel
        self.assertIn('none on %zmm', out)

    def test_a_scalar_fma_in_the_hot_loop_fails(self):
        loop = ('loop', ['vfmadd231pd %zmm1,%zmm2,%zmm3', 'vfmadd231sd %xmm1,%xmm2,%xmm4',
                         'cmp    %rcx,%rdx'])
        failed, out = run([(dispatch(LADDER), body(loop))], 'avx512')
        self.assertEqual(failed, 1)
        self.assertIn('scalar FMA in the hot loop', out)

    def test_names_outside_the_probes_are_not_read(self):
        self.assertEqual(run([('main', body(SCALAR_COPY))]), (0, ''))


class Ceiling(unittest.TestCase):
    """The host side of the arithmetic ceiling (--ceiling): classes and bytes of a hot loop."""

    def test_a_read_loop_counts_its_adds_loads_and_bytes(self):
        loop = ['vaddpd (%rax),%zmm0,%zmm0', 'vaddpd 0x40(%rax),%zmm1,%zmm1', 'add    $0x80,%rax',
                'cmp    %rax,%rdx']
        found = chl.memory_loops([(dispatch(SRAM), body(('loop', loop)))])
        self.assertEqual(found[('sram_read', 'fp64')],
                         [{'bytes': 128, 'counts': {'fp_add': 2, 'load': 2, 'issue': 5}}])

    def test_copy_nts_lambda_is_no_point_of_the_ceiling(self):
        # copy_nt's kernel comes last in run_host(), #8: it numbers no checked point, and the
        # table crashed on it (TypeError) before it was skipped.
        found = chl.memory_loops([(dispatch(STREAM % 8), body(PACKED_COPY))])
        self.assertEqual(dict(found), {})

    def test_a_store_is_the_last_operand_and_a_fill_is_fill(self):
        loop = ['vmovupd %zmm2,(%rax)', 'vmovupd %zmm2,0x40(%rax)', 'add    $0x80,%rax',
                'cmp    %rax,%rdx']
        found = chl.memory_loops([(dispatch(STREAM % 6), body(('loop', loop)))])
        self.assertEqual(found[('cache_fill', 'fp64')][0]['counts'].get('store'), 2)
        self.assertEqual(found[('fill', 'fp64')][0]['bytes'], 128)


# The ceiling gate on a whole set of kernels: every point the host profiles plan needs its loop.
WORDS = ('ridgeline::StreamProbe<Kokkos::OpenMP, %s, false>::run_host_read()::'
         '{lambda(unsigned long, unsigned int&)#1}')
TYPED_STREAM = 'ridgeline::StreamProbe<Kokkos::OpenMP, %s, false>::run_host()::{lambda(unsigned long)#%d}'
DOT = 'ridgeline::StreamProbe<Kokkos::OpenMP, %s, false>::run_host()::{lambda(unsigned long, %s&)#7}'
TYPED_SRAM = ('ridgeline::SramProbe<Kokkos::OpenMP, %s>::run_op<(ridgeline::SramOp)%d>()::'
              '{lambda(Kokkos::Impl::HostThreadTeamMember<Kokkos::OpenMP> const&)#1}')
# Eight zmm accumulators fed from memory, as GCC 12 compiles the word sums.
INTEGER_READ = ['vpaddd %s(%%rax),%%zmm%d,%%zmm%d' % (hex(64 * i) if i else '', i, i) for i in range(8)]
FP_READ = [line.replace('vpaddd', 'vaddpd') for line in INTEGER_READ]  # the planted read
# The stream read as GCC 12 compiles it for AVX-512 (word_sum.hpp, xor3_pass): 16 vectors, one
# vpternlogd per two, a load and a load-op each.
XOR3_READ = sum((['vmovdqu32 %s(%%rax),%%zmm%d' % (hex(64 * (i + 8)), 8 + i),
                  'vpternlogd $0x96,%s(%%rax),%%zmm%d,%%zmm%d' % (hex(64 * i) if i else '', 8 + i, i)]
                 for i in range(8)), [])
TRIAD = ['vmovupd (%r8,%rax,1),%zmm1', 'vfmadd213pd (%rsi,%rax,1),%zmm0,%zmm1',
         'vmovupd %zmm1,(%rdx,%rax,1)']
DOT_LOOP = ['vmovupd (%rax),%zmm1', 'vfmadd231pd (%rbx),%zmm1,%zmm0']
UPDATE = ['vfmadd132pd (%rax),%zmm0,%zmm9', 'vmovupd %zmm9,(%rax)']
STEP = ['add    $0x200,%rax', 'cmp    %rax,%rdx']


def memory_kernels(read):
    """Functions of every host memory kernel, fp64 and fp32, their reads' loops `read`."""
    out = []
    for t in ('double', 'float'):
        out += [(dispatch(TYPED_STREAM % (t, n)), body(('loop', TRIAD + STEP))) for n in range(1, 7)]
        out.append((dispatch(DOT % (t, t)), body(('loop', DOT_LOOP + STEP))))
        out.append((dispatch(WORDS % t), body(('loop', read + STEP))))
        out.append((dispatch(TYPED_SRAM % (t, 0)), body(('loop', read + STEP))))
        out.append((dispatch(TYPED_SRAM % (t, 1)), body(('loop', UPDATE + STEP))))
    return out


class CeilingGate(unittest.TestCase):
    def test_integer_words_are_vec_int_and_the_read_is_found(self):
        found = chl.memory_loops([(dispatch(WORDS % 'double'), body(('loop', INTEGER_READ + STEP)))])
        self.assertEqual(found[('cache_read', 'fp64')],
                         [{'bytes': 512, 'counts': {'vec_int': 8, 'load': 8, 'issue': 11}}])
        self.assertEqual(found[('read', 'fp64')], found[('cache_read', 'fp64')])
        for op in ('vpaddd', 'vpaddq', 'vpxord', 'vpxor', 'vpternlogd', 'vpsubd', 'vpandq'):
            self.assertEqual(chl.host_loop_profile([f'   10:\t{op}   %zmm1,%zmm2,%zmm3'])['counts'],
                             {'vec_int': 1, 'issue': 1}, op)
        # A loop of packed integer adds is a hot loop: the kernel vectorised.
        self.assertEqual(run([(dispatch(WORDS % 'double'), body(('loop', INTEGER_READ + STEP)))],
                             'avx512')[0], 0)

    def test_integer_reads_pass_on_both_host_isas(self):
        lines, failures = chl.ceiling('avx512', memory_kernels(INTEGER_READ))
        self.assertEqual(failures, [], '\n'.join(lines))
        text = '\n'.join(lines)
        self.assertRegex(text, r'cache_read<fp64>\s+L1\s+128\.0\s+256\.0\s+2\.00 vec_int')
        self.assertRegex(text, r'sram_read<fp32>\s+L1\s+128\.0\s+256\.0\s+2\.00 vec_int')
        # AVX2 (Zen 3): the same loop on ymm moves half the bytes against L1's 64 B/clk.
        ymm = [(n, [l.replace('zmm', 'ymm') for l in b]) for n, b in memory_kernels(INTEGER_READ)]
        rows, failures = chl.arith_ceiling.judge('avx2', chl.memory_loops(ymm), device=False)
        read = [r for r in rows if r['probe'] == 'cache_read' and r['level'] == 'L1']
        self.assertTrue(read and all(r['class'] == 'vec_int' and r['ratio'] == 2.0 for r in read))

    def test_the_xor3_read_is_found_and_passes(self):
        found = chl.memory_loops([(dispatch(WORDS % 'float'), body(('loop', XOR3_READ + STEP)))])
        self.assertEqual(found[('cache_read', 'fp32')],
                         [{'bytes': 1024, 'counts': {'vec_int': 8, 'load': 16, 'issue': 19}}])
        kernels = [(n, b) for n, b in memory_kernels(INTEGER_READ) if 'run_host_read' not in n]
        kernels += [(dispatch(WORDS % t), body(('loop', XOR3_READ + STEP))) for t in ('double', 'float')]
        lines, failures = chl.ceiling('avx512', kernels)
        self.assertEqual(failures, [], '\n'.join(lines))
        self.assertRegex('\n'.join(lines), r'cache_read<fp64>\s+L1\s+128\.0\s+\S+\s+\S+ (vec_int|issue)')

    def test_a_read_planted_with_fp_adds_fails_the_gate(self):
        lines, failures = chl.ceiling('avx512', memory_kernels(FP_READ))
        at_l1 = [f for f in failures if ' at L1: its fp_add instructions cap it at 128.0' in f]
        # cache_read and sram_read, fp64 and fp32; L2 and below keep 2 x their limit.
        self.assertEqual(len(at_l1), 4, '\n'.join(lines))
        self.assertEqual(len(failures), 4, failures)
        self.assertIn('FAIL epyc-zen5-2vcpu.json: cache_read<fp64> at L1', '\n'.join(lines))

    def test_the_command_exits_1_on_the_planted_read_and_0_without(self):
        def main_on(functions):
            saved, argv = chl.functions, sys.argv
            chl.functions = lambda path: iter(functions)
            sys.argv = ['check-hot-loops', '--isa', 'avx512', '--ceiling', 'avx512', 'canned']
            try:
                with contextlib.redirect_stdout(io.StringIO()) as out:
                    return chl.main(), out.getvalue()
            finally:
                chl.functions, sys.argv = saved, argv
        code, out = main_on(memory_kernels(INTEGER_READ))
        self.assertEqual(code, 0, out)
        code, out = main_on(memory_kernels(FP_READ))
        self.assertEqual(code, 1, out)
        self.assertIn('4 failure(s)', out)

    def test_a_known_shortfall_is_printed_and_a_stale_one_fails(self):
        key = ('avx512', 'cache_read', 'fp64', 'L1')
        chl.arith_ceiling.KNOWN[key] = 'planted for the test'
        try:
            lines, failures = chl.ceiling('avx512', memory_kernels(FP_READ))
            self.assertEqual(len(failures), 3, failures)
            self.assertIn('KNOWN: planted for the test', '\n'.join(lines))
            _, failures = chl.ceiling('avx512', memory_kernels(INTEGER_READ))
            self.assertEqual(len(failures), 1)
            self.assertIn('STALE', failures[0])
        finally:
            del chl.arith_ceiling.KNOWN[key]


if __name__ == '__main__':
    unittest.main()
