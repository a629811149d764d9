// SIMD helpers shared by every operator (kernels/simd_support.h): the conversions through the kernels' own
// vector code, for the conversion tests, and the name of the dispatched target. Compiled once per target.
#undef HWY_TARGET_INCLUDE
#define HWY_TARGET_INCLUDE "kernels/simd_support.cpp"
#include "hwy/foreach_target.h"  // IWYU pragma: keep

#include <cstring>

#include "common/float_convert.h"
#include "hwy/cache_control.h"
#include "hwy/highway.h"
#include "kernels/elementwise_tiles-inl.h"
#include "kernels/row_conversion.h"
#include "kernels/vector_convert-inl.h"

HWY_BEFORE_NAMESPACE();
namespace aclnn_cpu::kernels::HWY_NAMESPACE {
namespace hn = hwy::HWY_NAMESPACE;

// The even/odd conversions of the all-BFLOAT16 kernel over one padded block, element by element in order:
// bf16 -> fp32 or fp32 -> bf16. Returns false where they do not exist (the scalar target).
bool ConvertBlockInPairs(ElementType from, const char* raw_in, char* raw_out, int64_t padded, bool hardware) {
#if ACLNN_CPU_BF16_PAIRS
    const DF df;
    const hn::Repartition<uint16_t, DF> du16;
    const int64_t lanes = static_cast<int64_t>(hn::Lanes(df));
    HWY_ALIGN float even[hn::MaxLanes(df)];
    HWY_ALIGN float odd[hn::MaxLanes(df)];
    for (int64_t i = 0; i < padded; i += 2 * lanes) {
        if (from == ElementType::kBFloat16) {
            const auto bits = hn::LoadU(du16, reinterpret_cast<const uint16_t*>(raw_in) + i);
            hn::Store(Bf16EvenToFloat(df, bits), df, even);
            hn::Store(Bf16OddToFloat(df, bits), df, odd);
            float* to = reinterpret_cast<float*>(raw_out) + i;
            for (int64_t j = 0; j < lanes; ++j) {
                to[2 * j] = even[j];
                to[2 * j + 1] = odd[j];
            }
        } else {
            const float* values = reinterpret_cast<const float*>(raw_in) + i;
            for (int64_t j = 0; j < lanes; ++j) {
                even[j] = values[2 * j];
                odd[j] = values[2 * j + 1];
            }
            hn::StoreU(NarrowBf16Pair(df, hn::Load(df, even), hn::Load(df, odd), hardware), du16,
                       reinterpret_cast<uint16_t*>(raw_out) + i);
        }
    }
    return true;
#else
    (void)from, (void)raw_in, (void)raw_out, (void)padded, (void)hardware;
    return false;
#endif
}

// Converts n contiguous elements through LoadAsFloat and StoreAsType or, between fp32 and BFLOAT16, through
// the conversions `bf16` names.
void ConvertRow(ElementType from, const void* src, ElementType to, void* dst, int64_t n, Bf16Conversion bf16) {
    const DF df;
    const int64_t lanes = static_cast<int64_t>(hn::Lanes(df));
    HWY_ALIGN char raw_in[kBlock * sizeof(float)];
    HWY_ALIGN char raw_out[kBlock * sizeof(float)];
    const int64_t from_size = ElementSize(from), to_size = ElementSize(to);
    const bool pairs = bf16 != Bf16Conversion::kOneVector &&
                       ((from == ElementType::kBFloat16 && to == ElementType::kFloat32) ||
                        (from == ElementType::kFloat32 && to == ElementType::kBFloat16));
    const bool hardware = bf16 == Bf16Conversion::kPairsWithHardware && CpuHasAvx512Bf16();
    for (int64_t start = 0; start < n; start += kBlock) {
        const int64_t len = n - start < kBlock ? n - start : kBlock;
        const int64_t padded = (len + 2 * lanes - 1) / (2 * lanes) * (2 * lanes);  // kBlock is a multiple
        std::memset(raw_in, 0, sizeof raw_in);
        std::memcpy(raw_in, static_cast<const char*>(src) + start * from_size, static_cast<size_t>(len * from_size));
        if (!pairs || !ConvertBlockInPairs(from, raw_in, raw_out, padded, hardware)) {
            for (int64_t i = 0; i < padded; i += lanes)
                StoreAsType<false>(df, to, LoadAsFloat(df, from, raw_in + i * from_size), raw_out + i * to_size);
        }
        std::memcpy(static_cast<char*>(dst) + start * to_size, raw_out, static_cast<size_t>(len * to_size));
    }
}

// n FLOAT16 or (bf16) BFLOAT16 values, contiguous, widened to fp32 exactly (a signalling FLOAT16 NaN may come out
// quiet, as the F16C instructions make it; every use of the values is arithmetic, which quiets it anyway).
void Widen16BitRow(const uint16_t* in, bool bf16, int64_t n, float* out) {
    const DF df;
    const hn::RebindToUnsigned<DF> du;
    const hn::Rebind<uint16_t, DF> du16;
    const int64_t lanes = static_cast<int64_t>(hn::Lanes(df));
    int64_t i = 0;
    for (; i + lanes <= n; i += lanes) {
        const auto bits = hn::PromoteTo(du, hn::LoadU(du16, in + i));
        hn::StoreU(bf16 ? Bf16BitsToFloat(df, bits)
                        : HalfBitsToFloat(df, bits),
                   df, out + i);
    }
    for (; i < n; ++i) {
        uint16_t bits;
        std::memcpy(&bits, in + i, sizeof bits);  // (any alignment)
        out[i] = bf16 ? Bf16ToFloat(bits) : HalfToFloat(bits);
    }
}

// n fp32 values rounded to FLOAT16 or (bf16) BFLOAT16, to nearest, ties to even, as CANN's CAST_RINT.
void Narrow16BitRow(const float* in, bool bf16, int64_t n, uint16_t* out) {
    const DF df;
    const hn::Rebind<uint16_t, DF> du16;
    const int64_t lanes = static_cast<int64_t>(hn::Lanes(df));
    int64_t i = 0;
    for (; i + lanes <= n; i += lanes) {
        const auto v = hn::LoadU(df, in + i);
        const auto bits = bf16 ? FloatToBf16Bits(df, v)
                               : FloatToHalfBits(df, v);
        // The 16-bit patterns fit an int32: its saturating demotion keeps them.
        hn::StoreU(hn::DemoteTo(du16, hn::BitCast(hn::RebindToSigned<DF>(), bits)), du16, out + i);
    }
    for (; i < n; ++i) {
        const uint16_t bits = bf16 ? FloatToBf16(in[i]) : FloatToHalf(in[i]);
        std::memcpy(out + i, &bits, sizeof bits);
    }
}

const char* TargetName() { return hwy::TargetName(HWY_TARGET); }

// sums[j] += values[r * width + j] for r = 0, 1, ... rows - 1 in that order, each fp32 value widened to float64.
void AddRowsToColumns(const float* values, int64_t rows, int64_t width, double* sums) {
#if HWY_HAVE_FLOAT64
    const hn::ScalableTag<double> dd;
    const hn::Rebind<float, decltype(dd)> df_half;  // as many fp32 lanes as float64 lanes
    const int64_t lanes = static_cast<int64_t>(hn::Lanes(dd));
    int64_t j = 0;
    // Four columns' vectors at a time: each column's additions are a dependency chain down the rows, and four
    // independent chains keep the adder busy.
    for (; j + 4 * lanes <= width; j += 4 * lanes) {
        auto sum0 = hn::LoadU(dd, sums + j), sum1 = hn::LoadU(dd, sums + j + lanes);
        auto sum2 = hn::LoadU(dd, sums + j + 2 * lanes), sum3 = hn::LoadU(dd, sums + j + 3 * lanes);
        for (int64_t r = 0; r < rows; ++r) {
            const float* row = values + r * width + j;
            sum0 = hn::Add(sum0, hn::PromoteTo(dd, hn::LoadU(df_half, row)));
            sum1 = hn::Add(sum1, hn::PromoteTo(dd, hn::LoadU(df_half, row + lanes)));
            sum2 = hn::Add(sum2, hn::PromoteTo(dd, hn::LoadU(df_half, row + 2 * lanes)));
            sum3 = hn::Add(sum3, hn::PromoteTo(dd, hn::LoadU(df_half, row + 3 * lanes)));
        }
        hn::StoreU(sum0, dd, sums + j);
        hn::StoreU(sum1, dd, sums + j + lanes);
        hn::StoreU(sum2, dd, sums + j + 2 * lanes);
        hn::StoreU(sum3, dd, sums + j + 3 * lanes);
    }
    for (; j + lanes <= width; j += lanes) {
        auto sum = hn::LoadU(dd, sums + j);
        for (int64_t r = 0; r < rows; ++r) sum = hn::Add(sum, hn::PromoteTo(dd, hn::LoadU(df_half, values + r * width + j)));
        hn::StoreU(sum, dd, sums + j);
    }
    for (; j < width; ++j)
        for (int64_t r = 0; r < rows; ++r) sums[j] += static_cast<double>(values[r * width + j]);
#else
    for (int64_t j = 0; j < width; ++j)
        for (int64_t r = 0; r < rows; ++r) sums[j] += static_cast<double>(values[r * width + j]);
#endif
}

}  // namespace aclnn_cpu::kernels::HWY_NAMESPACE
HWY_AFTER_NAMESPACE();

#if HWY_ONCE
#if HWY_ARCH_X86 && (defined(__GNUC__) || defined(__clang__))
#include <cpuid.h>
#endif

namespace aclnn_cpu::kernels {

HWY_EXPORT(ConvertRow);
HWY_EXPORT(TargetName);
HWY_EXPORT(AddRowsToColumns);
HWY_EXPORT(Widen16BitRow);
HWY_EXPORT(Narrow16BitRow);

void WidenRow(const uint16_t* in, bool bf16, int64_t n, float* out) {
    HWY_DYNAMIC_DISPATCH(Widen16BitRow)(in, bf16, n, out);
}

void NarrowRow(const float* in, bool bf16, int64_t n, uint16_t* out) {
    HWY_DYNAMIC_DISPATCH(Narrow16BitRow)(in, bf16, n, out);
}

void AddRowsToColumnSums(const float* values, int64_t rows, int64_t width, double* sums) {
    HWY_DYNAMIC_DISPATCH(AddRowsToColumns)(values, rows, width, sums);
}

void ConvertRowSimd(ElementType from, const void* src, ElementType to, void* dst, int64_t n, Bf16Conversion bf16) {
    HWY_DYNAMIC_DISPATCH(ConvertRow)(from, src, to, dst, n, bf16);
}

void FlushStreamingStores() { hwy::FlushStream(); }

bool CpuHasAvx512Bf16() {
#if HWY_ARCH_X86 && (defined(__GNUC__) || defined(__clang__))
    static const bool has = __builtin_cpu_supports("avx512bf16");
    return has;
#else
    return false;
#endif
}

int64_t SumPrefetchBytes(bool cheap_functor) {
#if HWY_ARCH_X86 && (defined(__GNUC__) || defined(__clang__))
    enum class Core { kOther, kAmdZen5, kAmdEarlier };
    static const Core core = [] {
        __builtin_cpu_init();
        if (__builtin_cpu_is("amd") == 0) return Core::kOther;
        unsigned eax = 0, ebx = 0, ecx = 0, edx = 0;
        __get_cpuid(1, &eax, &ebx, &ecx, &edx);
        const unsigned family = ((eax >> 8) & 0xfu) + ((eax >> 20) & 0xffu);
        return family >= 0x1a ? Core::kAmdZen5 : Core::kAmdEarlier;
    }();
    if (core == Core::kOther) return 8192;
    return core == Core::kAmdEarlier && cheap_functor ? 0 : 4096;
#else
    (void)cheap_functor;
    return 8192;
#endif
}

std::string ActiveSimdTarget() { return HWY_DYNAMIC_DISPATCH(TargetName)(); }

}  // namespace aclnn_cpu::kernels
#endif  // HWY_ONCE
