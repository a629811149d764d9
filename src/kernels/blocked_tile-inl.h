// The blocked path: any dtypes, any strides. A tile goes in blocks of kBlock elements through fp32 buffers in
// L1 (gathered, computed, then stored, scattered or summed); a tile with a transposed operand goes by whole
// rows, in bands through the fused row kernel where its operands allow, else in blocks of kTileRows x
// kTileColumns transposed in L1. Included by elementwise_tiles-inl.h inside each target's namespace pass.

// Include guard toggled per target, as Highway's per-target headers require.
#if defined(ACLNN_CPU_KERNELS_BLOCKED_TILE_INL_H_) == defined(HWY_TARGET_TOGGLE)
#ifdef ACLNN_CPU_KERNELS_BLOCKED_TILE_INL_H_
#undef ACLNN_CPU_KERNELS_BLOCKED_TILE_INL_H_
#else
#define ACLNN_CPU_KERNELS_BLOCKED_TILE_INL_H_
#endif

#include <algorithm>
#include <cstdint>
#include <cstdlib>
#include <memory>
#include <new>

#include "hwy/highway.h"
#include "kernels/functor_application-inl.h"
#include "kernels/fused_rows-inl.h"
#include "kernels/operand_access-inl.h"
#include "kernels/sum_accumulation-inl.h"
#include "kernels/tile_kernel.h"

// The fuzz build defines it as 1: every tile then takes the blocked path (elementwise_tiles-inl.h).
#ifndef ACLNN_CPU_BLOCKED_KERNELS_ONLY
#define ACLNN_CPU_BLOCKED_KERNELS_ONLY 0
#endif

HWY_BEFORE_NAMESPACE();
namespace aclnn_cpu::kernels::HWY_NAMESPACE {
namespace hn = hwy::HWY_NAMESPACE;

constexpr int64_t kBlock = 512;  // elements per block: 2 KiB per fp32 buffer; all buffers stay in L1

// Computes a block and hands each result vector to store(i, vector), i = 0, lanes, ... < padded.
template <class Op, class Store>
HWY_INLINE void ComputeBlock(const KernelConfig& config, const Op& op, const TileOperand* in,
                             const float* const* values, int64_t padded, Store&& store) {
    constexpr int kScaled = Op::kScaledInput;
    const DF df;
    const int64_t lanes = static_cast<int64_t>(hn::Lanes(df));
    const auto scale_by = hn::Set(df, config.input_scale);
    const bool scale = kScaled >= 0 && config.input_scale != 1.0f;
    const ElementType promote = config.promote;
    // Rounding to the promote type changes nothing when out has that very type: narrowing rounds the same way.
    // A sum keeps the fp32 values (the reduction rounds its result once, at the end).
    const bool round = promote != ElementType::kFloat32 && promote != config.out_type() &&
                       config.output == OutputMode::kStore;
    // Input k of the vector at element i (broadcasts come from the tile's scalar).
    auto input = [&](int k, int64_t i) {
        auto v = in[k].broadcast ? hn::Set(df, in[k].value) : hn::LoadU(df, values[k] + i);
        if (kScaled >= 0 && k == kScaled && scale) v = hn::Mul(v, scale_by);
        return v;
    };
    auto apply = [&](int64_t i) { return ApplyTo(op, df, [&](int k) { return input(k, i); }); };
    int64_t i = 0;
    FormStart form_start;
    // Two independent vectors per step, as in the fused path, so that long dependency chains interleave.
    for (; i + 2 * lanes <= padded; i += 2 * lanes) {
        ApplyToTwo(op, df, form_start, input, i, i + lanes, [&](hn::Vec<DF> r, hn::Vec<DF> r2) {
            store(i, round ? RoundToType(df, promote, r) : r);
            store(i + lanes, round ? RoundToType(df, promote, r2) : r2);
        });
    }
    for (; i < padded; i += lanes) {
        const auto r = apply(i);
        store(i, round ? RoundToType(df, promote, r) : r);
    }
}

// The rows [first_row, end_row) of a tile whose operands the fused row kernel can read once those that run
// down the columns (transposed views) are transposed: in bands of up to kBandRows whole rows. Each band's
// transposed operands are transposed into a buffer first (their lines asked for kBandPrefetchColumns columns
// ahead), then the band goes through the row kernel in one call, reading the buffer like a contiguous input
// and every other operand along whole rows -- long runs that the hardware prefetchers follow, where the 32 x
// 128 blocks of BlockedTile read runs of 512 bytes. A transposed column is then a run of up to kBandRows
// elements (512 bytes in fp32) rather than 32. Returns false, having done nothing, when a band of at least
// kMinBandRows rows does not fit kBandBytes or the buffer cannot be had; the blocks then do the rows.
constexpr int64_t kBandRows = 128;
constexpr int64_t kMinBandRows = 16;
constexpr int64_t kBandBytes = int64_t{4} << 20;  // about: the transposed inputs' rows of a band, together
constexpr int64_t kBandPrefetchColumns = 32;
inline bool FusedRowsInBands(const KernelConfig& config, const Tile& tile, const TileOperand* ops, int inputs,
                             int64_t first_row, int64_t end_row, FusedRowsFunction fused_rows) {
    const int64_t inner = tile.inner_size;
    int transposed = 0;
    for (int k = 0; k < inputs; ++k) transposed += RunsDownColumns(ops[k]) ? 1 : 0;
    // Fused rows have one input dtype. Whole lines of a transposed column per band: with 124 rows rather than
    // 128 the bands shared lines and the 64M benchmark lost a fifth.
    const int64_t size = ops[0].size, line_rows = kCacheLine / size;
    const int64_t band_rows =
        std::min(kBandRows, kBandBytes / (inner * size * std::max(transposed, 1))) / line_rows * line_rows;
    if (band_rows < kMinBandRows) return false;
    // A line more than a row: with a power-of-two pitch a column's elements would land in the same L1 sets of
    // the buffer's rows, where the transposes' stores evict each other (that ran at a third of the speed).
    const int64_t pitch = inner * size + kCacheLine;
    // A tile of fewer rows (one matrix of a batch, say) needs a buffer of only those rows.
    const int64_t buffer_rows = std::min(band_rows, end_row - first_row);
    std::unique_ptr<char[]> buffer(new (std::nothrow) char[static_cast<size_t>(transposed * buffer_rows * pitch)]);
    if (buffer == nullptr) return false;
    const TileOperand& out = ops[inputs];
    for (int64_t band = first_row; band < end_row; band += band_rows) {
        const int64_t rows = std::min(band_rows, end_row - band);
        FusedRows a;
        char* next_buffer = buffer.get();
        for (int k = 0; k < inputs; ++k) {
            const TileOperand& op = ops[k];
            a.in_constant[k] = false;
            if (RunsDownColumns(op)) {
                TransposeColumns(op, op.origin + band * op.outer, rows, inner, next_buffer, pitch, kBandPrefetchColumns);
                a.in[k] = next_buffer;
                a.in_outer[k] = pitch;
                next_buffer += buffer_rows * pitch;
            } else {
                a.in[k] = op.origin + band * op.outer;
                a.in_outer[k] = op.outer;
                a.in_constant[k] = op.inner == 0;
            }
        }
        a.out = tile.origin[inputs] + band * out.outer;
        a.out_outer = out.outer;
        a.rows = rows;
        a.count = inner;
        fused_rows(config, a);
    }
    return true;
}

// One tile's blocks: its operands as the blocked path reads them (a broadcast input's value read once), and
// the L1 buffers a block of up to kBlock consecutive elements goes through.
template <class Op>
class TileBlocks {
public:
    static constexpr int kInputs = Op::kInputs;

    TileBlocks(const KernelConfig& config, const Tile& tile, SumAccumulator* sums)
        : config_(config), op_(MakeFunctor<Op>(config)), tile_(tile), sums_(sums) {
        for (int k = 0; k <= kInputs; ++k) {
            TileOperand& op = ops_[k];
            op.type = config.types[k];
            op.promote = config.promote;
            op.size = ElementSize(op.type);
            op.origin = tile.origin[k];
            op.inner = tile.inner_stride[k];
            op.outer = tile.outer_stride[k];
            op.broadcast = k != kInputs && op.inner == 0 && op.outer == 0;
            op.value = !op.broadcast ? 0.0f
                       : IsInteger(op.type) ? RoundTo(config.promote, ElementAsFloat(op.type, op.origin))
                                            : ElementAsFloat(op.type, op.origin);
        }
    }

    const TileOperand* operands() const { return ops_; }
    // Scratch for one block's raw elements, free between blocks (a transposed block of 16-bit elements).
    char* scratch() { return raw_; }

    // The tile's elements [begin, end) in blocks of kBlock, in order.
    void Linear(int64_t begin, int64_t end) {
        for (int64_t first = begin; first < end; first += kBlock) Block(first, std::min(kBlock, end - first), nullptr);
    }

    // The block of len (<= kBlock) consecutive elements from `first` (row-major within the tile). given[k],
    // when not null, holds input k's fp32 values already (a row of a transposed block).
    void Block(int64_t first, int64_t len, const float* const* given) {
        const DF df;
        const int64_t lanes = static_cast<int64_t>(hn::Lanes(df));
        const int64_t padded = (len + lanes - 1) / lanes * lanes;
        const float* values[kMaxInputs] = {};
        for (int k = 0; k < kInputs; ++k) {
            if (given != nullptr && given[k] != nullptr) {
                values[k] = given[k];
            } else if (!ops_[k].broadcast) {
                values[k] = InputBlock(ops_[k], tile_.inner_size, first, len, padded, buffers_[k], raw_);
            }
        }
        if (config_.output == OutputMode::kSum) {
            float* results = reinterpret_cast<float*>(raw_);  // the gathers of this block are done with raw_
            ComputeBlock(config_, op_, ops_, values, padded,
                             [&](int64_t i, hn::Vec<DF> r) { hn::Store(r, df, results + i); });
            AccumulateSums(results, len, tile_.linear_origin + first, sums_);
            return;
        }
        StoreBlock(values, first, len, padded);
    }

private:
    // Computes a block and stores it into out: straight into out's memory where the block is contiguous there
    // (streamed where large and aligned), else through raw_ and a scatter.
    void StoreBlock(const float* const* values, int64_t first, int64_t len, int64_t padded) {
        const DF df;
        const int64_t lanes = static_cast<int64_t>(hn::Lanes(df));
        const TileOperand& out = ops_[kInputs];
        const ElementType out_type = out.type;
        char* direct =
            len == padded ? const_cast<char*>(ContiguousBlock(out, tile_.inner_size, first, len)) : nullptr;
        const bool stream = direct != nullptr && config_.stream_stores && out_type == ElementType::kFloat32 &&
                            reinterpret_cast<uintptr_t>(direct) % (static_cast<uintptr_t>(lanes) * 4) == 0;
        if (stream) {
            ComputeBlock(config_, op_, ops_, values, padded,
                             [&](int64_t i, hn::Vec<DF> r) { StoreAsType<true>(df, out_type, r, direct + i * 4); });
        } else if (direct != nullptr) {
            ComputeBlock(config_, op_, ops_, values, padded, [&](int64_t i, hn::Vec<DF> r) {
                StoreAsType<false>(df, out_type, r, direct + i * out.size);
            });
        } else {
            ComputeBlock(config_, op_, ops_, values, padded, [&](int64_t i, hn::Vec<DF> r) {
                StoreAsType<false>(df, out_type, r, raw_ + i * out.size);
            });
            Scatter(raw_, out, tile_.inner_size, first, len);
        }
    }

    const KernelConfig& config_;
    const Op op_;
    const Tile& tile_;
    SumAccumulator* sums_;
    TileOperand ops_[kInputs + 1];
    HWY_ALIGN float buffers_[kInputs][kBlock];
    // Raw elements: a gathered block of kBlock, or a transposed block of 16-bit elements.
    HWY_ALIGN char raw_[std::max<int64_t>(kBlock * sizeof(float), kTileRows * kTileColumns * 2)];
};

// Whether an operand jumps more than a cache line between neighbours in a row (a transposed view): read
// element by element along rows, it would touch a new line for every element.
inline bool HasWideSteps(const TileOperand* ops, int operands) {
    for (int k = 0; k < operands; ++k)
        if (std::abs(ops[k].inner) > kCacheLine) return true;
    return false;
}

// The fused row kernel for the rows of a tile with transposed operands, or nullptr when the operands that are
// not transposed could not take the fused path (they must share one dtype and each be contiguous or constant
// along rows, out contiguous along rows). The kernel reads the transposed operands, kept in their dtype, from
// a buffer like contiguous ones: the same instructions per vector, so the same bits, without the per-block
// buffers and checks of TileBlocks::Block, which cost most of the time in cache (docs/design.md, "Kernels").
template <class Op>
FusedRowsFunction RowKernelForTransposedRows(const KernelConfig& config, const TileOperand* ops) {
#if ACLNN_CPU_BLOCKED_KERNELS_ONLY
    (void)config, (void)ops;
    return nullptr;
#else
    constexpr int kInputs = Op::kInputs;
    const TileOperand& out = ops[kInputs];
    if (out.inner != out.size) return nullptr;
    for (int k = 0; k < kInputs; ++k) {
        const TileOperand& op = ops[k];
        if (op.type != ops[0].type || !(RunsDownColumns(op) || op.inner == 0 || op.inner == op.size)) return nullptr;
    }
    // Streaming stores need every row of the blocks to start on a vector boundary (kTileColumns is a
    // multiple of the lanes).
    const uintptr_t vector_bytes = static_cast<uintptr_t>(hn::Lanes(DF()) * out.size);
    const bool aligned = reinterpret_cast<uintptr_t>(out.origin) % vector_bytes == 0 &&
                         static_cast<uintptr_t>(out.outer) % vector_bytes == 0;
    return ChooseFusedRows<Op>(ops[0].type, out.type, config.stream_stores && aligned);
#endif
}

// A block of the transposed walk: rows x columns elements at (row, column) of the tile.
struct BlockPlace {
    int64_t row, column, rows, columns;
};

// While row `part` of the current block computes, asks for part `part` of the next block's transposed
// columns (the next block exists when has_next), and for the row kRowsAhead further of each operand read
// along rows (into the next block at the block's end). kRowsAhead is near enough that the lines are still in
// L1 when the row computes: a whole block ahead they were evicted first, since with a power-of-two pitch
// every row of a block lands in the same few L1 sets.
inline void PrefetchPartOfBlock(const TileOperand* ops, int inputs, const BlockPlace& current, const BlockPlace& next,
                                bool has_next, int64_t part) {
    constexpr int64_t kRowsAhead = 2;
    for (int k = 0; k < inputs; ++k) {
        const TileOperand& op = ops[k];
        if (RunsDownColumns(op)) {
            if (has_next) PrefetchColumnsPart(op, next.row, next.column, next.rows, next.columns, part);
        } else if (op.inner == op.size) {
            const int64_t ahead = part + kRowsAhead;
            if (ahead < current.rows) {
                PrefetchRow(op, current.row + ahead, current.column, current.columns);
            } else if (has_next && ahead - current.rows < next.rows) {
                PrefetchRow(op, next.row + ahead - current.rows, next.column, next.columns);
            }
        }
    }
}

// Row r of a block through the fused row kernel: the transposed operands from their buffers (given[k]), the
// others from memory. One row per call, so the next block's prefetches stay spread between the rows.
inline void FusedRowOfBlock(const KernelConfig& config, const Tile& tile, const TileOperand* ops, int inputs,
                            const float* const* given, const BlockPlace& block, int64_t r,
                            FusedRowsFunction fused_rows) {
    const TileOperand& out = ops[inputs];
    FusedRows a;
    for (int k = 0; k < inputs; ++k) {
        const TileOperand& op = ops[k];
        a.in[k] = given[k] != nullptr ? reinterpret_cast<const char*>(given[k]) + r * kTileColumns * op.size
                                      : op.origin + (block.row + r) * op.outer + block.column * op.inner;
        a.in_outer[k] = 0;
        a.in_constant[k] = given[k] == nullptr && op.inner == 0;
    }
    a.out = tile.origin[inputs] + (block.row + r) * out.outer + block.column * out.size;
    a.out_outer = 0;
    a.rows = 1;
    a.count = block.columns;
    fused_rows(config, a);
}

// The whole rows [first_row, end_row) of a tile with transposed operands, in blocks of kTileRows x
// kTileColumns, so that the lines one row touches are still in cache for the next rows of the block: each
// operand that runs down the columns is read a column at a time and transposed in L1 (in its dtype for the
// fused row kernel, as fp32 for TileBlocks), and the next block's lines are asked for while this one
// computes.
template <class Op>
void TransposedBlocks(const KernelConfig& config, const Tile& tile, TileBlocks<Op>& blocks, int64_t first_row,
                      int64_t end_row, FusedRowsFunction fused_rows) {
    constexpr int kInputs = Op::kInputs;
    const TileOperand* ops = blocks.operands();
    const int64_t inner = tile.inner_size;
    HWY_ALIGN float transposed[kInputs][kTileRows * kTileColumns];
    const float* given[kMaxInputs] = {};
    for (int64_t band = first_row; band < end_row; band += kTileRows) {
        const int64_t rows = std::min(kTileRows, end_row - band);
        for (int64_t column = 0; column < inner; column += kTileColumns) {
            const BlockPlace block{band, column, rows, std::min(kTileColumns, inner - column)};
            // The next block: along the band, else the start of the next band.
            const bool band_ends = column + kTileColumns >= inner;
            BlockPlace next;
            next.row = band_ends ? band + kTileRows : band;
            next.column = band_ends ? 0 : column + kTileColumns;
            next.rows = std::min(kTileRows, end_row - next.row);
            next.columns = std::min(kTileColumns, inner - next.column);
            const bool has_next = next.row < end_row;
            for (int k = 0; k < kInputs; ++k) {
                given[k] = nullptr;
                if (!RunsDownColumns(ops[k])) continue;
                if (fused_rows != nullptr) {
                    TransposeBlockRaw(ops[k], band, column, rows, block.columns, reinterpret_cast<char*>(transposed[k]));
                } else {
                    TransposeBlock(ops[k], band, column, rows, block.columns, transposed[k], blocks.scratch());
                }
                given[k] = transposed[k];
            }
            for (int64_t r = 0; r < rows; ++r) {
                PrefetchPartOfBlock(ops, kInputs, block, next, has_next, r);
                if (fused_rows != nullptr) {
                    FusedRowOfBlock(config, tile, ops, kInputs, given, block, r, fused_rows);
                    continue;
                }
                blocks.Block((band + r) * inner + column, block.columns, given);
                for (int k = 0; k < kInputs; ++k)
                    if (given[k] != nullptr) given[k] += kTileColumns;
            }
            for (int64_t part = rows; part < kTileRows; ++part) PrefetchPartOfBlock(ops, kInputs, block, next, has_next, part);
        }
    }
}

// Any dtypes, any strides: blocks of kBlock elements through fp32 buffers (TileBlocks), stored, scattered or
// summed in the tile's order. A tile with an operand that jumps more than a cache line along rows (a
// transposed view) is visited by whole rows instead: in bands through the fused row kernel
// (FusedRowsInBands) where the operands allow it and a band fits, else in transposed blocks
// (TransposedBlocks). Not sums, whose additions must be in the linear order.
template <class Op>
void BlockedTile(const KernelConfig& config, const Tile& tile, SumAccumulator* sums) {
    constexpr int kInputs = Op::kInputs;
    TileBlocks<Op> blocks(config, tile, sums);
    const TileOperand* ops = blocks.operands();
    const int64_t inner = tile.inner_size;
    const int64_t first_row = (tile.first + inner - 1) / inner, end_row = tile.last / inner;
    // Integer inputs go element by element, whatever their strides (the transposed paths move 2- and 4-byte
    // elements).
    if (config.output == OutputMode::kSum || !HasWideSteps(ops, kInputs + 1) || end_row - first_row < 2 ||
        inner < kTileColumns || HasIntegerInput(config)) {
        blocks.Linear(tile.first, tile.last);
        return;
    }
    const FusedRowsFunction fused_rows = RowKernelForTransposedRows<Op>(config, ops);
    blocks.Linear(tile.first, first_row * inner);  // a partial first row
    if (fused_rows == nullptr || !FusedRowsInBands(config, tile, ops, kInputs, first_row, end_row, fused_rows))
        TransposedBlocks(config, tile, blocks, first_row, end_row, fused_rows);
    blocks.Linear(end_row * inner, tile.last);  // a partial last row
}

}  // namespace aclnn_cpu::kernels::HWY_NAMESPACE
HWY_AFTER_NAMESPACE();

#endif  // include guard
