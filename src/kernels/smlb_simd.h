// The SIMD row kernel of aclnnSoftMarginLossBackward (Highway, dynamic dispatch): every row of the plan,
// whatever its operands' dtypes and strides, goes through the same vector arithmetic, so results are
// bit-identical across layouts and thread counts on a given CPU.
#pragma once

#include <array>
#include <cstdint>
#include <string>
#include <vector>

#include "common/export.h"
#include "engine/iteration_shape.h"
#include "kernels/smlb_row_kernel.h"

namespace aclnn_cpu::kernels {

struct SmlbSimdConfig {
    SmlbTypes types;
    float cof = 1.0f;
    bool stream_stores = false;  // non-temporal stores for outputs much larger than the caches
};

// Computes the elements [tile.first, tile.last) of a tile (operands indexed by Operand; stride 0 on both
// tile dims: a broadcast operand).
void SmlbTileSimd(const SmlbSimdConfig& config, const engine::Tile& tile);

// Orders non-temporal stores made by this thread before later loads and stores of other threads.
void FlushStreamingStores();

// Which BFLOAT16 conversions ConvertRowSimd uses between fp32 and BFLOAT16: one vector at a time (the blocked
// path and mixed dtypes), the all-BFLOAT16 kernel's even/odd pairs with integer rounding, or those pairs with
// AVX512-BF16 narrowing where the target and CPU have it (what the kernel does).
enum class Bf16Conversion { kOneVector, kPairs, kPairsWithHardware };

// Converts n contiguous elements from one dtype to another through the kernels' vector conversions
// (widening to fp32, then narrowing), on the current dispatch target. For tests.
ACLNN_CPU_INTERNAL void ConvertRowSimd(ElementType from, const void* src, ElementType to, void* dst, int64_t n,
                                       Bf16Conversion bf16 = Bf16Conversion::kOneVector);

// Whether the CPU has AVX512-BF16 (vcvtne2ps2bf16), which the AVX-512 kernels use for BFLOAT16 narrowing.
bool CpuHasAvx512Bf16();

// The name of the Highway target that SmlbRowSimd dispatches to now (for benchmarks and tests).
ACLNN_CPU_INTERNAL std::string ActiveSimdTarget();

}  // namespace aclnn_cpu::kernels
