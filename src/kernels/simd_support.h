// SIMD facts and helpers shared by every operator: which target runs, streaming-store fences, the BFLOAT16
// hardware check, and the kernels' dtype conversions exposed for tests.
#pragma once

#include <cstdint>
#include <string>

#include "common/export.h"
#include "kernels/element_types.h"

namespace aclnn_cpu::kernels {

// Orders non-temporal stores made by this thread before later loads and stores of other threads.
void FlushStreamingStores();

// Whether the CPU has AVX512-BF16 (vcvtne2ps2bf16), which the AVX-512 kernels use for BFLOAT16 narrowing.
bool CpuHasAvx512Bf16();

// Whether the fused sums ask for each input line twice -- non-temporally far ahead and into L1 near ahead --
// instead of once into L1 far ahead: on AMD x86 cores, where that streamed faster (docs/design.md, "Prefetch
// policy"). Elsewhere unmeasured, so unchanged.
bool SumsPrefetchTwice();

// Which BFLOAT16 conversions ConvertRowSimd uses between fp32 and BFLOAT16: one vector at a time (the blocked
// path and mixed dtypes), the all-BFLOAT16 kernel's even/odd pairs with integer rounding, or those pairs with
// AVX512-BF16 narrowing where the target and CPU have it (what the fused kernel does).
enum class Bf16Conversion { kOneVector, kPairs, kPairsWithHardware };

// Converts n contiguous elements from one dtype to another through the kernels' vector conversions
// (widening to fp32, then narrowing), on the current dispatch target. For tests.
ACLNN_CPU_INTERNAL void ConvertRowSimd(ElementType from, const void* src, ElementType to, void* dst, int64_t n,
                                       Bf16Conversion bf16 = Bf16Conversion::kOneVector);

// The name of the Highway target that the kernels dispatch to now (for benchmarks and tests).
ACLNN_CPU_INTERNAL std::string ActiveSimdTarget();

}  // namespace aclnn_cpu::kernels
