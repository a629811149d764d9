// Exact lookups in small tables of fp32 coefficients (16 or 32 rows) for each lane of a vector, and the
// polynomials evaluated from them: the machinery shared by the project's table-driven vector math
// (kernels/vector_softplus-inl.h, kernels/vector_log-inl.h). Every target looks up the same values, so targets
// with FMA compute the same arithmetic and give the same bits.

#if defined(ACLNN_CPU_KERNELS_TABLE_LOOKUP_INL_H_) == defined(HWY_TARGET_TOGGLE)
#ifdef ACLNN_CPU_KERNELS_TABLE_LOOKUP_INL_H_
#undef ACLNN_CPU_KERNELS_TABLE_LOOKUP_INL_H_
#else
#define ACLNN_CPU_KERNELS_TABLE_LOOKUP_INL_H_
#endif

#include <cstddef>
#include <cstdint>

#include "hwy/highway.h"
#include "kernels/mask_test-inl.h"

HWY_BEFORE_NAMESPACE();
namespace aclnn_cpu::kernels::HWY_NAMESPACE {
namespace hn = hwy::HWY_NAMESPACE;

// Coefficient `column` of each lane's row of a table of kRows (16 or 32) entries per column. A pure function
// of (column, row): the index preparation it shares between the lookups of one call (byte indices, masks) is
// computed once by the compiler. A function rather than a class holding the row: SVE's vectors cannot be
// members. Rows must be below kRows (callers mask them), except on a whole AVX-512 vector, whose permutes read
// only the low four or five bits.
#if HWY_TARGET == HWY_NEON
// NEON: TBL with four registers looks up 64 bytes -- 16 entries -- by byte index, giving 0 for an index past
// them; for 32 rows, TBX looks up the next 16 with the indices moved down by 64 and leaves the lanes whose
// moved index is out of its range (rows below 16, wrapped past 191) as TBL set them.
template <int kRows, class D>
HWY_INLINE hn::Vec<D> TableCoefficient(D /*d*/, const float* column, hn::Vec<hn::RebindToUnsigned<D>> row) {
    static_assert(kRows == 16 || kRows == 32, "one or two 64-byte lookups");
    // Lane i's four byte indices: 4 row + {0, 1, 2, 3}.
    const uint8x16_t bytes =
        vreinterpretq_u8_u32(vmlaq_u32(vdupq_n_u32(0x03020100u), row.raw, vdupq_n_u32(0x04040404u)));
    const uint8_t* table = reinterpret_cast<const uint8_t*>(column);
    const uint8x16x4_t low = {{vld1q_u8(table), vld1q_u8(table + 16), vld1q_u8(table + 32), vld1q_u8(table + 48)}};
    uint8x16_t value = vqtbl4q_u8(low, bytes);
    if constexpr (kRows == 32) {
        const uint8x16x4_t high = {
            {vld1q_u8(table + 64), vld1q_u8(table + 80), vld1q_u8(table + 96), vld1q_u8(table + 112)}};
        value = vqtbx4q_u8(value, high, vsubq_u8(bytes, vdupq_n_u8(64)));
    }
    return hn::Vec<D>{vreinterpretq_f32_u8(value)};
}
#elif HWY_TARGET == HWY_SCALAR
template <int kRows, class D>
HWY_INLINE hn::Vec<D> TableCoefficient(D d, const float* column, hn::Vec<hn::RebindToUnsigned<D>> row) {
    return hn::Set(d, column[hn::GetLane(row)]);
}
#else
// Any other width: permutes within vectors of N lanes, over the kRows / N pieces of a column, the pieces after
// the first blended in where the row lies in them (N = 16: one permute for 16 rows, AVX-512's two-table
// permute for 32; AVX2: two or four permutes and one or three blends). Four lanes or fewer (SSE, 128-bit
// SVE) gather the 32-entry column instead of eight permutes and seven blends; scalable SVE learns N at run
// time and gathers beyond kRows lanes.
template <class D>
HWY_INLINE hn::Vec<D> TablePiece(D d, const float* piece, hn::Vec<hn::RebindToUnsigned<D>> index) {
    return hn::TableLookupLanes(hn::LoadU(d, piece), hn::IndicesFromVec(d, index));
}

template <int kRows, class D>
HWY_INLINE hn::Vec<D> TableCoefficient(D d, const float* column, hn::Vec<hn::RebindToUnsigned<D>> row) {
    const hn::RebindToUnsigned<D> du;
    const hn::RebindToSigned<D> di;  // rows are below 32: signed compares (every target has them) are exact
    const size_t lanes = hn::Lanes(d);
#if HWY_TARGET == HWY_AVX3 || HWY_TARGET == HWY_AVX3_DL
    if constexpr (kRows == 32 && hn::MaxLanes(D()) == 16) {
        return hn::Vec<D>{_mm512_permutex2var_ps(hn::Load(d, column).raw, hn::BitCast(di, row).raw,
                                                 hn::Load(d, column + 16).raw)};
    }
    if constexpr (kRows == 16 && hn::MaxLanes(D()) == 16) {
        return hn::Vec<D>{_mm512_permutexvar_ps(hn::BitCast(di, row).raw, hn::Load(d, column).raw)};
    }
#endif
    if (lanes > static_cast<size_t>(kRows) || (kRows > 16 && lanes <= 4))
        return hn::GatherIndex(d, column, hn::BitCast(di, row));
    if (lanes == static_cast<size_t>(kRows)) return TablePiece(d, column, row);
    const auto within = hn::And(row, hn::Set(du, static_cast<uint32_t>(lanes - 1)));
    auto value = TablePiece(d, column, within);
    for (size_t first = lanes; first < static_cast<size_t>(kRows); first += lanes) {
        const auto last_before = hn::Set(di, static_cast<int32_t>(first) - 1);
        const auto in_piece = hn::RebindMask(d, hn::Gt(hn::BitCast(di, row), last_before));
        value = hn::IfThenElse(in_piece, TablePiece(d, column + first, within), value);
    }
    return value;
}
#endif

// P(r) = c0 + c1 r + ... + c_kDegree r^kDegree, the coefficients of each lane's row looked up in `table`
// (coefficient-major, kRows entries each), by Horner's scheme: the terms shrink fast (|r| well below 1), so the
// last, largest steps round least (Estrin's shorter chain measured no faster: the lookups and multiply-adds
// share the pipes that bound it, not latency).
template <int kRows, int kDegree, class D>
HWY_INLINE hn::Vec<D> TablePolynomial(D d, const float (*table)[kRows], hn::Vec<hn::RebindToUnsigned<D>> row,
                                      hn::Vec<D> r) {
    auto p = TableCoefficient<kRows>(d, table[kDegree], row);
    for (int j = kDegree - 1; j >= 0; --j) p = hn::MulAdd(p, r, TableCoefficient<kRows>(d, table[j], row));
    return p;
}

}  // namespace aclnn_cpu::kernels::HWY_NAMESPACE
HWY_AFTER_NAMESPACE();

#endif  // ACLNN_CPU_KERNELS_TABLE_LOOKUP_INL_H_
