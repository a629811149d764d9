// The operators this project offers, as one table that every layer calling them reads: the Python package
// (aclnn_cpu._core: its functions, the aclnn-cpu command line's run/gen), the PyTorch kernels, the numeric
// tests, the fuzz harness, the stress program and the benchmark's workloads. A row says everything a layer
// needs: the C function, its inputs (required or optional, with the values they take), its scalar parameters
// (type, default, the range CANN accepts), the shape of its result, the dtype lists per SoC, the float64
// reference the tests use, and the aten operator it serves with how aten's arguments map onto it. Each
// operator defines its row in its own source file (ACLNN_CPU_OPERATOR_ROW) and the build list names it
// (docs/design.md, "How to add an operator"); the library exports the table (kOperators).
#pragma once

#include <cmath>
#include <cstdint>
#include <cstring>
#include <initializer_list>
#include <limits>

#include "aclnn/acl_meta.h"
#include "aclnn/opdev/op_errno.h"
#include "common/export.h"
#include "ops/c_api_binding.h"
#include "ops/operator_references.h"
#include "validation/dtype_support.h"

namespace aclnn_cpu {

constexpr int kMaxOperatorInputs = 6;
constexpr int kMaxOperatorParameters = 5;
constexpr int kMaxOperatorOutputs = 4;

// The values an input takes in generated data (aclnn-cpu gen, fuzzing, stress, the benchmark): the domain the
// operator is used on, with its hard values.
enum class ValueDomain : uint8_t {
    kReal,        // any real value: predictions and regression targets, logits
    kSignLabel,   // mostly -1 and +1 (soft margin's targets)
    kGradient,    // an incoming gradient, of either sign, around [-2, 2]
    kProbability, // in [0, 1], the ends included (binary cross-entropy's targets)
    kWeight,      // a positive weight, around (0, 2] (the optional weights of binary cross-entropy)
    kClassIndex,  // an integer class index in [0, C) of self's class dim, or the call's ignoreIndex
};

// How an input's shape relates to the others'.
enum class InputShape : uint8_t {
    kBroadcast,   // broadcasts with the others (the result takes the broadcast shape)
    kSameAsSelf,  // exactly self's shape (binary cross-entropy's target)
    kToSelf,      // broadcasts to self's shape without enlarging it (an incoming gradient, a weight)
    kToBroadcast, // broadcasts to the other inputs' broadcast shape without enlarging it (a gradient over it)
    kPerSample,   // self's shape without its class dim (the NLL losses' target: [N] of self [N, C])
    kPerClass,    // C elements, one per class of self (the NLL losses' weight)
    kOneElement,  // one element (a total weight)
};

struct InputDescription {
    const char* name = nullptr;       // CANN's parameter name
    const char* aten_name = nullptr;  // the same argument in aten's schemas (self, target, grad_output), or nullptr
    bool optional = false;            // may be a null aclTensor* (CANN's *Optional arguments)
    ValueDomain domain = ValueDomain::kReal;
    InputShape shape = InputShape::kBroadcast;
    bool values_read = true;  // false: the arithmetic uses only its shape (and dtype); the kernel does not read it
    const char* message_name = nullptr;  // the name CANN's op_api messages use, where it is not the prototype's
};

// The name phase 1's messages give an input: CANN's op_api's where it differs from the prototype's.
constexpr const char* MessageName(const InputDescription& input) {
    return input.message_name != nullptr ? input.message_name : input.name;
}

// input, named in phase 1's messages as CANN's op_api names it (aclnnBinaryCrossEntropyWithLogits: "weight").
constexpr InputDescription NamedInMessages(InputDescription input, const char* message_name) {
    input.message_name = message_name;
    return input;
}

// kReduction: an int64 naming a reduction (0 none, 1 mean, 2 sum; 3 batchmean where the row says so), CANN's
// `int64_t reduction`, or its `char* reductionOptional` ("none", "mean", "sum", fed from the same numbers); every
// layer finds a row's reduction by this type, never by a name.
// kFloat and kDouble: the C API's float or double (a float parameter's value is the float nearest the double).
// kDim: CANN's `int64_t dim` of an operator along a dim, in [-rank, rank - 1] of its input.
// kIgnoreIndex: CANN's `int64_t ignoreIndex`, the class index whose samples count for nothing.
enum class ParameterType : uint8_t { kInt64, kFloat, kBool, kReduction, kDouble, kDim, kIgnoreIndex };

struct ParameterDescription {
    const char* name = nullptr;       // CANN's parameter name (reduction, beta)
    const char* aten_name = nullptr;  // the same argument in aten's schemas, or nullptr when aten has none
    ParameterType type = ParameterType::kInt64;
    double default_value = 0;
    double minimum = 0, maximum = 0;  // the values CANN accepts, both included; NaN is never in range
};

// What an output after out holds, and so its shape.
enum class OutputShape : uint8_t {
    kOneElement,  // one element (the NLL losses' totalWeightOut)
    kSelf,        // self's shape (aclnnCrossEntropyLoss's logProbOut)
    kUnwritten,   // never written, any shape (aclnnCrossEntropyLoss's z-loss outputs, which CANN does not compute)
};

struct OutputDescription {
    const char* name = nullptr;  // CANN's name
    OutputShape shape = OutputShape::kOneElement;
};

// The shape of out, from the broadcast shape S of the inputs. `reduction` is parameter 0.
enum class ResultRule : uint8_t {
    kLoss,              // S under reduction 0 (none), 0-d otherwise
    kGradient,          // S
    kLossOverFirstDim,  // S under reduction 0, S without its first dim otherwise
    kGradientOfSelf,    // self's shape: S's values summed back over the dims self broadcasts in (ReduceSum)
    kElementwise,       // S, with no reduction (a function of each element: aclnnLogit)
    kLossPerSample,     // target's shape under reduction 0 (none), one element otherwise (the NLL losses)
};


// How an operator walks its tensors: element by element over the broadcast shape (engine/elementwise_plan.h),
// row by row along its dim parameter, each result depending on its whole row (engine/along_dim_plan.h: the
// softmax family, whose tensors share one shape), or sample by sample, each reading the element of its target
// class (ops/nll_loss/nll_loss_plan.h: self [N, C, ...], target [N, ...], weight [C]), or row by row of [N, C]
// scores, each sample's results from its whole row and its target class (ops/cross_entropy_loss/
// cross_entropy_plan.h: the fused cross-entropy, whose inputs are shaped as the NLL losses' of a 2-D self).
enum class Iteration : uint8_t { kElementwise, kAlongDim, kClassIndex, kClassRows };

// PyTorch's dtype rule for the aten operator a row serves, which the override follows: the result takes self's
// dtype (a gradient from empty_like(self), a composite loss), the inputs' promoted type (a structured binary
// kernel), or target's (a composite whose in-place steps start from 1 - target; target follows self in the
// row); kOneDtype: PyTorch's kernel takes its required tensors in self's dtype only (TensorIterator's same-dtype
// check) and raises otherwise, with self's dtype as the result's.
enum class AtenResultType : uint8_t { kSelf, kPromoted, kTarget, kOneDtype };

// Which count a mean divides by (the gradients' scale; the losses' sums divide by the broadcast count).
enum class MeanDivisor : uint8_t {
    kBroadcastElements,  // numel(S)
    kSelfElements,       // numel(self), even where self broadcasts against a larger shape
};

// An operator's row. A row is written as a chain of named settings starting from its C API, e.g.
//   OperatorDescription(ACLNN_CPU_C_API(aclnnL1Loss), "l1_loss", "...").Inputs({kSelf, kTarget}, 0)...
// and compiled as a constant: a row whose inputs or parameters disagree with the C prototype (their count, a
// parameter's type) does not compile.
struct OperatorDescription {
    const char* name = nullptr;     // snake_case: the aclnn name's, e.g. mse_loss (the Python function, the CLI's)
    const char* api_name = nullptr;     // the C API's name (phase 2's), for messages
    const char* phase1_name = nullptr;  // aclnn<Name>GetWorkspaceSize, phase 1's messages
    const char* summary = nullptr;  // the arithmetic in one line, for help texts
    int input_count = 0;
    InputDescription inputs[kMaxOperatorInputs] = {};
    int self_input = 0;  // the input PyTorch's result takes its dtype from
    const char* out_name = "out";  // CANN's name of the result argument (out, gradInput, result)
    int output_count = 1;          // the C API's outputs: out, then (aclnnNLLLoss) totalWeightOut...
    OutputDescription more_outs[kMaxOperatorOutputs - 1] = {};  // the outputs after out, in the prototype's order
    int parameter_count = 0;
    ParameterDescription parameters[kMaxOperatorParameters] = {};  // in the prototype's order
    ResultRule result = ResultRule::kElementwise;
    MeanDivisor mean_divisor = MeanDivisor::kBroadcastElements;
    const validation::DtypeSupport* dtypes = nullptr;  // CANN's lists per SoC family (validation/dtype_support.h)
    bool inputs_share_dtype = false;  // CANN requires the inputs of one dtype (no promotion among them)
    references::ElementReference reference = nullptr;  // the tests' float64 model of one element
    const char* aten_name = nullptr;  // the aten operator it serves (functional and out= forms), or nullptr
    AtenResultType aten_result = AtenResultType::kSelf;
    // Where PyTorch decomposes the aten operator into others (CompositeImplicitAutograd, so no kernel of its own
    // stands in for it), or computes its derivative from other operators (no aten backward to serve), the
    // override supplies the derivative: the row giving self's gradient (inputs gradOutput and this row's inputs,
    // the same parameters), and the factor that gives target's from it (-1 for a function of self - target; 0:
    // none, and a call that needs target's gradient keeps PyTorch's autograd). nullptr where PyTorch's autograd
    // is kept.
    const char* gradient_row = nullptr;
    double target_gradient_factor = 0;
    GetWorkspaceSizeFunction get_workspace_size = nullptr;
    RunFunction run = nullptr;
    int out_dtype_input = -1;  // the input whose dtype out must have (CANN's OP_CHECK_DTYPE_NOT_MATCH), or -1
    bool batch_mean = false;   // reduction 3 scales by 1 / the broadcast shape's first dim (batchmean)
    // CANN's status for a null required tensor: 161001, or the 561103 aclnnBinaryCrossEntropy's op_api returns.
    aclnnStatus null_tensor_status = ACLNN_ERR_PARAM_NULLPTR;
    // CANN's op_api logs a precision warning for a FRACTAL_NZ first input (the others accept it without a word).
    bool warns_of_fractal_nz = false;
    CApi c_api = {};
    Iteration iteration = Iteration::kElementwise;
    // aten arguments the row has no parameter for: one that must hold a value for the override to serve the call
    // (else PyTorch's kernel does: `_softmax`'s half_to_float, which must be false), and one naming the result's
    // dtype (`_softmax_backward_data`'s input_dtype); nullptr where aten has none.
    const char* aten_fixed_argument = nullptr;
    double aten_fixed_value = 0;
    const char* aten_dtype_argument = nullptr;
    // The inputs are cast to out's dtype first and computed in it (aclnnLogSoftmax), rather than computed in their
    // promoted dtype and the result cast to out's.
    bool computes_in_out_dtype = false;
    // Where the op_api refuses BFLOAT16 on the older chips in its own words before its dtype lists: that text.
    const char* bf16_refusal = nullptr;
    // kAlongDim: the tests' float64 model of a whole row (reference stays null).
    references::RowReference row_reference = nullptr;
    // The ranks of self the op_api takes (the NLL losses: 1 or 2; the 2-D ones 4), for the layers that make calls.
    int self_min_rank = 0, self_max_rank = 8;

    // Phase 1 through the uniform call with out as the first output (the others, where the API has them, null).
    aclnnStatus Phase1(const aclTensor* const* inputs, const double* parameters, aclTensor* out,
                       uint64_t* workspace_size, aclOpExecutor** executor) const {
        aclTensor* const outs[kMaxOperatorOutputs] = {out, nullptr, nullptr, nullptr};
        return get_workspace_size(inputs, parameters, outs, workspace_size, executor);
    }

    constexpr OperatorDescription(const CApi& api, const char* snake_name, const char* one_line)
        : name(snake_name), api_name(api.name), phase1_name(api.phase1_name), summary(one_line),
          output_count(api.outputs), get_workspace_size(api.phase1), run(api.phase2), c_api(api) {}

    // The inputs in the prototype's order, and which is self.
    constexpr OperatorDescription Inputs(std::initializer_list<InputDescription> list, int self) const {
        if (static_cast<int>(list.size()) != c_api.tensor_inputs || list.size() > kMaxOperatorInputs)
            throw "the row's inputs are not the C prototype's tensor arguments";
        OperatorDescription row = *this;
        for (const InputDescription& input : list) row.inputs[row.input_count++] = input;
        row.self_input = self;
        return row;
    }
    constexpr OperatorDescription Out(const char* cann_name) const {
        OperatorDescription row = *this;
        row.out_name = cann_name;
        return row;
    }
    // The outputs, where the C API has several: out's CANN name, then the others'.
    constexpr OperatorDescription Outs(const char* first, std::initializer_list<OutputDescription> more) const {
        if (static_cast<int>(more.size()) + 1 != c_api.outputs || c_api.outputs > kMaxOperatorOutputs)
            throw "the row's outputs are not the C prototype's";
        OperatorDescription row = *this;
        row.out_name = first;
        int k = 0;
        for (const OutputDescription& output : more) row.more_outs[k++] = output;
        return row;
    }
    // The scalar parameters in the prototype's order, each of the C type its ParameterType names.
    constexpr OperatorDescription Parameters(std::initializer_list<ParameterDescription> list) const {
        if (static_cast<int>(list.size()) != c_api.scalar_count || list.size() > kMaxOperatorParameters)
            throw "the row's parameters are not the C prototype's scalar arguments";
        OperatorDescription row = *this;
        for (const ParameterDescription& parameter : list) {
            const CScalar c_type = c_api.scalars[row.parameter_count];
            if (CTypeOf(parameter.type) != c_type &&
                !(parameter.type == ParameterType::kReduction && c_type == CScalar::kReductionName))
                throw "a parameter's type is not the C prototype's";
            row.parameters[row.parameter_count++] = parameter;
        }
        return row;
    }
    constexpr OperatorDescription Result(ResultRule rule, MeanDivisor divisor = MeanDivisor::kBroadcastElements,
                                         bool batchmean = false) const {
        OperatorDescription row = *this;
        row.result = rule;
        row.mean_divisor = divisor;
        row.batch_mean = batchmean;
        return row;
    }
    // The dtype lists; one_dtype: the inputs must share a dtype; out_like: the input whose dtype out must have.
    constexpr OperatorDescription Dtypes(const validation::DtypeSupport* lists, bool one_dtype = false,
                                         int out_like = -1) const {
        OperatorDescription row = *this;
        row.dtypes = lists;
        row.inputs_share_dtype = one_dtype;
        row.out_dtype_input = out_like;
        return row;
    }
    constexpr OperatorDescription Reference(references::ElementReference model) const {
        OperatorDescription row = *this;
        row.reference = model;
        return row;
    }
    // An operator along its dim parameter, with the float64 model of a row.
    constexpr OperatorDescription AlongDim(references::RowReference model) const {
        OperatorDescription row = *this;
        row.iteration = Iteration::kAlongDim;
        row.row_reference = model;
        return row;
    }
    // An operator reading each sample's element at its target class, of a self of rank min_rank..max_rank.
    constexpr OperatorDescription ByClassIndex(int min_rank, int max_rank) const {
        OperatorDescription row = *this;
        row.iteration = Iteration::kClassIndex;
        row.self_min_rank = min_rank;
        row.self_max_rank = max_rank;
        return row;
    }
    // An operator over the rows of a [N, C] self, each with its target class.
    constexpr OperatorDescription ByClassRows() const {
        OperatorDescription row = *this;
        row.iteration = Iteration::kClassRows;
        row.self_min_rank = 2;
        row.self_max_rank = 2;
        return row;
    }
    constexpr OperatorDescription ComputesInOutDtype() const {
        OperatorDescription row = *this;
        row.computes_in_out_dtype = true;
        return row;
    }
    constexpr OperatorDescription RefusesBf16OnOlderChips(const char* message) const {
        OperatorDescription row = *this;
        row.bf16_refusal = message;
        return row;
    }
    constexpr OperatorDescription Aten(const char* operator_name, AtenResultType result_type) const {
        OperatorDescription row = *this;
        row.aten_name = operator_name;
        row.aten_result = result_type;
        return row;
    }
    constexpr OperatorDescription AtenFixedArgument(const char* argument, double value) const {
        OperatorDescription row = *this;
        row.aten_fixed_argument = argument;
        row.aten_fixed_value = value;
        return row;
    }
    constexpr OperatorDescription AtenDtypeArgument(const char* argument) const {
        OperatorDescription row = *this;
        row.aten_dtype_argument = argument;
        return row;
    }
    constexpr OperatorDescription GradientRow(const char* row_name, double target_factor) const {
        OperatorDescription row = *this;
        row.gradient_row = row_name;
        row.target_gradient_factor = target_factor;
        return row;
    }
    constexpr OperatorDescription WarnsOfFractalNz() const {
        OperatorDescription row = *this;
        row.warns_of_fractal_nz = true;
        return row;
    }
    constexpr OperatorDescription NullTensorStatus(aclnnStatus status) const {
        OperatorDescription row = *this;
        row.null_tensor_status = status;
        return row;
    }

private:
    static constexpr CScalar CTypeOf(ParameterType type) {
        switch (type) {
            case ParameterType::kFloat: return CScalar::kFloat;
            case ParameterType::kDouble: return CScalar::kDouble;
            case ParameterType::kBool: return CScalar::kBool;
            default: return CScalar::kInt64;
        }
    }
};

// Whether the row computes a gradient (every reduction gives an elementwise result, scaled for a mean).
constexpr bool IsGradient(const OperatorDescription& row) {
    return row.result == ResultRule::kGradient || row.result == ResultRule::kGradientOfSelf;
}

// The inputs whose values the kernel reads (the traffic a benchmark's yardstick loop matches); without the
// optional ones where they are not given.
constexpr int ReadInputCount(const OperatorDescription& row, bool optional_given = true) {
    int count = 0;
    for (int k = 0; k < row.input_count; ++k)
        count += row.inputs[k].values_read && (optional_given || !row.inputs[k].optional) ? 1 : 0;
    return count;
}

// Whether input k is a label in the probability domain (binary cross-entropy's target): a probability that is
// not self, the model's prediction. Hard labels (0 or 1) are their common case, which the generators draw too.
constexpr bool IsProbabilityLabel(const OperatorDescription& row, int k) {
    return k != row.self_input && row.inputs[k].domain == ValueDomain::kProbability;
}

// What an input is to the operator, from the row: the incoming gradient (a backward's gradOutput), self (the
// prediction, or the logits), a weight, or the target (the labels, the regression target).
enum class InputRole : uint8_t { kIncomingGradient, kSelf, kTarget, kWeight };

constexpr InputRole RoleOf(const OperatorDescription& row, int k) {
    if (k == row.self_input) return InputRole::kSelf;
    if (row.inputs[k].domain == ValueDomain::kGradient) return InputRole::kIncomingGradient;
    if (row.inputs[k].domain == ValueDomain::kWeight) return InputRole::kWeight;
    return InputRole::kTarget;
}

// The index of the row's incoming gradient, or -1.
constexpr int IncomingGradientInput(const OperatorDescription& row) {
    for (int k = 0; k < row.input_count; ++k)
        if (RoleOf(row, k) == InputRole::kIncomingGradient) return k;
    return -1;
}

// The index of the row's reduction parameter, or -1.
constexpr int ReductionParameter(const OperatorDescription& row) {
    for (int p = 0; p < row.parameter_count; ++p)
        if (row.parameters[p].type == ParameterType::kReduction) return p;
    return -1;
}

// Whether some input is such a label.
constexpr bool TakesProbabilityLabels(const OperatorDescription& row) {
    for (int k = 0; k < row.input_count; ++k)
        if (IsProbabilityLabel(row, k)) return true;
    return false;
}

// Whether some input's shape is tied to self's (then self has the whole shape).
constexpr bool ShapeTiedToSelf(const OperatorDescription& row) {
    for (int k = 0; k < row.input_count; ++k)
        if (row.inputs[k].shape != InputShape::kBroadcast && row.inputs[k].shape != InputShape::kToBroadcast)
            return true;
    return false;
}

namespace operator_rows {

constexpr double kInfinity = std::numeric_limits<double>::infinity();

// reduction: 0 none, 1 mean, 2 sum, as the loss family's op_api files check it.
constexpr ParameterDescription kReduction = {"reduction", "reduction", ParameterType::kReduction, 1, 0, 2};
// aclnnSoftMarginLoss's reduction is not checked: any value but 0 and 1 is a sum.
constexpr ParameterDescription kAnyReduction = {"reduction", "reduction", ParameterType::kReduction, 1, -kInfinity,
                                                kInfinity};
// dim: any of the input's dims, negative ones counted from the end (the range is checked against the rank).
constexpr ParameterDescription kDim = {"dim", "dim", ParameterType::kDim, -1, -8, 7};
// ignoreIndex: any int64 (PyTorch's default -100); a target equal to it counts for nothing.
constexpr ParameterDescription kIgnoreIndex = {"ignoreIndex", "ignore_index", ParameterType::kIgnoreIndex, -100,
                                               -9.2e18, 9.2e18};
constexpr ParameterDescription kBeta = {"beta", "beta", ParameterType::kFloat, 1, 0, kInfinity};
constexpr ParameterDescription kLogTarget = {"logTarget", "log_target", ParameterType::kBool, 0, 0, 1};

constexpr InputDescription kGradOutput = {"gradOutput", "grad_output", false, ValueDomain::kGradient};
constexpr InputDescription kSelf = {"self", "self", false, ValueDomain::kReal};
constexpr InputDescription kTarget = {"target", "target", false, ValueDomain::kReal};
constexpr InputDescription kSignTarget = {"target", "target", false, ValueDomain::kSignLabel};
constexpr InputDescription kProbabilityTarget = {"target", "target", false, ValueDomain::kProbability,
                                                 InputShape::kSameAsSelf};
constexpr InputDescription kWeightOptional = {"weightOptional", "weight", true, ValueDomain::kWeight,
                                              InputShape::kToSelf};
constexpr InputDescription kPosWeightOptional = {"posWeightOptional", "pos_weight", true, ValueDomain::kWeight,
                                                 InputShape::kToSelf};
// The softmax family's result, given to its gradients: softmax's probabilities, log-softmax's log-probabilities.
constexpr InputDescription kSoftmaxOutput = {"output", "output", false, ValueDomain::kProbability,
                                             InputShape::kSameAsSelf};
constexpr InputDescription kLogSoftmaxOutput = {"output", "output", false, ValueDomain::kReal,
                                                InputShape::kSameAsSelf};
constexpr InputDescription kGradOutputSameAsSelf = {"gradOutput", "grad_output", false, ValueDomain::kGradient,
                                                    InputShape::kSameAsSelf};
constexpr InputDescription kGradOutputToSelf = {"gradOutput", "grad_output", false, ValueDomain::kGradient,
                                                InputShape::kToSelf};
// The NLL losses' tensors: class-index targets, a weight per class (required), the total weight a forward wrote.
constexpr InputDescription kClassTarget = {"target", "target", false, ValueDomain::kClassIndex,
                                           InputShape::kPerSample};
constexpr InputDescription kClassWeight = {"weight", "weight", false, ValueDomain::kWeight, InputShape::kPerClass};
constexpr InputDescription kTotalWeight = {"totalWeight", "total_weight", false, ValueDomain::kWeight,
                                           InputShape::kOneElement};
// The NLL gradients' gradOutput: the forward's out (target's shape under none, one element otherwise).
constexpr InputDescription kGradOutputOfLoss = {"gradOutput", "grad_output", false, ValueDomain::kGradient,
                                                InputShape::kPerSample};

}  // namespace operator_rows

// Every operator's row, in the order of the build list (CMakeLists.txt's ACLNN_CPU_OPERATORS, from which CMake
// generates the list of rows, operator_rows.cpp). Each row is defined beside its operator's phase 1, with
// ACLNN_CPU_OPERATOR_ROW(name). Indexable and iterable as an array of rows.
struct OperatorTable {
    const OperatorDescription* const* rows;
    int count;

    struct Iterator {
        const OperatorDescription* const* at;
        const OperatorDescription& operator*() const { return **at; }
        Iterator& operator++() {
            ++at;
            return *this;
        }
        bool operator!=(const Iterator& other) const { return at != other.at; }
    };
    const OperatorDescription& operator[](int i) const { return *rows[i]; }
    Iterator begin() const { return {rows}; }
    Iterator end() const { return {rows + count}; }
};

ACLNN_CPU_INTERNAL extern const OperatorTable kOperators;
ACLNN_CPU_INTERNAL extern const int kOperatorCount;

// Defines the row of the operator `name` (a name in the build list): ACLNN_CPU_OPERATOR_ROW(foo) = {...};
#define ACLNN_CPU_OPERATOR_ROW(name) extern constexpr OperatorDescription kOperatorRow_##name

// The row named `name`, or nullptr.
inline const OperatorDescription* FindOperator(const char* name) {
    for (const OperatorDescription& description : kOperators)
        if (std::strcmp(description.name, name) == 0) return &description;
    return nullptr;
}

// Whether out is 0-d (or reduced over a dim) for this reduction value: the row's result rule.
inline bool ReducesTo(const OperatorDescription& row, int64_t reduction) {
    return (row.result == ResultRule::kLoss || row.result == ResultRule::kLossOverFirstDim) && reduction != 0;
}

// The reduction value among a call's parameters (the row's order), or 0 (none) where the row has none.
inline int64_t ReductionValue(const OperatorDescription& row, const double* parameters) {
    const int p = ReductionParameter(row);
    return p >= 0 ? c_api_binding::Int(parameters[p]) : 0;
}

// Sets the reduction among a call's parameters where the row has one (a row without one is left as it is).
inline void SetReductionValue(const OperatorDescription& row, double* parameters, int64_t reduction) {
    const int p = ReductionParameter(row);
    if (p >= 0) parameters[p] = static_cast<double>(reduction);
}

}  // namespace aclnn_cpu
