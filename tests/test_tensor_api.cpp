// The aclnn metadata API (docs/contract.md section 2): tensors record what they are given, getters hand out new[]
// copies, nothing is validated at creation, and null arguments give 161001.
#include <gtest/gtest.h>

#include <vector>

#include "aclnn/aclnn_base.h"
#include "aclnn/opdev/op_errno.h"

namespace {

TEST(TensorApi, CreateRecordsEverythingAndGettersCopyIt) {
    const int64_t dims[] = {2, 3, 4};
    const int64_t strides[] = {1, 8, 2};
    const int64_t storage[] = {40};
    int data = 0;
    aclTensor* tensor = aclCreateTensor(dims, 3, ACL_BF16, strides, 5, ACL_FORMAT_NCHW, storage, 1, &data);
    ASSERT_NE(tensor, nullptr);

    int64_t* values = nullptr;
    uint64_t count = 0;
    ASSERT_EQ(aclGetViewShape(tensor, &values, &count), ACLNN_SUCCESS);
    EXPECT_EQ(std::vector<int64_t>(values, values + count), std::vector<int64_t>({2, 3, 4}));
    delete[] values;
    ASSERT_EQ(aclGetViewStrides(tensor, &values, &count), ACLNN_SUCCESS);
    EXPECT_EQ(std::vector<int64_t>(values, values + count), std::vector<int64_t>({1, 8, 2}));
    delete[] values;
    ASSERT_EQ(aclGetStorageShape(tensor, &values, &count), ACLNN_SUCCESS);
    EXPECT_EQ(std::vector<int64_t>(values, values + count), std::vector<int64_t>({40}));
    delete[] values;
    int64_t offset = 0;
    ASSERT_EQ(aclGetViewOffset(tensor, &offset), ACLNN_SUCCESS);
    EXPECT_EQ(offset, 5);
    aclFormat format;
    ASSERT_EQ(aclGetFormat(tensor, &format), ACLNN_SUCCESS);
    EXPECT_EQ(format, ACL_FORMAT_NCHW);
    aclDataType type;
    ASSERT_EQ(aclGetDataType(tensor, &type), ACLNN_SUCCESS);
    EXPECT_EQ(type, ACL_BF16);
    void* address = nullptr;
    ASSERT_EQ(aclGetRawTensorAddr(tensor, &address), ACLNN_SUCCESS);
    EXPECT_EQ(address, &data);
    ASSERT_EQ(aclSetRawTensorAddr(tensor, nullptr), ACLNN_SUCCESS);
    ASSERT_EQ(aclGetRawTensorAddr(tensor, &address), ACLNN_SUCCESS);
    EXPECT_EQ(address, nullptr);
    EXPECT_EQ(aclDestroyTensor(tensor), ACLNN_SUCCESS);
}

TEST(TensorApi, NullStridesMeanContiguous) {
    const int64_t dims[] = {2, 3, 4};
    aclTensor* tensor = aclCreateTensor(dims, 3, ACL_FLOAT, nullptr, 0, ACL_FORMAT_ND, dims, 3, nullptr);
    ASSERT_NE(tensor, nullptr);
    int64_t* strides = nullptr;
    uint64_t count = 0;
    ASSERT_EQ(aclGetViewStrides(tensor, &strides, &count), ACLNN_SUCCESS);
    EXPECT_EQ(std::vector<int64_t>(strides, strides + count), std::vector<int64_t>({12, 4, 1}));
    delete[] strides;
    aclDestroyTensor(tensor);
}

TEST(TensorApi, CreationValidatesOnlyArrayPointers) {
    const int64_t bad_dims[] = {-4, 0};
    aclTensor* odd = aclCreateTensor(bad_dims, 2, static_cast<aclDataType>(1234), nullptr, -7, ACL_FORMAT_ND,
                                     nullptr, 0, nullptr);
    EXPECT_NE(odd, nullptr) << "negative dims, a bad dtype and offset are for operators to reject";
    aclDestroyTensor(odd);
    EXPECT_EQ(aclCreateTensor(nullptr, 2, ACL_FLOAT, nullptr, 0, ACL_FORMAT_ND, nullptr, 0, nullptr), nullptr);
    EXPECT_EQ(aclCreateTensor(bad_dims, 2, ACL_FLOAT, nullptr, 0, ACL_FORMAT_ND, nullptr, 3, nullptr), nullptr);
    aclTensor* scalar = aclCreateTensor(nullptr, 0, ACL_FLOAT, nullptr, 0, ACL_FORMAT_ND, nullptr, 0, nullptr);
    EXPECT_NE(scalar, nullptr) << "a 0-d tensor";
    aclDestroyTensor(scalar);
}

TEST(TensorApi, InitTensorReplacesTheDescription) {
    const int64_t dims[] = {4};
    aclTensor* tensor = aclCreateTensor(dims, 1, ACL_FLOAT, nullptr, 0, ACL_FORMAT_ND, dims, 1, nullptr);
    const int64_t new_dims[] = {2, 2};
    int data = 0;
    ASSERT_EQ(aclInitTensor(tensor, new_dims, 2, ACL_FLOAT16, nullptr, 1, ACL_FORMAT_ND, new_dims, 2, &data),
              ACLNN_SUCCESS);
    int64_t* values = nullptr;
    uint64_t count = 0;
    ASSERT_EQ(aclGetViewShape(tensor, &values, &count), ACLNN_SUCCESS);
    EXPECT_EQ(count, 2u);
    delete[] values;
    EXPECT_EQ(aclInitTensor(nullptr, new_dims, 2, ACL_FLOAT16, nullptr, 0, ACL_FORMAT_ND, new_dims, 2, &data),
              ACLNN_ERR_PARAM_NULLPTR);
    aclDestroyTensor(tensor);
}

TEST(TensorApi, NullArgumentsGiveParamNullptr) {
    const int64_t dims[] = {1};
    aclTensor* tensor = aclCreateTensor(dims, 1, ACL_FLOAT, nullptr, 0, ACL_FORMAT_ND, dims, 1, nullptr);
    int64_t* values = nullptr;
    uint64_t count = 0;
    int64_t offset;
    aclFormat format;
    aclDataType type;
    void* address;
    EXPECT_EQ(aclGetViewShape(nullptr, &values, &count), ACLNN_ERR_PARAM_NULLPTR);
    EXPECT_EQ(aclGetViewShape(tensor, nullptr, &count), ACLNN_ERR_PARAM_NULLPTR);
    EXPECT_EQ(aclGetViewShape(tensor, &values, nullptr), ACLNN_ERR_PARAM_NULLPTR);
    EXPECT_EQ(aclGetViewStrides(nullptr, &values, &count), ACLNN_ERR_PARAM_NULLPTR);
    EXPECT_EQ(aclGetStorageShape(nullptr, &values, &count), ACLNN_ERR_PARAM_NULLPTR);
    EXPECT_EQ(aclGetViewOffset(nullptr, &offset), ACLNN_ERR_PARAM_NULLPTR);
    EXPECT_EQ(aclGetFormat(tensor, nullptr), ACLNN_ERR_PARAM_NULLPTR);
    EXPECT_EQ(aclGetDataType(nullptr, &type), ACLNN_ERR_PARAM_NULLPTR);
    EXPECT_EQ(aclGetRawTensorAddr(nullptr, &address), ACLNN_ERR_PARAM_NULLPTR);
    EXPECT_EQ(aclSetRawTensorAddr(nullptr, nullptr), ACLNN_ERR_PARAM_NULLPTR);
    EXPECT_EQ(aclDestroyTensor(nullptr), ACLNN_SUCCESS);
    (void)format;
    EXPECT_EQ(aclDestroyTensor(tensor), ACLNN_SUCCESS);
    EXPECT_EQ(aclDestroyTensor(tensor), ACLNN_ERR_PARAM_INVALID) << "a double destroy is reported, not a crash";
}

TEST(TensorApi, ScalarsArraysAndLists) {
    float value = 2.5f;
    aclScalar* scalar = aclCreateScalar(&value, ACL_FLOAT);
    ASSERT_NE(scalar, nullptr);
    EXPECT_EQ(aclCreateScalar(nullptr, ACL_FLOAT), nullptr);
    const int64_t ints[] = {1, 2, 3};
    aclIntArray* int_array = aclCreateIntArray(ints, 3);
    uint64_t size = 0;
    ASSERT_EQ(aclGetIntArraySize(int_array, &size), ACLNN_SUCCESS);
    EXPECT_EQ(size, 3u);
    const float floats[] = {1.0f};
    aclFloatArray* float_array = aclCreateFloatArray(floats, 1);
    ASSERT_EQ(aclGetFloatArraySize(float_array, &size), ACLNN_SUCCESS);
    EXPECT_EQ(size, 1u);
    const bool bools[] = {true, false};
    aclBoolArray* bool_array = aclCreateBoolArray(bools, 2);
    ASSERT_EQ(aclGetBoolArraySize(bool_array, &size), ACLNN_SUCCESS);
    EXPECT_EQ(size, 2u);
    EXPECT_EQ(aclGetIntArraySize(nullptr, &size), ACLNN_ERR_PARAM_NULLPTR);

    const int64_t dims[] = {2};
    const aclTensor* tensors[] = {aclCreateTensor(dims, 1, ACL_FLOAT, nullptr, 0, ACL_FORMAT_ND, dims, 1, nullptr),
                                  aclCreateTensor(dims, 1, ACL_FLOAT, nullptr, 0, ACL_FORMAT_ND, dims, 1, nullptr)};
    aclTensorList* list = aclCreateTensorList(tensors, 2);
    ASSERT_EQ(aclGetTensorListSize(list, &size), ACLNN_SUCCESS);
    EXPECT_EQ(size, 2u);
    const aclScalar* scalars[] = {aclCreateScalar(&value, ACL_FLOAT)};
    aclScalarList* scalar_list = aclCreateScalarList(scalars, 1);
    ASSERT_EQ(aclGetScalarListSize(scalar_list, &size), ACLNN_SUCCESS);
    EXPECT_EQ(size, 1u);

    EXPECT_EQ(aclDestroyScalar(scalar), ACLNN_SUCCESS);
    EXPECT_EQ(aclDestroyIntArray(int_array), ACLNN_SUCCESS);
    EXPECT_EQ(aclDestroyFloatArray(float_array), ACLNN_SUCCESS);
    EXPECT_EQ(aclDestroyBoolArray(bool_array), ACLNN_SUCCESS);
    EXPECT_EQ(aclDestroyTensorList(list), ACLNN_SUCCESS);  // destroys its tensors too
    EXPECT_EQ(aclDestroyScalarList(scalar_list), ACLNN_SUCCESS);
    EXPECT_EQ(aclDestroyIntArray(nullptr), ACLNN_SUCCESS);
    EXPECT_EQ(aclDestroyTensorList(nullptr), ACLNN_SUCCESS);
}

TEST(TensorApi, AclnnInitAndFinalize) {
    EXPECT_EQ(aclnnInit(nullptr), ACLNN_SUCCESS);
    EXPECT_EQ(aclnnFinalize(), ACLNN_SUCCESS);
}

}  // namespace
