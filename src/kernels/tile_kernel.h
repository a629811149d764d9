// The interface between the iteration engine and an operator's SIMD kernel: what phase 1 decides about the
// kernel (dtypes, scale, output mode) and the tile function it chose, which phase 2 calls for every tile.
// Plain C++: the Highway code behind it lives in elementwise_tiles-inl.h and the operators' kernel files.
#pragma once

#include <array>
#include <cassert>
#include <cstdint>
#include <cstring>
#include <type_traits>
#include <typeinfo>

#include "kernels/tile.h"
#include "kernels/element_types.h"

namespace aclnn_cpu::kernels {

constexpr int kMaxInputs = kMaxOperands - 1;

// What a kernel does with each computed value: store it to out (converted to out's dtype), or add it to a sum.
enum class OutputMode : uint8_t { kStore, kSum };

// What an operator's functor is built from, set in phase 1 by the operator's description: the functor's own
// parameter struct (`using Parameters = ...;` in the functor, its fields named for what they are: beta, its
// reciprocal, a mean's coefficient), carried through the engine as bytes with its type, and read back only as
// that type (MakeFunctor): no field travels by index.
class FunctorParameters {
public:
    static constexpr size_t kMaxBytes = 32;

    FunctorParameters() = default;
    template <class P>
    static FunctorParameters Of(const P& value) {
        static_assert(std::is_trivially_copyable_v<P> && sizeof(P) <= kMaxBytes, "a few scalars");
        FunctorParameters parameters;
        std::memcpy(parameters.bytes_, &value, sizeof value);
        parameters.type_ = typeid(P).hash_code();
        return parameters;
    }
    // The struct Of stored; reading another type is a programming error.
    template <class P>
    P As() const {
        assert(type_ == typeid(P).hash_code() && "the functor's Parameters differ from its description's");
        P value;
        std::memcpy(&value, bytes_, sizeof value);
        return value;
    }

private:
    alignas(8) unsigned char bytes_[kMaxBytes] = {};
    size_t type_ = 0;
};

// The parameters of a functor whose only one is a coefficient every result is multiplied by: a mean's 1/N (CANN
// applies it to each element), or 1.
struct ScaleParameters {
    float scale;
};

struct KernelConfig {
    int num_inputs = 0;                                      // the output is operand num_inputs
    std::array<ElementType, kMaxOperands> types{};  // per operand: inputs, then the output
    ElementType promote = ElementType::kFloat32;             // the inputs' common type; results are rounded to it
    float input_scale = 1.0f;     // multiplies the operator's scaled input (its pre-scale hook), when not 1
    bool stream_stores = false;   // non-temporal stores for outputs much larger than the caches
    OutputMode output = OutputMode::kStore;
    FunctorParameters parameters;  // what the operator's functor is built from (MakeFunctor)

    ElementType out_type() const { return types[num_inputs]; }
};

// Whether every input has one dtype and it is the promote type (the fused instances specialised on it apply; an
// input the kernel does not read may still widen the promotion).
inline bool InputsShareOneType(const KernelConfig& config) {
    if (config.promote != config.types[0]) return false;
    for (int k = 1; k < config.num_inputs; ++k)
        if (config.types[k] != config.types[0]) return false;
    return true;
}

// Whether an input is of an integer dtype.
inline bool HasIntegerInput(const KernelConfig& config) {
    for (int k = 0; k < config.num_inputs; ++k)
        if (IsInteger(config.types[k])) return true;
    return false;
}

// Whether the fused instances read every input: the floating types, and INT32 where the promote type is FLOAT
// (one vector conversion rounds it to fp32, as CANN's cast does). Other integers take the blocked path, which
// rounds them to the promote type once: through fp32, an INT32 bound for FLOAT16 would round twice, and INT64
// has no vector conversion on every target.
inline bool FusedInstancesRead(const KernelConfig& config) {
    for (int k = 0; k < config.num_inputs; ++k) {
        const ElementType type = config.types[k];
        if (IsInteger(type) && (type != ElementType::kInt32 || config.promote != ElementType::kFloat32)) return false;
    }
    return true;
}

// Sixteen float64 partial sums. The element with linear index i (in the row-major order of the broadcast
// shape) is added to lanes[i % 16], in increasing i: the order depends on nothing but i, so a sum is the same
// bits for any layout of the inputs and any split into threads, on every SIMD width.
constexpr int kSumLanes = 16;
struct alignas(64) SumAccumulator {
    double lanes[kSumLanes] = {};
};

// Computes the elements [tile.first, tile.last) of a tile; in kSum mode adds them to *sums (else unused).
using TileKernel = void (*)(const KernelConfig& config, const Tile& tile, SumAccumulator* sums);

// Float64 sums of the columns first .. first + (number held) of a broadcast shape whose rows have `count`
// elements: where a sum over the first dim adds a value of column j (its linear index % count).
struct ColumnSums {
    double* sums;   // sums[j - first] is column j's
    int64_t first;
    int64_t count;  // columns in a row of S
};

// Adds the fp32 values of the elements [tile.first, tile.last) of a tile, each rounded to the promote type, to
// their columns' sums, in increasing linear index (a sum over the first dim, with no buffer in between).
using ColumnSumKernel = void (*)(const KernelConfig& config, const Tile& tile, const ColumnSums& columns);
// An operator's chooser of it: the fused instance for config's dtypes, or nullptr where the tiles are not
// fusable or the target has no float64 vectors (the engine then stores into a buffer and adds that).
using ColumnSumKernelChooser = ColumnSumKernel (*)(const KernelConfig& config, bool fusable);

// An operator's arithmetic on integers, for a call whose promote type is an integer one (CANN's int64 path,
// aclnnL1Loss's Sub and Abs): results[i] from inputs[k][i], each input read as int64, count elements. Two's
// complement arithmetic that wraps, as the NPU's int64 does; a plain loop the compiler vectorises.
using IntegerBlockFunction = void (*)(const int64_t* const* inputs, int64_t count, int64_t* results);

// An operator's kernel chooser (dispatched to the CPU's best SIMD target): the tile function for config,
// fused (straight from and to memory) when the engine found every tile fusable, blocked otherwise.
using TileKernelChooser = TileKernel (*)(const KernelConfig& config, bool fusable);

// An operator file's chooser for each SIMD target, inside its HWY_NAMESPACE (foreach_target compiles it once per
// target): Chooser(config, fusable) returns the tile loops of the functor (a template id may hold commas), a
// loss's (its values stored or summed) or, STORE, a gradient's or an elementwise function's (stored only).
#define ACLNN_CPU_TILE_KERNEL_CHOOSER(Chooser, ...)                                                         \
    ::aclnn_cpu::kernels::TileKernel Chooser(const ::aclnn_cpu::kernels::KernelConfig& config, bool fusable) { \
        return ::aclnn_cpu::kernels::HWY_NAMESPACE::ChooseTileKernel<__VA_ARGS__>(config, fusable);           \
    }
#define ACLNN_CPU_STORE_KERNEL_CHOOSER(Chooser, ...)                                                        \
    ::aclnn_cpu::kernels::TileKernel Chooser(const ::aclnn_cpu::kernels::KernelConfig& config, bool fusable) { \
        return ::aclnn_cpu::kernels::HWY_NAMESPACE::ChooseStoreKernel<__VA_ARGS__>(config, fusable);          \
    }

// Its dispatch to the CPU's best target, once (under HWY_ONCE, in the same namespace without HWY_NAMESPACE):
// Chooser##Kernel, a TileKernelChooser.
#define ACLNN_CPU_DISPATCH_TILE_KERNEL(Chooser)                                                                  \
    HWY_EXPORT(Chooser);                                                                                         \
    ::aclnn_cpu::kernels::TileKernel Chooser##Kernel(const ::aclnn_cpu::kernels::KernelConfig& config,            \
                                                     bool fusable) {                                             \
        return HWY_DYNAMIC_DISPATCH(Chooser)(config, fusable);                                                   \
    }

}  // namespace aclnn_cpu::kernels
