// Phase-1 validation shared by broadcasting operators, as ops-nn's op_api files do it (their CheckParams and
// loss/common helpers): after workspaceSize / executor (161001), each operator lists its checks in CANN's
// order from the steps below, each a shared piece with CANN's status and message. The steps aclnn-cpu adds for
// a CPU's safety (layouts, a self-overlapping out) sit where they first matter. Every failure sets the recent
// error message, naming the API, the argument and the rule; nothing is written. The address checks (strict
// memory) need the data pointers and are the plan's (engine/elementwise_plan.h).
#pragma once

#include <cstdint>
#include <functional>
#include <string>
#include <vector>

#include "aclnn/acl_meta.h"
#include "validation/dtype_support.h"
#include "validation/tensor_checks.h"

namespace aclnn_cpu::validation {

constexpr int kMaxRank = 8;

struct NamedTensor {
    const aclTensor* tensor;
    const char* name;       // the argument's name in CANN's prototype
    bool optional = false;  // a null tensor means "absent" (CANN's *Optional arguments)
    bool shape_only = false;  // checked and broadcast, but not read: the arithmetic does not use its values
};

enum class OutShapeRule {
    kBroadcast,                // out's view shape equals the inputs' broadcast shape (elementwise)
    kScalar,                   // out is 0-d (a full reduction)
    kOneElement,               // out has one element, of any rank (a full reduction CANN writes with ViewCopy)
    kBroadcastWithoutFirstDim  // the broadcast shape without its first dim (a reduction over dim 0)
};

struct BroadcastOperation;
struct ValidationState;

// One check of phase 1.
using CheckStep = std::function<aclnnStatus(const BroadcastOperation& operation, ValidationState& state)>;

struct BroadcastOperation {
    const char* api;  // the phase-1 function, for messages
    uint64_t* workspace_size;   // where phase 1 writes its results (checked first)
    aclOpExecutor** executor;
    std::vector<NamedTensor> inputs;  // broadcast left to right: (in0, in1), then that with in2, ...
    NamedTensor out;
    OutShapeRule out_shape = OutShapeRule::kBroadcast;
    // CANN's message when out's shape is wrong, with the expected and the actual shape; null: "Expected tensor
    // for <out> to have same size as %s, but got %s."
    const char* out_shape_message = nullptr;
    // CANN's message when two inputs do not broadcast, with the two shapes; null: "The size of tensor <a> %s must
    // match the size of tensor <b> %s."
    const char* broadcast_message = nullptr;
    // The order in which the inputs are broadcast (CANN's: L1LossBackward starts with self and gradOutput);
    // empty: the inputs' order.
    std::vector<int> broadcast_order;
    const DtypeSupport* dtypes = &kFloatTypesBf16FromAtlasA2;  // the operator's lists (dtype_support.h)
    // Whether the operator computes this call in integers (an integer promote type): out may then be INT64.
    bool integer_results = false;
    // Whether the operator reads and writes DOUBLE tensors too (CANN's AICPU kernels: the softmax family).
    bool reads_double = false;
    // The checks after the workspaceSize / executor one, in CANN's order (checks:: below).
    std::vector<CheckStep> steps;
};

// What the checks learn, for the steps after them and for the plan.
struct ValidationState {
    std::vector<const NamedTensor*> present;  // the inputs that are not absent, then out
    std::vector<int64_t> broadcast_shape;
    std::vector<ViewExtent> extents;  // per present tensor
    bool layouts_checked = false;
    bool broadcast_done = false;
    // A step ended phase 1 with success before the remaining checks (CANN's early return for empty tensors).
    bool finished_early = false;
};

struct ValidatedOperation {
    std::vector<int64_t> broadcast_shape;  // S, over which the operator iterates
    std::vector<const NamedTensor*> present;  // the inputs given (absent optional ones left out), then out
    std::vector<ViewExtent> extents;          // per present tensor
    // CANN's op_api returned success before the remaining checks: nothing is computed (and nothing past the
    // null checks and that step was checked).
    bool finished_early = false;
};

aclnnStatus ValidateBroadcastOperation(const BroadcastOperation& operation, ValidatedOperation* validated);

// The steps. Tensors are named by index: inputs 0..n-1, out as kOut.
namespace checks {

constexpr int kOut = -1;

// Each required input, then out, not null (161001), in order; or the listed tensors, in the listed order, where an
// op_api checks them in another (aclnnLogSoftmaxBackward: output before gradOutput).
CheckStep NullTensors(std::vector<int> order = {});
// Each listed tensor's dtype in the SoC's list: "Tensor %s not implemented for %s, should be in dtype support
// list %s." (161002). lists: the lists checked where they are not the operation's (an op_api that refuses a dtype
// earlier in its own words, then checks a longer list).
CheckStep DtypesInList(std::vector<int> tensors, const DtypeSupport* lists = nullptr);
// The listed inputs' promoted type in the SoC's list, in the operator's words: the format takes the promoted
// dtype and the list, or (inputs_in_message) the first two inputs' dtypes.
CheckStep PromotedDtypeInList(std::vector<int> inputs, const char* message_format, bool inputs_in_message = false);
// a's dtype equal to b's: "Expected both tensors to have same dtype, but found %s %s and %s %s."
CheckStep SameDtype(int a, int b);
// The inputs' promoted type castable to out's dtype (or tensor `to`'s: aclnnNLLLoss's totalWeightOut): "Result
// type %s can't be cast to the desired output type %s." (a floating type casts to any floating type, not to an
// integer or bool).
CheckStep PromotedCastableToOut(std::vector<int> inputs, int to = kOut);
// Listed tensors' ranks <= 8: "The %s tensor cannot be larger than 8 dimensions." (161002), or the op_api's own
// text where it has one (aclnnLogSoftmaxBackward's "Dim of input tensor can't be greater than 8.").
CheckStep Ranks(std::vector<int> tensors, const char* own_message = nullptr);
// aclnn-cpu's own: every present tensor of a dtype the engine computes (CANN would cast some others), and
// every layout sane (no negative dim, stride or offset; no int64 overflow). Before anything reads shapes.
CheckStep Layouts();
// The inputs broadcast left to right, present ones only (161002).
CheckStep Broadcast();
// Ends the shape checks of an operator whose op_api ties its tensors' shapes together by its own rules (the NLL
// losses) rather than broadcasting them: the iteration shape is tensor `shape_of`'s.
CheckStep ShapesTiedByOperator(int shape_of);
// out's shape by the operation's rule (161002); for a reduction rule, only when `reduced` says so (the
// reduction value decides: none keeps the broadcast shape).
CheckStep OutShape(bool reduced);
// aclnn-cpu's own: out does not map two elements to one address (161002).
CheckStep OutDoesNotOverlapItself();
// The operator's own rule (reduction, beta): returns ACLNN_SUCCESS or a status with the message set.
CheckStep Custom(std::function<aclnnStatus()> check);
// A rule the operator states by its text: `refused` returns the message of the rule broken, or "" where it holds;
// a broken rule is 161002 with "<api>: <message>".
CheckStep Rule(std::function<std::string(const BroadcastOperation&)> refused);
// reduction in [0, 2], else 161002 with CANN's text for the operator (a format taking the value as %lld).
CheckStep ReductionInRange(int64_t reduction, const char* message_format);

}  // namespace checks

// The steps of an operator that checks each tensor's dtype in the list, then ranks, layouts, broadcast and out's
// shape, then its own rules (the soft margin losses' order).
std::vector<CheckStep> DefaultSteps(bool reduced, std::function<aclnnStatus()> operator_checks = nullptr);

// CANN's shape text: "[2, 3]", "[]".
std::string CannShapeString(const std::vector<int64_t>& dims);

}  // namespace aclnn_cpu::validation
