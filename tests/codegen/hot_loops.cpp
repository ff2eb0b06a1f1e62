// The host probe kernels, instantiated for scripts/check-hot-loops to inspect in a build for
// another ISA (tests/codegen/CMakeLists.txt compiles this file for AVX2 and for AVX-512; it is
// never linked).
#include "harness/probes/fma_ladder_probe.hpp"
#include "harness/probes/peak_probe.hpp"
#include "harness/probes/sram_probe.hpp"
#include "harness/probes/stream_probe.hpp"

namespace ridgeline {

using Host = Kokkos::DefaultHostExecutionSpace;

// The rungs whose code differs: K = 1 (one fused loop), 2 (no middle step), the rest (a loop).
template class FmaLadderProbe<Host, double, 1>;
template class FmaLadderProbe<Host, double, 2>;
template class FmaLadderProbe<Host, double, 16>;
template class FmaLadderProbe<Host, float, 1>;
template class FmaLadderProbe<Host, float, 2>;
template class FmaLadderProbe<Host, float, 16>;
template class FmaLadderProbe<Host, double, 1, LadderForm::kTwoArrays>;
template class FmaLadderProbe<Host, double, 2, LadderForm::kTwoArrays>;
template class FmaLadderProbe<Host, float, 16, LadderForm::kTwoArrays>;
template class PeakProbe<Host, double>;
template class PeakProbe<Host, float>;
template class StreamProbe<Host, double>;
template class StreamProbe<Host, float>;
template class SramProbe<Host, double>;
template class SramProbe<Host, float>;

}  // namespace ridgeline
