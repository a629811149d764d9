// Test helpers: a tensor whose storage lives in one aclrtMalloc block, with a host mirror of that storage so
// tests can fill it, read results back, and check that bytes outside the view never change.
#pragma once

#include <cstdint>
#include <memory>
#include <random>
#include <vector>

#include "acl/acl.h"
#include "aclnn/acl_meta.h"

namespace test_support {

struct TensorSpec {
    std::vector<int64_t> dims;
    aclDataType type = ACL_FLOAT;
    std::vector<int64_t> strides;  // empty: contiguous
    int64_t offset = 0;
    aclFormat format = ACL_FORMAT_ND;
};

// A contiguous view of dims (no offset).
inline TensorSpec Dense(std::vector<int64_t> dims, aclDataType type) {
    TensorSpec spec;
    spec.dims = std::move(dims);
    spec.type = type;
    return spec;
}

int64_t ElementSize(aclDataType type);
int64_t NumElements(const std::vector<int64_t>& dims);
std::vector<int64_t> ContiguousStrides(const std::vector<int64_t>& dims);

class DeviceTensor;

// A tensor of spec holding `values` in its view's row-major order (integers exactly; storage outside the view -7).
std::unique_ptr<DeviceTensor> TensorOfValues(const TensorSpec& spec, const std::vector<double>& values);
// The view's values on the device, row-major.
std::vector<double> ViewValues(const DeviceTensor& t);

class DeviceTensor {
public:
    // Allocates storage covering the view (plus `extra_elements` beyond it), fills every storage element
    // with fill(rng) (values rounded to the tensor's type), uploads, and creates the aclTensor.
    template <typename Fill>
    DeviceTensor(const TensorSpec& spec, std::mt19937_64& rng, Fill fill, int64_t extra_elements = 0)
        : spec_(Normalized(spec)) {
        Allocate(extra_elements);
        for (int64_t i = 0; i < storage_elements_; ++i) SetStorage(i, fill(rng));
        Upload();
        CreateTensor();
    }
    ~DeviceTensor();
    DeviceTensor(const DeviceTensor&) = delete;
    DeviceTensor& operator=(const DeviceTensor&) = delete;

    aclTensor* tensor() const { return tensor_; }
    void* device() const { return device_; }
    const TensorSpec& spec() const { return spec_; }
    int64_t storage_bytes() const { return storage_bytes_; }

    // Element offset (in elements, from the storage start) of a view index.
    int64_t StorageIndex(const std::vector<int64_t>& index) const;
    // The value in the host mirror (what was uploaded), at a storage element.
    double HostValue(int64_t storage_index) const;
    void SetStorage(int64_t storage_index, double value);  // host mirror only; call Upload() after
    void SetRawBits(int64_t storage_index, uint32_t bits);  // host mirror, the element's own bytes
    void SetInteger(int64_t storage_index, int64_t value);  // host mirror, an integer tensor's element, exactly
    int64_t DeviceInteger(int64_t storage_index) const;     // an integer tensor's element on the device
    void Upload();
    // Current device storage bytes.
    std::vector<uint8_t> Download() const;
    const std::vector<uint8_t>& host() const { return host_; }

private:
    static TensorSpec Normalized(TensorSpec spec);
    void Allocate(int64_t extra_elements);
    void CreateTensor();

    TensorSpec spec_;
    int64_t storage_elements_ = 0;
    int64_t storage_bytes_ = 0;
    std::vector<uint8_t> host_;
    void* device_ = nullptr;
    aclTensor* tensor_ = nullptr;
};

// Calls fn(index) for every multi-index of dims, in row-major order (once, with an empty index, for rank 0).
template <typename Fn>
void ForEachIndex(const std::vector<int64_t>& dims, Fn&& fn) {
    if (NumElements(dims) == 0) return;
    std::vector<int64_t> index(dims.size(), 0);
    for (;;) {
        fn(index);
        int d = static_cast<int>(dims.size()) - 1;
        for (; d >= 0; --d) {
            if (++index[d] < dims[d]) break;
            index[d] = 0;
        }
        if (d < 0) return;
    }
}

// The index of a broadcast operand of shape `dims` for an index of the broadcast shape.
std::vector<int64_t> BroadcastIndex(const std::vector<int64_t>& index, const std::vector<int64_t>& dims);

}  // namespace test_support
