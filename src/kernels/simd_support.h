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

// How far ahead of its loads a fused sum asks for its input lines, 0 for not at all (docs/design.md, "Prefetch
// policy"): 4 KiB on AMD's Zen 5, where a request further ahead held the core's miss buffers for lines its
// hardware prefetcher fetches anyway; on earlier AMD cores 4 KiB for a functor of many instructions, none for a
// cheap one (kCheap), whose loads come often enough that requests only compete with the hardware prefetcher;
// 8 KiB elsewhere, which covers memory latency times rate on the fastest-streaming core measured.
int64_t SumPrefetchBytes(bool cheap_functor);

// Which BFLOAT16 conversions ConvertRowSimd uses between fp32 and BFLOAT16: one vector at a time (the blocked
// path and mixed dtypes), the all-BFLOAT16 kernel's even/odd pairs with integer rounding, or those pairs with
// AVX512-BF16 narrowing where the target and CPU have it (what the fused kernel does).
enum class Bf16Conversion { kOneVector, kPairs, kPairsWithHardware };

// Converts n contiguous elements from one dtype to another through the kernels' vector conversions
// (widening to fp32, then narrowing), on the current dispatch target. For tests.
ACLNN_CPU_INTERNAL void ConvertRowSimd(ElementType from, const void* src, ElementType to, void* dst, int64_t n,
                                       Bf16Conversion bf16 = Bf16Conversion::kOneVector);

// sums[j] += values[r * width + j] for each row r in increasing order, in float64 (a sum over a tensor's first
// dim, from rows of fp32 terms): the same bits on every target.
void AddRowsToColumnSums(const float* values, int64_t rows, int64_t width, double* sums);

// The name of the Highway target that the kernels dispatch to now (for benchmarks and tests).
ACLNN_CPU_INTERNAL std::string ActiveSimdTarget();

}  // namespace aclnn_cpu::kernels
