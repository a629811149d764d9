// aclCreateTensor, aclInitTensor, aclDestroyTensor and the tensor getters.
#include <algorithm>
#include <cstring>
#include <new>

#include "aclnn/opdev/op_errno.h"
#include "common/error_message.h"
#include "common/live_set.h"
#include "tensor/tensor.h"

namespace aclnn_cpu {
namespace {

// Created when the library loads (so no later call can fail to create it) and never destroyed (tensors may
// be destroyed by static destructors at exit).
LiveSet<aclTensor>* const g_live_tensors = new LiveSet<aclTensor>;

void Fill(aclTensor* tensor, const int64_t* viewDims, uint64_t viewDimsNum, aclDataType dataType,
          const int64_t* stride, int64_t offset, aclFormat format, const int64_t* storageDims,
          uint64_t storageDimsNum, void* data) {
    tensor->view_dims.assign(viewDims, viewDims + viewDimsNum);
    tensor->strides = stride != nullptr ? std::vector<int64_t>(stride, stride + viewDimsNum)
                                        : ContiguousStrides(tensor->view_dims);
    tensor->offset = offset;
    tensor->data_type = EnumCode(dataType);
    tensor->format = EnumCode(format);
    tensor->storage_dims.assign(storageDims, storageDims + storageDimsNum);
    tensor->data = data;
}

// Copies values into a new[] array owned by the caller, as CANN's getters do.
aclnnStatus CopyOut(const char* caller, const std::vector<int64_t>& values, int64_t** array, uint64_t* count) {
    int64_t* copy = new (std::nothrow) int64_t[values.empty() ? 1 : values.size()];
    if (copy == nullptr) {
        SetErrorMessage(aclnn_cpu::kAclnnInnerError, "%s: out of memory", caller);
        return ACLNN_ERR_INNER;
    }
    std::copy(values.begin(), values.end(), copy);
    *array = copy;
    *count = values.size();
    return ACLNN_SUCCESS;
}

bool NullArgument(const char* caller, const void* tensor, const void* output) {
    if (tensor != nullptr && output != nullptr) return false;
    SetErrorMessage(aclnn_cpu::kAclnnParameterError,
                    "%s: Expected a proper %s but got null", caller, tensor == nullptr ? "tensor" : "output pointer");
    return true;
}

}  // namespace

std::vector<int64_t> ContiguousStrides(const std::vector<int64_t>& dims) {
    std::vector<int64_t> strides(dims.size());
    uint64_t running = 1;  // unsigned: wraps instead of overflowing on absurd dims
    for (size_t i = dims.size(); i-- > 0;) {
        strides[i] = static_cast<int64_t>(running);
        running *= static_cast<uint64_t>(dims[i]);
    }
    return strides;
}

bool IsLiveTensor(const aclTensor* tensor) { return g_live_tensors->Contains(tensor); }

}  // namespace aclnn_cpu

using aclnn_cpu::NullArgument;

extern "C" {

aclTensor* aclCreateTensor(const int64_t* viewDims, uint64_t viewDimsNum, aclDataType dataType, const int64_t* stride,
                           int64_t offset, aclFormat format, const int64_t* storageDims, uint64_t storageDimsNum,
                           void* tensorData) {
    if ((viewDims == nullptr && viewDimsNum > 0) || (storageDims == nullptr && storageDimsNum > 0)) {
        aclnn_cpu::SetErrorMessage(aclnn_cpu::kAclnnParameterError, "aclCreateTensor: %s is null but its count is %llu",
                                   viewDims == nullptr && viewDimsNum > 0 ? "viewDims" : "storageDims",
                                   static_cast<unsigned long long>(viewDims == nullptr ? viewDimsNum : storageDimsNum));
        return nullptr;
    }
    aclTensor* tensor = nullptr;
    try {
        tensor = new aclTensor;
        aclnn_cpu::Fill(tensor, viewDims, viewDimsNum, dataType, stride, offset, format, storageDims, storageDimsNum,
                        tensorData);
        aclnn_cpu::g_live_tensors->Insert(tensor);
    } catch (const std::bad_alloc&) {
        delete tensor;
        aclnn_cpu::SetErrorMessage(aclnn_cpu::kAclnnInnerError, "aclCreateTensor: out of memory (viewDimsNum %llu)",
                                   static_cast<unsigned long long>(viewDimsNum));
        return nullptr;
    }
    return tensor;
}

aclnnStatus aclInitTensor(aclTensor* tensor, const int64_t* viewDims, uint64_t viewDimsNum, aclDataType dataType,
                          const int64_t* stride, int64_t offset, aclFormat format, const int64_t* storageDims,
                          uint64_t storageDimsNum, void* tensorDataAddr) {
    if (tensor == nullptr) {
        aclnn_cpu::SetErrorMessage(aclnn_cpu::kAclnnParameterError,
                        "aclInitTensor: Expected a proper Tensor but got null for argument tensor.");
        return ACLNN_ERR_PARAM_NULLPTR;
    }
    if ((viewDims == nullptr && viewDimsNum > 0) || (storageDims == nullptr && storageDimsNum > 0)) {
        aclnn_cpu::SetErrorMessage(aclnn_cpu::kAclnnParameterError, "aclInitTensor: %s is null but its count is not 0",
                                   viewDims == nullptr && viewDimsNum > 0 ? "viewDims" : "storageDims");
        return ACLNN_ERR_PARAM_NULLPTR;
    }
    try {
        aclnn_cpu::Fill(tensor, viewDims, viewDimsNum, dataType, stride, offset, format, storageDims, storageDimsNum,
                        tensorDataAddr);
    } catch (const std::bad_alloc&) {
        aclnn_cpu::SetErrorMessage(aclnn_cpu::kAclnnInnerError, "aclInitTensor: out of memory");
        return ACLNN_ERR_INNER;
    }
    return ACLNN_SUCCESS;
}

aclnnStatus aclDestroyTensor(const aclTensor* tensor) {
    if (tensor == nullptr) return ACLNN_SUCCESS;
    if (!aclnn_cpu::g_live_tensors->Erase(tensor)) {
        aclnn_cpu::SetErrorMessage(aclnn_cpu::kAclnnParameterError,
                        "aclDestroyTensor: %p is not a live tensor (destroyed twice?)",
                                   static_cast<const void*>(tensor));
        return ACLNN_ERR_PARAM_INVALID;
    }
    delete tensor;
    return ACLNN_SUCCESS;
}

aclnnStatus aclGetViewShape(const aclTensor* tensor, int64_t** viewDims, uint64_t* viewDimsNum) {
    if (NullArgument("aclGetViewShape", tensor, viewDims) || NullArgument("aclGetViewShape", tensor, viewDimsNum))
        return ACLNN_ERR_PARAM_NULLPTR;
    return aclnn_cpu::CopyOut("aclGetViewShape", tensor->view_dims, viewDims, viewDimsNum);
}

aclnnStatus aclGetStorageShape(const aclTensor* tensor, int64_t** storageDims, uint64_t* storageDimsNum) {
    if (NullArgument("aclGetStorageShape", tensor, storageDims) ||
        NullArgument("aclGetStorageShape", tensor, storageDimsNum))
        return ACLNN_ERR_PARAM_NULLPTR;
    return aclnn_cpu::CopyOut("aclGetStorageShape", tensor->storage_dims, storageDims, storageDimsNum);
}

aclnnStatus aclGetViewStrides(const aclTensor* tensor, int64_t** stridesValue, uint64_t* stridesNum) {
    if (NullArgument("aclGetViewStrides", tensor, stridesValue) ||
        NullArgument("aclGetViewStrides", tensor, stridesNum))
        return ACLNN_ERR_PARAM_NULLPTR;
    return aclnn_cpu::CopyOut("aclGetViewStrides", tensor->strides, stridesValue, stridesNum);
}

aclnnStatus aclGetViewOffset(const aclTensor* tensor, int64_t* offset) {
    if (NullArgument("aclGetViewOffset", tensor, offset)) return ACLNN_ERR_PARAM_NULLPTR;
    *offset = tensor->offset;
    return ACLNN_SUCCESS;
}

aclnnStatus aclGetFormat(const aclTensor* tensor, aclFormat* format) {
    if (NullArgument("aclGetFormat", tensor, format)) return ACLNN_ERR_PARAM_NULLPTR;
    std::memcpy(format, &tensor->format, sizeof tensor->format);
    return ACLNN_SUCCESS;
}

aclnnStatus aclGetDataType(const aclTensor* tensor, aclDataType* dataType) {
    if (NullArgument("aclGetDataType", tensor, dataType)) return ACLNN_ERR_PARAM_NULLPTR;
    std::memcpy(dataType, &tensor->data_type, sizeof tensor->data_type);
    return ACLNN_SUCCESS;
}

aclnnStatus aclSetRawTensorAddr(aclTensor* tensor, void* addr) {
    if (tensor == nullptr) {
        aclnn_cpu::SetErrorMessage(aclnn_cpu::kAclnnParameterError,
                        "aclSetRawTensorAddr: Expected a proper Tensor but got null for argument tensor.");
        return ACLNN_ERR_PARAM_NULLPTR;
    }
    tensor->data = addr;
    return ACLNN_SUCCESS;
}

aclnnStatus aclGetRawTensorAddr(const aclTensor* tensor, void** addr) {
    if (NullArgument("aclGetRawTensorAddr", tensor, addr)) return ACLNN_ERR_PARAM_NULLPTR;
    *addr = tensor->data;
    return ACLNN_SUCCESS;
}

}  // extern "C"
