// aclCreateScalar / aclCreate*Array / aclCreate*List, their destroy functions and size getters.
#include <cstring>
#include <new>

#include "acl/acl_base.h"
#include "aclnn/opdev/op_errno.h"
#include "common/error_message.h"
#include "tensor/containers.h"

namespace {

template <typename T>
aclnnStatus GetSize(const char* caller, const T* object, uint64_t* size, uint64_t value_if_set) {
    if (object == nullptr || size == nullptr) {
        aclnn_cpu::SetErrorMessage(aclnn_cpu::kAclnnParameterError, "%s: Expected a proper %s but got null", caller,
                                   object == nullptr ? "array" : "size pointer");
        return ACLNN_ERR_PARAM_NULLPTR;
    }
    *size = value_if_set;
    return ACLNN_SUCCESS;
}

template <typename Array, typename T>
Array* CreateArray(const char* caller, const T* value, uint64_t size) {
    if (value == nullptr && size > 0) {
        aclnn_cpu::SetErrorMessage(aclnn_cpu::kAclnnParameterError, "%s: value is null but size is %llu", caller,
                                   static_cast<unsigned long long>(size));
        return nullptr;
    }
    Array* array = new (std::nothrow) Array;
    if (array == nullptr) return nullptr;
    try {
        array->values.assign(value, value + size);
    } catch (const std::bad_alloc&) {
        delete array;
        return nullptr;
    }
    return array;
}

// A list takes ownership of the elements it is given.
template <typename List, typename Element>
List* CreateList(const char* caller, const Element* const* value, uint64_t size) {
    if (value == nullptr && size > 0) {
        aclnn_cpu::SetErrorMessage(aclnn_cpu::kAclnnParameterError, "%s: value is null but size is %llu", caller,
                                   static_cast<unsigned long long>(size));
        return nullptr;
    }
    List* list = new (std::nothrow) List;
    if (list == nullptr) return nullptr;
    try {
        for (uint64_t i = 0; i < size; ++i) list->items.push_back(const_cast<Element*>(value[i]));
    } catch (const std::bad_alloc&) {
        delete list;
        return nullptr;
    }
    return list;
}

}  // namespace

extern "C" {

aclScalar* aclCreateScalar(void* value, aclDataType dataType) {
    const size_t size = aclDataTypeSize(dataType);
    if (value == nullptr || size == 0 || size > sizeof(aclScalar::value)) {
        aclnn_cpu::SetErrorMessage(aclnn_cpu::kAclnnParameterError,
                        "aclCreateScalar: %s", value == nullptr ? "value is null"
                                                                          : "dataType has no scalar representation");
        return nullptr;
    }
    int32_t code;
    std::memcpy(&code, &dataType, sizeof code);
    aclScalar* scalar = new (std::nothrow) aclScalar{code, {}};
    if (scalar != nullptr) std::memcpy(scalar->value, value, size);
    return scalar;
}

aclIntArray* aclCreateIntArray(const int64_t* value, uint64_t size) {
    return CreateArray<aclIntArray>("aclCreateIntArray", value, size);
}

aclFloatArray* aclCreateFloatArray(const float* value, uint64_t size) {
    return CreateArray<aclFloatArray>("aclCreateFloatArray", value, size);
}

aclBoolArray* aclCreateBoolArray(const bool* value, uint64_t size) {
    return CreateArray<aclBoolArray>("aclCreateBoolArray", value, size);
}

aclTensorList* aclCreateTensorList(const aclTensor* const* value, uint64_t size) {
    return CreateList<aclTensorList>("aclCreateTensorList", value, size);
}

aclScalarList* aclCreateScalarList(const aclScalar* const* value, uint64_t size) {
    return CreateList<aclScalarList>("aclCreateScalarList", value, size);
}

aclnnStatus aclDestroyScalar(const aclScalar* scalar) {
    delete scalar;
    return ACLNN_SUCCESS;
}

aclnnStatus aclDestroyIntArray(const aclIntArray* array) {
    delete array;
    return ACLNN_SUCCESS;
}

aclnnStatus aclDestroyFloatArray(const aclFloatArray* array) {
    delete array;
    return ACLNN_SUCCESS;
}

aclnnStatus aclDestroyBoolArray(const aclBoolArray* array) {
    delete array;
    return ACLNN_SUCCESS;
}

aclnnStatus aclDestroyTensorList(const aclTensorList* array) {
    if (array == nullptr) return ACLNN_SUCCESS;
    for (aclTensor* tensor : array->items) aclDestroyTensor(tensor);
    delete array;
    return ACLNN_SUCCESS;
}

aclnnStatus aclDestroyScalarList(const aclScalarList* array) {
    if (array == nullptr) return ACLNN_SUCCESS;
    for (aclScalar* scalar : array->items) delete scalar;
    delete array;
    return ACLNN_SUCCESS;
}

aclnnStatus aclGetIntArraySize(const aclIntArray* array, uint64_t* size) {
    return GetSize("aclGetIntArraySize", array, size, array ? array->values.size() : 0);
}

aclnnStatus aclGetFloatArraySize(const aclFloatArray* array, uint64_t* size) {
    return GetSize("aclGetFloatArraySize", array, size, array ? array->values.size() : 0);
}

aclnnStatus aclGetBoolArraySize(const aclBoolArray* array, uint64_t* size) {
    return GetSize("aclGetBoolArraySize", array, size, array ? array->values.size() : 0);
}

aclnnStatus aclGetTensorListSize(const aclTensorList* tensorList, uint64_t* size) {
    return GetSize("aclGetTensorListSize", tensorList, size, tensorList ? tensorList->items.size() : 0);
}

aclnnStatus aclGetScalarListSize(const aclScalarList* scalarList, uint64_t* size) {
    return GetSize("aclGetScalarListSize", scalarList, size, scalarList ? scalarList->items.size() : 0);
}

}  // extern "C"
