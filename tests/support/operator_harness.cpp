#include "operator_harness.h"

#include <algorithm>
#include <cmath>
#include <cstring>
#include <memory>
#include <sstream>

#include "aclnnop/aclnn_soft_margin_loss.h"
#include "aclnnop/aclnn_soft_margin_loss_backward.h"

namespace test_support {
namespace {

// Allocates the workspace phase 1 asked for, runs phase 2, syncs the stream, frees the workspace.
template <typename Phase2>
aclnnStatus RunPhase2(uint64_t size, aclOpExecutor* executor, aclrtStream stream, Phase2 phase2) {
    void* workspace = nullptr;
    if (size > 0 && aclrtMalloc(&workspace, size, ACL_MEM_MALLOC_HUGE_FIRST) != ACL_SUCCESS) return -1;
    const aclnnStatus status = phase2(workspace, size, executor, stream);
    const aclError sync = aclrtSynchronizeStream(stream);
    if (workspace != nullptr) aclrtFree(workspace);
    return status != 0 ? status : sync;
}

std::vector<int64_t> BroadcastOf(const std::vector<int64_t>& a, const std::vector<int64_t>& b) {
    const size_t rank = std::max(a.size(), b.size());
    std::vector<int64_t> shape(rank);
    for (size_t i = 0; i < rank; ++i) {
        const int64_t da = i < a.size() ? a[a.size() - 1 - i] : 1;
        const int64_t db = i < b.size() ? b[b.size() - 1 - i] : 1;
        shape[rank - 1 - i] = da == 1 ? db : da;
    }
    return shape;
}

double ValueAt(const DeviceTensor& t, const std::vector<int64_t>& index) {
    return t.HostValue(t.StorageIndex(BroadcastIndex(index, t.spec().dims)));
}

}  // namespace

aclnnStatus RunSoftMarginLossBackward(const aclTensor* grad, const aclTensor* self, const aclTensor* target,
                                      int64_t reduction, aclTensor* out, aclrtStream stream,
                                      uint64_t* workspace_size) {
    uint64_t size = 0;
    aclOpExecutor* executor = nullptr;
    const aclnnStatus status =
        aclnnSoftMarginLossBackwardGetWorkspaceSize(grad, self, target, reduction, out, &size, &executor);
    if (status != 0) return status;
    if (workspace_size != nullptr) *workspace_size = size;
    return RunPhase2(size, executor, stream, aclnnSoftMarginLossBackward);
}

aclnnStatus RunSoftMarginLoss(const aclTensor* self, const aclTensor* target, int64_t reduction, aclTensor* out,
                              aclrtStream stream, uint64_t* workspace_size) {
    uint64_t size = 0;
    aclOpExecutor* executor = nullptr;
    const aclnnStatus status = aclnnSoftMarginLossGetWorkspaceSize(self, target, reduction, out, &size, &executor);
    if (status != 0) return status;
    if (workspace_size != nullptr) *workspace_size = size;
    return RunPhase2(size, executor, stream, aclnnSoftMarginLoss);
}

bool HasGenericCalls(const aclnn_cpu::OperatorDescription& row) {
    return row.iteration != aclnn_cpu::Iteration::kClassIndex && row.iteration != aclnn_cpu::Iteration::kClassRows;
}

std::vector<int> GenericRows() {
    std::vector<int> rows;
    for (int i = 0; i < aclnn_cpu::kOperatorCount; ++i)
        if (HasGenericCalls(aclnn_cpu::kOperators[i])) rows.push_back(i);
    return rows;
}

aclnnStatus RunRow(const aclnn_cpu::OperatorDescription& row, const std::vector<const aclTensor*>& inputs,
                   const std::vector<double>& parameters, aclTensor* out, aclrtStream stream,
                   uint64_t* workspace_size) {
    uint64_t size = 0;
    aclOpExecutor* executor = nullptr;
    const aclnnStatus status = row.Phase1(inputs.data(), parameters.data(), out, &size, &executor);
    if (status != 0) return status;
    if (workspace_size != nullptr) *workspace_size = size;
    return RunPhase2(size, executor, stream, row.run);
}

RowCall RowCallOf(const aclnn_cpu::OperatorDescription& row, const std::vector<double>& parameters,
                  const std::vector<const DeviceTensor*>& inputs) {
    RowCall call;
    call.row = &row;
    call.parameters = parameters;
    std::vector<int64_t> shape;
    call.given_inputs = 0;
    for (size_t k = 0; k < inputs.size(); ++k) {
        if (inputs[k] == nullptr) continue;
        call.given_inputs |= 1u << k;
        shape = BroadcastOf(shape, inputs[k]->spec().dims);
    }
    call.broadcast_count = NumElements(shape);
    call.self_count = NumElements(inputs[static_cast<size_t>(row.self_input)]->spec().dims);
    const int gradient = aclnn_cpu::IncomingGradientInput(row);
    call.gradient_count = gradient >= 0 ? NumElements(inputs[static_cast<size_t>(gradient)]->spec().dims) : 0;
    call.first_dim = shape.empty() ? 1 : shape[0];
    return call;
}

ElementReference CallReference(const RowCall& call, const std::vector<const DeviceTensor*>& present,
                               const std::vector<int64_t>& shape, aclDataType out_type) {
    const aclnn_cpu::OperatorDescription& row = *call.row;
    if (row.iteration == aclnn_cpu::Iteration::kElementwise) {
        return [call](const std::vector<double>& values, int64_t) { return RowElementReference(call, values.data()); };
    }
    std::vector<std::vector<double>> values(present.size());
    for (size_t k = 0; k < present.size(); ++k) {
        ForEachIndex(shape, [&](const std::vector<int64_t>& index) {
            const double v = ValueAt(*present[k], index);
            values[k].push_back(row.computes_in_out_dtype ? RoundToType(v, out_type) : v);
        });
    }
    auto table = std::make_shared<std::vector<ReferenceValue>>(AlongDimReferences(call, values, shape));
    return [table](const std::vector<double>&, int64_t linear) { return (*table)[static_cast<size_t>(linear)]; };
}

std::string VerifyRowElementwise(const RowCall& call, const std::vector<const DeviceTensor*>& inputs,
                                 const TensorSpec& out_spec, const std::vector<uint8_t>& out_storage,
                                 const std::vector<uint8_t>& out_before) {
    std::vector<const DeviceTensor*> present;
    std::vector<aclDataType> types;
    for (const DeviceTensor* input : inputs) {
        if (input == nullptr) continue;
        present.push_back(input);
        types.push_back(input->spec().type);
    }
    return VerifyElementwise(present, CallReference(call, present, out_spec.dims, out_spec.type), out_spec,
                             out_storage, out_before, nullptr, ComputeType(*call.row, types, out_spec.type));
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

std::string VerifyElementwise(const std::vector<const DeviceTensor*>& inputs, const ElementReference& reference,
                              const TensorSpec& given_out_spec, const std::vector<uint8_t>& out_storage,
                              const std::vector<uint8_t>& out_before, int64_t* checked, aclDataType promote) {
    TensorSpec out_spec = given_out_spec;
    if (out_spec.strides.empty()) out_spec.strides = ContiguousStrides(out_spec.dims);
    if (promote == ACL_DT_UNDEFINED) {
        promote = inputs[0]->spec().type;
        for (const DeviceTensor* input : inputs) promote = PromoteTypes(promote, input->spec().type);
    }
    const int64_t out_size = ElementSize(out_spec.type);
    std::vector<bool> in_view(out_storage.size() / out_size, false);
    std::ostringstream failure;
    int failures = 0;
    int64_t count = 0;
    std::vector<double> values(inputs.size());
    int64_t linear = 0;  // the index's, row-major
    ForEachIndex(out_spec.dims, [&](const std::vector<int64_t>& index) {
        const int64_t this_linear = linear++;
        for (size_t k = 0; k < inputs.size(); ++k) values[k] = ValueAt(*inputs[k], index);
        int64_t at = out_spec.offset;
        for (size_t d = 0; d < index.size(); ++d) at += index[d] * out_spec.strides[d];
        if (at < 0 || at >= static_cast<int64_t>(in_view.size())) {
            if (failures++ < 5) failure << "out's view reaches storage element " << at << ", outside the storage\n";
            return;
        }
        in_view[at] = true;
        const double got = DecodeElement(out_storage.data() + at * out_size, out_spec.type);
        double expected = 0;
        const char* problem = CheckElement(reference(values, this_linear), promote, out_spec.type, got, &expected);
        ++count;
        if (problem[0] != '\0' && failures++ < 5) {
            failure << problem << " at index [";
            for (size_t d = 0; d < index.size(); ++d) failure << (d ? "," : "") << index[d];
            failure.precision(10);
            failure << "]: inputs";
            for (double v : values) failure << " " << v;
            failure << " got " << got << " expected " << expected << "\n";
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

std::string VerifyAgainstReference(const Inputs& inputs, int64_t reduction, const TensorSpec& out_spec,
                                   const std::vector<uint8_t>& out_storage, const std::vector<uint8_t>& out_before,
                                   int64_t* checked) {
    const int64_t n = NumElements(out_spec.dims);
    const double cof = reduction == 1 && n > 0 ? 1.0 / static_cast<double>(n) : 1.0;
    return VerifyElementwise(
        {inputs.grad, inputs.self, inputs.target},
        [cof](const std::vector<double>& v, int64_t) { return SoftMarginLossGradReference(v[1], v[2], v[0], cof); },
        out_spec, out_storage, out_before, checked);
}

std::string VerifyLossAgainstReference(const DeviceTensor& self, const DeviceTensor& target,
                                       const TensorSpec& out_spec, const std::vector<uint8_t>& out_storage,
                                       const std::vector<uint8_t>& out_before, int64_t* checked) {
    return VerifyElementwise(
        {&self, &target}, [](const std::vector<double>& v, int64_t) { return SoftMarginLossReference(v[0], v[1]); },
        out_spec, out_storage, out_before, checked);
}

std::vector<double> ReferenceLosses(const DeviceTensor& self, const DeviceTensor& target) {
    std::vector<double> losses;
    ForEachIndex(BroadcastOf(self.spec().dims, target.spec().dims), [&](const std::vector<int64_t>& index) {
        losses.push_back(SoftMarginLossReference(ValueAt(self, index), ValueAt(target, index)).value);
    });
    return losses;
}

double AccurateSum(const std::vector<double>& values) {
    AccurateSummer sum;
    for (double v : values) sum.Add(v);
    return sum.Total();
}

double ReadScalar(const DeviceTensor& out) {
    const std::vector<uint8_t> storage = out.Download();
    return DecodeElement(storage.data() + out.spec().offset * ElementSize(out.spec().type), out.spec().type);
}

}  // namespace test_support
