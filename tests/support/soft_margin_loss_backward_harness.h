// Runs aclnnSoftMarginLossBackward on DeviceTensors and checks the result against the float64 reference,
// element by element, and that out's storage outside its view kept its bytes.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "aclnn/acl_meta.h"
#include "device_tensor.h"

namespace test_support {

// Phase 1, workspace allocation, phase 2 on stream, stream sync. Returns the first non-zero status.
aclnnStatus RunSoftMarginLossBackward(const aclTensor* grad, const aclTensor* self, const aclTensor* target,
                                      int64_t reduction, aclTensor* out, aclrtStream stream = nullptr,
                                      uint64_t* workspace_size = nullptr);

struct Inputs {
    // Where each input's values come from: its own mirror, at its own view (normally) ...
    const DeviceTensor* grad;
    const DeviceTensor* self;
    const DeviceTensor* target;
};

// Compares out's device storage with the reference computed from the inputs' host mirrors (values as they
// were before the run). out_spec/out_storage describe where out's view lives; out_before holds the storage
// bytes before the run (to check everything outside the view is unchanged). Returns a failure description
// (empty on success) and counts checked elements.
std::string VerifyAgainstReference(const Inputs& inputs, int64_t reduction, const TensorSpec& out_spec,
                                   const std::vector<uint8_t>& out_storage, const std::vector<uint8_t>& out_before,
                                   int64_t* checked = nullptr);

std::string Describe(const TensorSpec& spec);

}  // namespace test_support
