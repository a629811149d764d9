// Runs the operators on DeviceTensors and checks results against the float64 references, element by element,
// and that out's storage outside its view kept its bytes.
#pragma once

#include <cstdint>
#include <functional>
#include <string>
#include <vector>

#include "aclnn/acl_meta.h"
#include "device_tensor.h"
#include "reference.h"

namespace test_support {

// Phase 1, workspace allocation, phase 2 on stream, stream sync. Return the first non-zero status.
aclnnStatus RunSoftMarginLossBackward(const aclTensor* grad, const aclTensor* self, const aclTensor* target,
                                      int64_t reduction, aclTensor* out, aclrtStream stream = nullptr,
                                      uint64_t* workspace_size = nullptr);
aclnnStatus RunSoftMarginLoss(const aclTensor* self, const aclTensor* target, int64_t reduction, aclTensor* out,
                              aclrtStream stream = nullptr, uint64_t* workspace_size = nullptr);

// A call of a row of the operator table: phase 1 with the inputs in the row's order (nullptr: an absent optional
// input) and the row's parameters, then the workspace, phase 2 and the stream sync, as above.
aclnnStatus RunRow(const aclnn_cpu::OperatorDescription& row, const std::vector<const aclTensor*>& inputs,
                   const std::vector<double>& parameters, aclTensor* out, aclrtStream stream = nullptr,
                   uint64_t* workspace_size = nullptr);

// The rows the generic suites build calls of from the row alone (the table's order): those that iterate element
// by element or along a dim. The NLL losses (Iteration::kClassIndex: class-index targets, a weight per class, two
// outputs) have their own suite, test_nll_loss.
std::vector<int> GenericRows();
bool HasGenericCalls(const aclnn_cpu::OperatorDescription& row);

// What the row's reference needs to know of a call (reference.h's RowCall), from its parameters and its inputs
// in the row's order (nullptr: an absent optional input).
RowCall RowCallOf(const aclnn_cpu::OperatorDescription& row, const std::vector<double>& parameters,
                  const std::vector<const DeviceTensor*>& inputs);

// The reference of one element from the values of the inputs at its index (in the operator's input order) and
// the element's linear index in out's shape (row-major).
using ElementReference = std::function<ReferenceValue(const std::vector<double>& values, int64_t linear_index)>;

// The reference of each element of a call whose out has the present inputs' broadcast shape `shape`: the row's
// element model, or for an operator along a dim its row model over each row of the inputs' values (rounded to
// out's dtype first where the row computes in it).
ElementReference CallReference(const RowCall& call, const std::vector<const DeviceTensor*>& present,
                               const std::vector<int64_t>& shape, aclDataType out_type);



// Compares out's device storage with reference(inputs' host values at each index), rounded to the promote
// type of the inputs and then to out's type (CheckElement's tolerances). out_spec/out_storage describe where
// out's view lives; out_before holds the storage bytes before the run (everything outside the view must be
// unchanged). Returns a failure description (empty on success) and counts checked elements.
// promote: the dtype the call computes in where it is not the inputs' promoted one (ComputeType).
std::string VerifyElementwise(const std::vector<const DeviceTensor*>& inputs, const ElementReference& reference,
                              const TensorSpec& out_spec, const std::vector<uint8_t>& out_storage,
                              const std::vector<uint8_t>& out_before, int64_t* checked = nullptr,
                              aclDataType promote = ACL_DT_UNDEFINED);

struct Inputs {
    const DeviceTensor* grad;
    const DeviceTensor* self;
    const DeviceTensor* target;
};

// VerifyElementwise with the row's reference, for a call whose out has one element per element of the broadcast
// shape (any row under a reduction that keeps out's shape); inputs in the row's order, nullptr where absent.
std::string VerifyRowElementwise(const RowCall& call, const std::vector<const DeviceTensor*>& inputs,
                                 const TensorSpec& out_spec, const std::vector<uint8_t>& out_storage,
                                 const std::vector<uint8_t>& out_before);

// VerifyElementwise with aclnnSoftMarginLossBackward's reference (cof = 1/numel(out) for mean).
std::string VerifyAgainstReference(const Inputs& inputs, int64_t reduction, const TensorSpec& out_spec,
                                   const std::vector<uint8_t>& out_storage, const std::vector<uint8_t>& out_before,
                                   int64_t* checked = nullptr);

// VerifyElementwise with aclnnSoftMarginLoss's reference (reduction none).
std::string VerifyLossAgainstReference(const DeviceTensor& self, const DeviceTensor& target,
                                       const TensorSpec& out_spec, const std::vector<uint8_t>& out_storage,
                                       const std::vector<uint8_t>& out_before, int64_t* checked = nullptr);

// The float64 reference losses of every element of the broadcast shape of self and target, row-major.
std::vector<double> ReferenceLosses(const DeviceTensor& self, const DeviceTensor& target);

// Sum of values with double-double accumulation (TwoSum): exact to far below an fp32 ulp, in any order.
double AccurateSum(const std::vector<double>& values);

// out's single element (a 0-d tensor's), decoded.
double ReadScalar(const DeviceTensor& out);

std::string Describe(const TensorSpec& spec);

}  // namespace test_support
