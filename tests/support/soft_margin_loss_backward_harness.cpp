#include "soft_margin_loss_backward_harness.h"

#include <cmath>
#include <cstring>
#include <sstream>

#include "aclnnop/aclnn_soft_margin_loss_backward.h"
#include "reference.h"

namespace test_support {

aclnnStatus RunSoftMarginLossBackward(const aclTensor* grad, const aclTensor* self, const aclTensor* target,
                                      int64_t reduction, aclTensor* out, aclrtStream stream,
                                      uint64_t* workspace_size) {
    uint64_t size = 0;
    aclOpExecutor* executor = nullptr;
    aclnnStatus status =
        aclnnSoftMarginLossBackwardGetWorkspaceSize(grad, self, target, reduction, out, &size, &executor);
    if (status != 0) return status;
    if (workspace_size != nullptr) *workspace_size = size;
    void* workspace = nullptr;
    if (size > 0 && aclrtMalloc(&workspace, size, ACL_MEM_MALLOC_HUGE_FIRST) != ACL_SUCCESS) return -1;
    status = aclnnSoftMarginLossBackward(workspace, size, executor, stream);
    const aclError sync = aclrtSynchronizeStream(stream);
    if (workspace != nullptr) aclrtFree(workspace);
    return status != 0 ? status : sync;
}

std::string Describe(const TensorSpec& spec) {
    std::ostringstream text;
    text << "dims[";
    for (size_t i = 0; i < spec.dims.size(); ++i) text << (i ? "," : "") << spec.dims[i];
    text << "] strides[";
    for (size_t i = 0; i < spec.strides.size(); ++i) text << (i ? "," : "") << spec.strides[i];
    text << "] offset " << spec.offset << " type " << spec.type;
    return text.str();
}

std::string VerifyAgainstReference(const Inputs& inputs, int64_t reduction, const TensorSpec& given_out_spec,
                                   const std::vector<uint8_t>& out_storage, const std::vector<uint8_t>& out_before,
                                   int64_t* checked) {
    TensorSpec out_spec = given_out_spec;
    if (out_spec.strides.empty()) out_spec.strides = ContiguousStrides(out_spec.dims);
    const aclDataType promote = PromoteTypes(inputs.grad->spec().type,
                                             PromoteTypes(inputs.self->spec().type, inputs.target->spec().type));
    const int64_t n = NumElements(out_spec.dims);
    const double cof = reduction == 1 && n > 0 ? 1.0 / static_cast<double>(n) : 1.0;
    const int64_t out_size = ElementSize(out_spec.type);
    std::vector<bool> in_view(out_storage.size() / out_size, false);
    std::ostringstream failure;
    int failures = 0;
    int64_t count = 0;
    ForEachIndex(out_spec.dims, [&](const std::vector<int64_t>& index) {
        auto value_of = [&](const DeviceTensor* t) {
            return t->HostValue(t->StorageIndex(BroadcastIndex(index, t->spec().dims)));
        };
        const double g = value_of(inputs.grad), x = value_of(inputs.self), y = value_of(inputs.target);
        int64_t at = out_spec.offset;
        for (size_t d = 0; d < index.size(); ++d) at += index[d] * out_spec.strides[d];
        if (at < 0 || at >= static_cast<int64_t>(in_view.size())) {
            if (failures++ < 5) failure << "out's view reaches storage element " << at << ", outside the storage\n";
            return;
        }
        in_view[at] = true;
        const double got = DecodeElement(out_storage.data() + at * out_size, out_spec.type);
        double expected = 0;
        const char* problem =
            CheckElement(SoftMarginLossGradReference(x, y, g, cof), promote, out_spec.type, got, &expected);
        ++count;
        if (problem[0] != '\0' && failures++ < 5) {
            failure << problem << " at index [";
            for (size_t d = 0; d < index.size(); ++d) failure << (d ? "," : "") << index[d];
            failure.precision(10);
            failure << "]: x=" << x << " y=" << y << " g=" << g << " got " << got << " expected " << expected
                    << "\n";
        }
    });
    for (size_t e = 0; e < in_view.size(); ++e) {
        if (in_view[e]) continue;
        if (std::memcmp(out_storage.data() + e * out_size, out_before.data() + e * out_size, out_size) != 0 &&
            failures++ < 10)
            failure << "storage element " << e << " outside out's view changed\n";
    }
    if (checked != nullptr) *checked = count;
    if (failures > 0) failure << failures << " problems in total\n";
    return failure.str();
}

}  // namespace test_support
