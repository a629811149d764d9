// How the tile loops read and write operands: vectors of any element type as fp32 (and back), an operand's
// elements within a tile gathered into or scattered from dense buffers, and blocks of an operand that runs
// down the tile's columns (a transposed view) transposed in L1, with the prefetches that feed them.
// Included by elementwise_tiles-inl.h inside each target's namespace pass.

// Include guard toggled per target, as Highway's per-target headers require.
#if defined(ACLNN_CPU_KERNELS_OPERAND_ACCESS_INL_H_) == defined(HWY_TARGET_TOGGLE)
#ifdef ACLNN_CPU_KERNELS_OPERAND_ACCESS_INL_H_
#undef ACLNN_CPU_KERNELS_OPERAND_ACCESS_INL_H_
#else
#define ACLNN_CPU_KERNELS_OPERAND_ACCESS_INL_H_
#endif

#include <algorithm>
#include <cstdlib>
#include <cstdint>
#include <cstring>

#include "common/float_convert.h"
#include "hwy/highway.h"
#include "kernels/element_types.h"
#include "kernels/vector_convert-inl.h"

HWY_BEFORE_NAMESPACE();
namespace aclnn_cpu::kernels::HWY_NAMESPACE {
namespace hn = hwy::HWY_NAMESPACE;

// ---- vectors of any element type ---------------------------------------------------------------------------

using DF = hn::ScalableTag<float>;
using DU = hn::RebindToUnsigned<DF>;
using DU16 = hn::Rebind<uint16_t, DF>;

HWY_INLINE hn::Vec<DF> RoundToType(DF df, ElementType type, hn::Vec<DF> r) {
    if (type == ElementType::kFloat16) return HalfBitsToFloat(df, FloatToHalfBits(df, r));
    if (type == ElementType::kBFloat16) return Bf16BitsToFloat(df, FloatToBf16Bits(df, r));
    return r;
}

// One vector of `type` elements at p, as fp32.
HWY_INLINE hn::Vec<DF> LoadAsFloat(DF df, ElementType type, const char* p) {
    if (type == ElementType::kFloat32) return hn::LoadU(df, reinterpret_cast<const float*>(p));
    // INT32 (a mixed instance's input, promote type FLOAT): converted to nearest, ties to even.
    if (type == ElementType::kInt32)
        return hn::ConvertTo(df, hn::LoadU(hn::RebindToSigned<DF>(), reinterpret_cast<const int32_t*>(p)));
#if ACLNN_CPU_HARDWARE_F16
    if (type == ElementType::kFloat16) {
        const hn::Rebind<hwy::float16_t, DF> df16;
        return hn::PromoteTo(df, hn::LoadU(df16, reinterpret_cast<const hwy::float16_t*>(p)));
    }
#endif
    const auto bits = hn::PromoteTo(DU(), hn::LoadU(DU16(), reinterpret_cast<const uint16_t*>(p)));
    return type == ElementType::kFloat16 ? HalfBitsToFloat(df, bits) : Bf16BitsToFloat(df, bits);
}

// One vector of fp32 values stored at p as `type` elements.
template <bool kStream>
HWY_INLINE void StoreAsType(DF df, ElementType type, hn::Vec<DF> v, char* p) {
    if (type == ElementType::kFloat32) {
        float* out = reinterpret_cast<float*>(p);
        if (kStream) hn::Stream(v, df, out); else hn::StoreU(v, df, out);
        return;
    }
    const DU16 du16;
    hn::Vec<DU16> packed;
#if ACLNN_CPU_HARDWARE_F16
    if (type == ElementType::kFloat16) {
        packed = hn::BitCast(du16, hn::DemoteTo(hn::Rebind<hwy::float16_t, DF>(), v));
    } else
#endif
    {
        const auto bits = type == ElementType::kFloat16 ? FloatToHalfBits(df, v) : FloatToBf16Bits(df, v);
        packed = hn::TruncateTo(du16, bits);
    }
    // 16-bit results fill half a vector; callers stream them only where that is at least 16 bytes.
    uint16_t* out = reinterpret_cast<uint16_t*>(p);
    if (kStream) hn::Stream(packed, du16, out); else hn::StoreU(packed, du16, out);
}

// One element at p, widened exactly to fp32 (widening is exact, so this equals what the vector loads give).
// A scalar: the tile loops broadcast it where they use it.
HWY_INLINE float ElementAsFloat(ElementType type, const char* p) {
    if (IsInteger(type)) return kernels::LoadAsFloat(type, p);
    if (type == ElementType::kFloat32) {
        float value;
        std::memcpy(&value, p, sizeof value);
        return value;
    }
    uint16_t bits;
    std::memcpy(&bits, p, sizeof bits);
    return type == ElementType::kFloat16 ? HalfToFloat(bits) : Bf16ToFloat(bits);
}

// Whether streaming stores of 16-bit results write exactly one whole vector register (not on 128-bit
// targets, whose 16-bit half vectors are 8 bytes).
constexpr bool kCanStream16 = hn::MaxLanes(DU16()) * sizeof(uint16_t) >= 16;
// ---- an operand within a tile ------------------------------------------------------------------------------

struct TileOperand {
    ElementType type;
    ElementType promote;  // what an integer input is rounded to once widened (CANN casts it to the promote type)
    int64_t size;  // bytes per element
    const char* origin;
    int64_t inner, outer;  // byte strides
    bool broadcast;        // one value for the whole tile
    float value;           // that value, when broadcast (a scalar: structs cannot hold SVE vectors)
};

// Visits [first, first + len) of the tile (row-major) as runs within rows: visit(address, count, done).
template <class Visit>
HWY_INLINE void ForEachRun(const TileOperand& op, int64_t inner_size, int64_t first, int64_t len, Visit&& visit) {
    int64_t done = 0;
    while (done < len) {
        const int64_t row = (first + done) / inner_size, column = (first + done) % inner_size;
        const int64_t count = inner_size - column < len - done ? inner_size - column : len - done;
        visit(op.origin + row * op.outer + column * op.inner, count, done);
        done += count;
    }
}

// Copies count elements of type T between a strided address and a dense buffer (stride 0 repeats one).
template <typename T>
HWY_INLINE void CopyIn(const char* src, int64_t stride, int64_t count, char* HWY_RESTRICT dst) {
    T* to = reinterpret_cast<T*>(dst);
    for (int64_t i = 0; i < count; ++i) std::memcpy(&to[i], src + i * stride, sizeof(T));
}
template <typename T>
HWY_INLINE void CopyOut(const char* HWY_RESTRICT src, int64_t count, char* dst, int64_t stride) {
    const T* from = reinterpret_cast<const T*>(src);
    for (int64_t i = 0; i < count; ++i) std::memcpy(dst + i * stride, &from[i], sizeof(T));
}

// Copies the raw elements [first, first + len) of the tile to dst, zero-padding to padded.
inline void Gather(const TileOperand& op, int64_t inner_size, int64_t first, int64_t len, int64_t padded,
                   char* HWY_RESTRICT dst) {
    ForEachRun(op, inner_size, first, len, [&](const char* src, int64_t count, int64_t done) {
        char* to = dst + done * op.size;
        if (op.inner == op.size) {
            std::memcpy(to, src, static_cast<size_t>(count * op.size));
        } else if (op.size == 4) {
            CopyIn<uint32_t>(src, op.inner, count, to);
        } else if (op.size == 2) {
            CopyIn<uint16_t>(src, op.inner, count, to);
        } else if (op.size == 8) {  // an INT64 input
            CopyIn<uint64_t>(src, op.inner, count, to);
        } else {  // a one-byte integer input
            CopyIn<uint8_t>(src, op.inner, count, to);
        }
    });
    std::memset(dst + len * op.size, 0, static_cast<size_t>((padded - len) * op.size));
}

inline void Scatter(const char* HWY_RESTRICT src, const TileOperand& op, int64_t inner_size, int64_t first,
                    int64_t len) {
    ForEachRun(op, inner_size, first, len, [&](const char* address, int64_t count, int64_t done) {
        char* to = const_cast<char*>(address);
        const char* from = src + done * op.size;
        if (op.inner == op.size) {
            std::memcpy(to, from, static_cast<size_t>(count * op.size));
        } else if (op.size == 4) {
            CopyOut<uint32_t>(from, count, to, op.inner);
        } else {
            CopyOut<uint16_t>(from, count, to, op.inner);
        }
    });
}

// Address of element `first` when [first, first + len) is contiguous in memory, else nullptr.
inline const char* ContiguousBlock(const TileOperand& op, int64_t inner_size, int64_t first, int64_t len) {
    if (op.inner != op.size) return nullptr;
    const int64_t row = first / inner_size, column = first % inner_size;
    const bool one_row = column + len <= inner_size;
    if (!one_row && op.outer != inner_size * op.size) return nullptr;
    return op.origin + row * op.outer + column * op.inner;
}

// The padded (a whole number of vectors) raw `type` elements at src, as fp32 at dst.
inline void WidenToFloat(ElementType type, const char* HWY_RESTRICT src, int64_t padded, float* HWY_RESTRICT dst) {
    const DF df;
    const int64_t lanes = static_cast<int64_t>(hn::Lanes(df));
    const int64_t size = ElementSize(type);
    for (int64_t i = 0; i < padded; i += lanes) hn::Store(LoadAsFloat(df, type, src + i * size), df, dst + i);
}

// The same for integer elements: each converted to fp32 (rounded to nearest, ties to even), then rounded to
// the promote type: CANN's Cast of the input to the promote type, which the kernel then widens to fp32.
inline void IntegersToFloat(ElementType type, ElementType promote, const char* HWY_RESTRICT src, int64_t padded,
                            float* HWY_RESTRICT dst) {
    // One loop per type, each a plain conversion the compiler vectorises.
    auto convert = [&](auto element) {
        using T = decltype(element);
        for (int64_t i = 0; i < padded; ++i) {
            T value;
            std::memcpy(&value, src + i * static_cast<int64_t>(sizeof(T)), sizeof(T));
            dst[i] = static_cast<float>(value);
        }
    };
    switch (type) {
        case ElementType::kInt64: convert(int64_t{}); break;
        case ElementType::kInt32: convert(int32_t{}); break;
        case ElementType::kInt16: convert(int16_t{}); break;
        case ElementType::kInt8: convert(int8_t{}); break;
        case ElementType::kUInt8: convert(uint8_t{}); break;
        default:  // kBool: any non-zero byte is true
            for (int64_t i = 0; i < padded; ++i) dst[i] = src[i] != 0 ? 1.0f : 0.0f;
    }
    if (promote == ElementType::kFloat32) return;
    const DF df;
    const int64_t lanes = static_cast<int64_t>(hn::Lanes(df));
    for (int64_t i = 0; i < padded; i += lanes) hn::Store(RoundToType(df, promote, hn::Load(df, dst + i)), df, dst + i);
}

// The fp32 values of an input block: in place for contiguous fp32, otherwise widened into buffer.
inline const float* InputBlock(const TileOperand& op, int64_t inner_size, int64_t first, int64_t len,
                               int64_t padded, float* HWY_RESTRICT buffer, char* HWY_RESTRICT raw) {
    const char* src = len == padded ? ContiguousBlock(op, inner_size, first, len) : nullptr;
    if (src != nullptr && op.type == ElementType::kFloat32) return reinterpret_cast<const float*>(src);
    if (src == nullptr) {
        Gather(op, inner_size, first, len, padded, raw);
        src = raw;
    }
    if (IsInteger(op.type)) {
        IntegersToFloat(op.type, op.promote, src, padded, buffer);
    } else {
        WidenToFloat(op.type, src, padded, buffer);
    }
    return buffer;
}

// ---- blocks of operands that jump between neighbours ------------------------------------------------------

// A block of the tile's rows and columns, visited together when an operand jumps more than a cache line
// between neighbours in a row (a transposed view): the kTileRows rows share the lines each column touches.
// 32 x 128 measured best of 16..64 x 32..256 on the transposed benchmark (a 4096 x 4096 fp32 `self`); the
// fp32 block (16 KiB) stays in L1 beside the rows being computed.
constexpr int64_t kTileRows = 32;
constexpr int64_t kTileColumns = 128;  // a multiple of every target's lane count, and of kTileRows
constexpr int64_t kCacheLine = 64;
static_assert(kTileColumns % kTileRows == 0, "PrefetchColumnsPart splits the columns into kTileRows parts");

// Whether an operand runs contiguously down the tile's columns while jumping along its rows: a transposed
// view, read a column at a time (kTileRows neighbours in memory) and transposed in L1.
inline bool RunsDownColumns(const TileOperand& op) {
    return op.outer == op.size && std::abs(op.inner) > kCacheLine;
}

// Where a prefetched line should go: L1 for rows computed from directly, L2 for the columns of a transposed
// operand -- a power-of-two row pitch maps all of a block's columns to one or two L1 sets, where they would
// evict each other before the transpose reads them.
enum class PrefetchTo { kL1, kL2 };

// Starts loading the cache line at p. GCC 12 deletes the prefetch builtins (and Highway's Prefetch) as dead
// code when they are inlined into these loops, so x86 and AArch64 state them in volatile asm (PRFM PLDL1KEEP
// and PLDL2KEEP are AArch64's prefetcht0 and prefetcht1; like them they never fault).
template <PrefetchTo kTo>
HWY_INLINE void PrefetchLine(const char* p) {
#if HWY_ARCH_X86
    if constexpr (kTo == PrefetchTo::kL1) {
        asm volatile("prefetcht0 %0" : : "m"(*p));
    } else {
        asm volatile("prefetcht1 %0" : : "m"(*p));
    }
#elif HWY_ARCH_ARM_A64
    if constexpr (kTo == PrefetchTo::kL1) {
        asm volatile("prfm pldl1keep, %0" : : "Q"(*p));
    } else {
        asm volatile("prfm pldl2keep, %0" : : "Q"(*p));
    }
#else
    __builtin_prefetch(p, 0, kTo == PrefetchTo::kL1 ? 3 : 2);
#endif
}

// Every line of the bytes bytes at first.
template <PrefetchTo kTo>
HWY_INLINE void PrefetchRun(const char* first, int64_t bytes) {
    const int64_t skip = static_cast<int64_t>(reinterpret_cast<uintptr_t>(first) % kCacheLine);
    const int64_t lines = (skip + bytes + kCacheLine - 1) / kCacheLine;
    for (int64_t i = 0; i < lines; ++i) PrefetchLine<kTo>(first - skip + i * kCacheLine);
}

// Asks the memory system for part `part` (of kTileRows parts) of the lines of the block of rows x columns
// elements at (row, column) of op, an operand read down columns: kTileColumns / kTileRows of its columns. The
// hardware prefetchers cannot follow runs this short, so the next block's columns are requested while the
// current block computes, a part per row computed: spread out, so that the requests do not all wait at once
// for the core's few line-fill buffers.
inline void PrefetchColumnsPart(const TileOperand& op, int64_t row, int64_t column, int64_t rows, int64_t columns,
                                int64_t part) {
    const char* origin = op.origin + row * op.outer + column * op.inner;
    constexpr int64_t kPerPart = kTileColumns / kTileRows;
    const int64_t end = std::min(columns, (part + 1) * kPerPart);
    for (int64_t j = part * kPerPart; j < end; ++j) PrefetchRun<PrefetchTo::kL2>(origin + j * op.inner, rows * op.size);
}

// Asks for the lines of columns elements at (row, column) of op, an operand read along rows, into L1.
inline void PrefetchRow(const TileOperand& op, int64_t row, int64_t column, int64_t columns) {
    PrefetchRun<PrefetchTo::kL1>(op.origin + row * op.outer + column * op.inner, columns * op.size);
}

#if HWY_TARGET != HWY_SCALAR
// Transposes 4 x 4 32-bit elements: four columns of four neighbours (column c at src + c * stride bytes)
// become four rows (row r at dst + r * pitch bytes). Two rounds of interleaves in 128-bit vectors, on every
// target: 12 instructions for 16 elements, where element-wise copies take 32 loads and stores, and stores
// that each touch another line were most of the transposed path's cost (in cache on the Zen 5).
HWY_INLINE void Transpose4x4(const char* HWY_RESTRICT src, int64_t stride, char* HWY_RESTRICT dst, int64_t pitch) {
    const hn::FixedTag<uint32_t, 4> d32;
    const hn::FixedTag<uint64_t, 2> d64;
    const auto c0 = hn::LoadU(d32, reinterpret_cast<const uint32_t*>(src));
    const auto c1 = hn::LoadU(d32, reinterpret_cast<const uint32_t*>(src + stride));
    const auto c2 = hn::LoadU(d32, reinterpret_cast<const uint32_t*>(src + 2 * stride));
    const auto c3 = hn::LoadU(d32, reinterpret_cast<const uint32_t*>(src + 3 * stride));
    // Pairs of columns, rows 0-1 (low) and 2-3 (high), as 64-bit lanes: (c0[0], c1[0]), (c0[1], c1[1]), ...
    const auto low01 = hn::BitCast(d64, hn::InterleaveLower(d32, c0, c1));
    const auto high01 = hn::BitCast(d64, hn::InterleaveUpper(d32, c0, c1));
    const auto low23 = hn::BitCast(d64, hn::InterleaveLower(d32, c2, c3));
    const auto high23 = hn::BitCast(d64, hn::InterleaveUpper(d32, c2, c3));
    hn::StoreU(hn::BitCast(d32, hn::InterleaveLower(d64, low01, low23)), d32, reinterpret_cast<uint32_t*>(dst));
    hn::StoreU(hn::BitCast(d32, hn::InterleaveUpper(d64, low01, low23)), d32,
               reinterpret_cast<uint32_t*>(dst + pitch));
    hn::StoreU(hn::BitCast(d32, hn::InterleaveLower(d64, high01, high23)), d32,
               reinterpret_cast<uint32_t*>(dst + 2 * pitch));
    hn::StoreU(hn::BitCast(d32, hn::InterleaveUpper(d64, high01, high23)), d32,
               reinterpret_cast<uint32_t*>(dst + 3 * pitch));
}
#endif

// Transposes rows x columns elements of op, an operand read down columns, starting at origin, into rows of
// pitch bytes at to, in op's dtype. With prefetch_columns > 0 the lines of the column that many further on
// (within columns) are asked for into L2 as it goes, and the first ones before it starts: a band's columns
// are runs of a few lines each, too short for the hardware prefetchers (see FusedRowsInBands).
inline void TransposeColumns(const TileOperand& op, const char* origin, int64_t rows, int64_t columns,
                             char* HWY_RESTRICT to, int64_t pitch, int64_t prefetch_columns) {
    const int64_t run = rows * op.size;
    auto prefetch = [&](int64_t from, int64_t end) {
        for (int64_t c = from; c < std::min(columns, end); ++c) PrefetchRun<PrefetchTo::kL2>(origin + c * op.inner, run);
    };
    if (prefetch_columns > 0) prefetch(0, prefetch_columns);
    int64_t j = 0;
#if HWY_TARGET != HWY_SCALAR
    if (op.size == 4) {
        const int64_t whole_rows = rows / 4 * 4;
        for (; j + 4 <= columns; j += 4) {
            if (prefetch_columns > 0) prefetch(j + prefetch_columns, j + prefetch_columns + 4);
            const char* from = origin + j * op.inner;
            char* into = to + j * 4;
            for (int64_t r = 0; r < whole_rows; r += 4) Transpose4x4(from + r * 4, op.inner, into + r * pitch, pitch);
            for (int64_t c = 0; c < 4 && whole_rows < rows; ++c)  // the last rows % 4 of each column
                CopyOut<uint32_t>(from + c * op.inner + whole_rows * 4, rows - whole_rows, into + whole_rows * pitch + c * 4,
                                  pitch);
        }
    }
#endif
    for (; j < columns; ++j) {
        if (prefetch_columns > 0) prefetch(j + prefetch_columns, j + prefetch_columns + 1);
        if (op.size == 4) {
            CopyOut<uint32_t>(origin + j * op.inner, rows, to + j * 4, pitch);
        } else {
            CopyOut<uint16_t>(origin + j * op.inner, rows, to + j * 2, pitch);
        }
    }
}

// Op's block of rows x columns elements at (row, column) in its own dtype, row-major with kTileColumns per row
// at to, each row zero-padded to a whole number of vectors.
inline void TransposeBlockRaw(const TileOperand& op, int64_t row, int64_t column, int64_t rows, int64_t columns,
                              char* HWY_RESTRICT to) {
    TransposeColumns(op, op.origin + row * op.outer + column * op.inner, rows, columns, to, kTileColumns * op.size, 0);
    const DF df;
    const int64_t lanes = static_cast<int64_t>(hn::Lanes(df));
    const int64_t padded = (columns + lanes - 1) / lanes * lanes;
    for (int64_t r = 0; r < rows && padded != columns; ++r)  // the last vector's spare lanes: zeros
        std::memset(to + (r * kTileColumns + columns) * op.size, 0, static_cast<size_t>((padded - columns) * op.size));
}

// The same block as fp32 values. raw holds the transposed 16-bit elements meanwhile.
inline void TransposeBlock(const TileOperand& op, int64_t row, int64_t column, int64_t rows, int64_t columns,
                           float* HWY_RESTRICT tile, char* HWY_RESTRICT raw) {
    if (op.type == ElementType::kFloat32) {
        TransposeBlockRaw(op, row, column, rows, columns, reinterpret_cast<char*>(tile));
        return;
    }
    TransposeBlockRaw(op, row, column, rows, columns, raw);
    const DF df;
    const int64_t lanes = static_cast<int64_t>(hn::Lanes(df));
    const int64_t padded = (columns + lanes - 1) / lanes * lanes;
    for (int64_t r = 0; r < rows; ++r)
        WidenToFloat(op.type, raw + r * kTileColumns * 2, padded, tile + r * kTileColumns);
}

}  // namespace aclnn_cpu::kernels::HWY_NAMESPACE
HWY_AFTER_NAMESPACE();

#endif  // include guard
