// How the table's layers call an operator's C API without knowing its prototype: one uniform phase-1 call
// (the inputs in order, the scalar parameters in order as doubles, the outputs in order and phase 1's two output
// pointers), bound to the real function by its prototype. ACLNN_CPU_C_API(aclnnFoo) names aclnnFoo and
// aclnnFooGetWorkspaceSize and generates the binding: each argument is fed by its C type and place (the tensors
// right before workspaceSize are the outputs -- one, or as many as ACLNN_CPU_C_API_WITH_OUTPUTS says -- any other
// tensor the next input, an arithmetic type the next parameter converted to that type), so no row lists its
// arguments by index, and the row's declared inputs and parameters are checked against the prototype when the
// row is compiled.
#pragma once

#include <cstddef>
#include <cstdint>
#include <limits>
#include <type_traits>
#include <utility>

#include "aclnn/acl_meta.h"

namespace aclnn_cpu {

// Phase 1 with the inputs in the row's order (a null pointer for an absent optional input), the parameters in
// the row's order as doubles and the outputs in the prototype's order (out first), and phase 2.
using GetWorkspaceSizeFunction = aclnnStatus (*)(const aclTensor* const* inputs, const double* parameters,
                                                 aclTensor* const* outs, uint64_t* workspace_size,
                                                 aclOpExecutor** executor);
using RunFunction = aclnnStatus (*)(void* workspace, uint64_t workspace_size, aclOpExecutor* executor,
                                    aclrtStream stream);

// A scalar parameter's C type, as the prototype declares it: kReductionName is a `char*` naming a reduction
// (aclnnCrossEntropyLoss's reductionOptional), fed from the uniform call's double 0, 1, 2 as "none", "mean",
// "sum" (any other value as a name CANN does not know).
enum class CScalar : uint8_t { kInt64, kFloat, kDouble, kBool, kReductionName };

constexpr int kMaxCScalars = 8;

// An operator's C API: its names, the uniform phase-1 call and phase 2, and what the prototype takes.
struct CApi {
    const char* name;         // phase 2's name (aclnnFoo), the operator's API name in messages
    const char* phase1_name;  // aclnnFooGetWorkspaceSize
    GetWorkspaceSizeFunction phase1;
    RunFunction phase2;
    int tensor_inputs;                 // the tensor arguments that are not outputs
    int scalar_count;                  // the arithmetic arguments
    int outputs;                       // the tensors right before workspaceSize (out, then totalWeightOut...)
    CScalar scalars[kMaxCScalars] = {};  // their types, in order
};

namespace c_api_binding {

// An int64 parameter from its double: values past int64's range (and NaN) are clamped, as no parameter here
// tells such values apart (a reduction there is out of range, or for SoftMarginLoss a sum, either way).
inline int64_t Int(double v) {
    if (!(v > -9.2e18)) return std::numeric_limits<int64_t>::min();
    if (!(v < 9.2e18)) return std::numeric_limits<int64_t>::max();
    return static_cast<int64_t>(v);
}

// The uniform call's arguments.
struct UniformCall {
    const aclTensor* const* inputs;
    const double* parameters;
    aclTensor* const* outs;
    uint64_t* workspace_size;
    aclOpExecutor** executor;
};

template <class T>
constexpr bool kIsTensor = std::is_same_v<T, const aclTensor*> || std::is_same_v<T, aclTensor*>;

// The reduction a uniform call's double names, for a `char*` parameter (the names are never written through).
inline char* ReductionName(double v) {
    static char none[] = "none", mean[] = "mean", sum[] = "sum", unknown[] = "unknown";
    return v == 0 ? none : v == 1 ? mean : v == 2 ? sum : unknown;
}

template <class T>
constexpr bool kIsScalar = std::is_arithmetic_v<T> || std::is_same_v<T, char*>;

template <class T>
constexpr CScalar ScalarOf() {
    if constexpr (std::is_same_v<T, char*>) return CScalar::kReductionName;
    else if constexpr (std::is_same_v<T, bool>) return CScalar::kBool;
    else if constexpr (std::is_same_v<T, float>) return CScalar::kFloat;
    else if constexpr (std::is_same_v<T, double>) return CScalar::kDouble;
    else return CScalar::kInt64;
}

// Where each argument of a phase-1 prototype with `Outputs` outputs comes from.
template <int Outputs, class... Args>
struct Slots {
    static constexpr std::size_t kCount = sizeof...(Args);
    static constexpr bool kTensor[sizeof...(Args)] = {kIsTensor<Args>...};
    static constexpr bool kScalar[sizeof...(Args)] = {kIsScalar<Args>...};
    static constexpr bool kWorkspaceSize[sizeof...(Args)] = {std::is_same_v<Args, uint64_t*>...};

    // The tensors from i up to workspaceSize (0 where i is past it).
    static constexpr int TensorsUpToWorkspaceSize(std::size_t i) {
        int n = 0;
        for (std::size_t k = i; k < kCount && !kWorkspaceSize[k]; ++k) n += kTensor[k] ? 1 : 0;
        for (std::size_t k = i; k < kCount; ++k)
            if (kWorkspaceSize[k]) return n;
        return 0;
    }
    // The outputs are the last tensors before workspaceSize, whatever their constness (aclnnLogit's out is
    // const aclTensor*, aclnnNLLLoss2dBackward's input totalWeight is not).
    static constexpr bool IsOut(std::size_t i) {
        return kTensor[i] && TensorsUpToWorkspaceSize(i) >= 1 && TensorsUpToWorkspaceSize(i) <= Outputs;
    }
    static constexpr int OutIndex(std::size_t i) { return Outputs - TensorsUpToWorkspaceSize(i); }
    static constexpr int Before(const bool* kinds, std::size_t i) {
        int n = 0;
        for (std::size_t k = 0; k < i; ++k) n += kinds[k] && !IsOut(k) ? 1 : 0;
        return n;
    }
    static constexpr int TensorInputs() { return Before(kTensor, kCount); }
    static constexpr int ScalarCount() { return Before(kScalar, kCount); }
};

template <class T, std::size_t I, int Outputs, class... Args>
T Argument(const UniformCall& call) {
    using S = Slots<Outputs, Args...>;
    if constexpr (kIsTensor<T>) {
        if constexpr (S::IsOut(I)) return call.outs[S::OutIndex(I)];
        else return const_cast<T>(call.inputs[S::Before(S::kTensor, I)]);  // an input declared aclTensor*
    } else if constexpr (std::is_same_v<T, uint64_t*>) {
        return call.workspace_size;
    } else if constexpr (std::is_same_v<T, aclOpExecutor**>) {
        return call.executor;
    } else {
        static_assert(kIsScalar<T>, "a phase-1 argument the table cannot feed");
        const double value = call.parameters[S::Before(S::kScalar, I)];
        if constexpr (std::is_same_v<T, char*>) return ReductionName(value);
        else if constexpr (std::is_same_v<T, bool>) return value != 0.0;
        else if constexpr (std::is_floating_point_v<T>) return static_cast<T>(value);
        else return static_cast<T>(Int(value));
    }
}

template <auto Function, int Outputs>
struct Phase1;

template <class... Args, aclnnStatus (*Function)(Args...), int Outputs>
struct Phase1<Function, Outputs> {
    static aclnnStatus Call(const aclTensor* const* inputs, const double* parameters, aclTensor* const* outs,
                            uint64_t* workspace_size, aclOpExecutor** executor) {
        return Invoke({inputs, parameters, outs, workspace_size, executor}, std::index_sequence_for<Args...>{});
    }
    template <std::size_t... I>
    static aclnnStatus Invoke(const UniformCall& call, std::index_sequence<I...>) {
        return Function(Argument<Args, I, Outputs, Args...>(call)...);
    }
    static constexpr CApi Describe(const char* name, const char* phase1_name, RunFunction phase2) {
        using S = Slots<Outputs, Args...>;
        static_assert(S::ScalarCount() <= kMaxCScalars, "more scalar parameters than a CApi holds");
        static_assert(S::TensorsUpToWorkspaceSize(0) >= Outputs, "fewer tensors before workspaceSize than outputs");
        CApi api{name, phase1_name, &Call, phase2, S::TensorInputs(), S::ScalarCount(), Outputs};
        const CScalar types[] = {ScalarOf<Args>()...};
        int n = 0;
        for (std::size_t i = 0; i < S::kCount; ++i)
            if (S::kScalar[i]) api.scalars[n++] = types[i];
        return api;
    }
};

}  // namespace c_api_binding

// The C API aclnnFoo with `outputs` outputs: phase 2 aclnnFoo and phase 1 aclnnFooGetWorkspaceSize, bound by
// their prototypes.
#define ACLNN_CPU_C_API_WITH_OUTPUTS(function, outputs)                                                   \
    ::aclnn_cpu::c_api_binding::Phase1<&function##GetWorkspaceSize, outputs>::Describe(                  \
        #function, #function "GetWorkspaceSize", &function)
// The C API aclnnFoo, whose one output is the tensor before workspaceSize.
#define ACLNN_CPU_C_API(function) ACLNN_CPU_C_API_WITH_OUTPUTS(function, 1)

}  // namespace aclnn_cpu
