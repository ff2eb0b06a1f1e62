#!/usr/bin/env python3
"""scripts/kokkos-cuda13-fix on a stand-in Kokkos tree: both CUDA 13 calls get their
CUDART_VERSION guard, the CUDA 12 calls stay in the #else branch, a second run changes nothing,
and a tree where a call is not where it was expected fails with one line naming the file.

  kokkos_cuda13_fix_test.py SOURCE_DIR
"""
import os
import pathlib
import subprocess
import sys
import tempfile

INSTANCE = '''  cudaError_t cuda_graph_add_dependencies_wrapper(
      cudaGraph_t graph, const cudaGraphNode_t* from, const cudaGraphNode_t* to,
      size_t numDependencies) const {
    set_cuda_device();
    return cudaGraphAddDependencies(graph, from, to, numDependencies);
  }
  cudaError_t cuda_mem_prefetch_async_wrapper(const void* devPtr, size_t count,
                                              int dstDevice) const {
    set_cuda_device();
    return cudaMemPrefetchAsync(devPtr, count, dstDevice, m_stream);
  }
'''


def run(fix, tree):
    return subprocess.run([sys.executable, fix, tree], capture_output=True, text=True)


def main():
    fix = os.path.join(sys.argv[1], 'scripts/kokkos-cuda13-fix')
    with tempfile.TemporaryDirectory() as d:
        header = pathlib.Path(d, 'core/src/Cuda/Kokkos_Cuda_Instance.hpp')
        header.parent.mkdir(parents=True)
        header.write_text(INSTANCE)
        r = run(fix, d)
        assert r.returncode == 0, r.stderr
        text = header.read_text()
        assert text.count('#if CUDART_VERSION >= 13000') == 2, text
        assert 'cudaGraphAddDependencies(graph, from, to, nullptr, numDependencies);' in text, text
        assert 'cudaMemPrefetchAsync(devPtr, count, loc, 0, m_stream);' in text, text
        # CUDA 12 keeps its calls, in the #else branches.
        assert 'cudaGraphAddDependencies(graph, from, to, numDependencies);' in text, text
        assert 'cudaMemPrefetchAsync(devPtr, count, dstDevice, m_stream);' in text, text
        r = run(fix, d)
        assert r.returncode == 0 and header.read_text() == text, 'a second run changed the file'
        # A tree whose prefetch call looks different: refused, naming the file.
        header.write_text(INSTANCE.replace('dstDevice, m_stream', 'device, stream'))
        r = run(fix, d)
        assert r.returncode == 1, r
        assert len(r.stderr.strip().splitlines()) == 1 and str(header) in r.stderr, r.stderr
        assert run(fix, os.path.join(d, 'missing')).returncode == 1
    print('ok')


if __name__ == '__main__':
    main()
