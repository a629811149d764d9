#include "device_tensor.h"

#include <cmath>
#include <cstring>
#include <stdexcept>

#include "reference.h"

namespace test_support {

int64_t ElementSize(aclDataType type) {
    switch (type) {
        case ACL_FLOAT: case ACL_INT32: return 4;
        case ACL_INT64: case ACL_DOUBLE: return 8;
        case ACL_INT8: case ACL_UINT8: case ACL_BOOL: return 1;
        default: return 2;
    }
}

int64_t NumElements(const std::vector<int64_t>& dims) {
    int64_t n = 1;
    for (int64_t d : dims) n *= d;
    return n;
}

std::vector<int64_t> ContiguousStrides(const std::vector<int64_t>& dims) {
    std::vector<int64_t> strides(dims.size(), 1);
    for (int d = static_cast<int>(dims.size()) - 2; d >= 0; --d) strides[d] = strides[d + 1] * dims[d + 1];
    return strides;
}

TensorSpec DeviceTensor::Normalized(TensorSpec spec) {
    if (spec.strides.empty()) spec.strides = ContiguousStrides(spec.dims);
    return spec;
}

void DeviceTensor::Allocate(int64_t extra_elements) {
    int64_t last = spec_.offset;
    if (NumElements(spec_.dims) > 0)
        for (size_t d = 0; d < spec_.dims.size(); ++d) last += (spec_.dims[d] - 1) * spec_.strides[d];
    storage_elements_ = last + 1 + extra_elements;
    storage_bytes_ = storage_elements_ * ElementSize(spec_.type);
    host_.assign(static_cast<size_t>(storage_bytes_), 0);
    if (aclrtMalloc(&device_, static_cast<size_t>(storage_bytes_), ACL_MEM_MALLOC_NORMAL_ONLY) != ACL_SUCCESS)
        throw std::runtime_error("aclrtMalloc failed in a test");
}

void DeviceTensor::CreateTensor() {
    tensor_ = aclCreateTensor(spec_.dims.data(), spec_.dims.size(), spec_.type, spec_.strides.data(), spec_.offset,
                              spec_.format, spec_.dims.data(), spec_.dims.size(), device_);
}

DeviceTensor::~DeviceTensor() {
    aclDestroyTensor(tensor_);
    aclrtFree(device_);
}

int64_t DeviceTensor::StorageIndex(const std::vector<int64_t>& index) const {
    int64_t at = spec_.offset;
    for (size_t d = 0; d < index.size(); ++d) at += index[d] * spec_.strides[d];
    return at;
}

double DeviceTensor::HostValue(int64_t storage_index) const {
    return DecodeElement(host_.data() + storage_index * ElementSize(spec_.type), spec_.type);
}

void DeviceTensor::SetStorage(int64_t storage_index, double value) {
    EncodeElement(RoundToType(value, spec_.type), spec_.type, host_.data() + storage_index * ElementSize(spec_.type));
}

void DeviceTensor::SetRawBits(int64_t storage_index, uint32_t bits) {
    const int64_t size = ElementSize(spec_.type);
    if (size == 4) {
        std::memcpy(host_.data() + storage_index * 4, &bits, 4);
    } else {
        const uint16_t half = static_cast<uint16_t>(bits);
        std::memcpy(host_.data() + storage_index * 2, &half, 2);
    }
}

void DeviceTensor::SetInteger(int64_t storage_index, int64_t value) {
    uint8_t* at = host_.data() + storage_index * ElementSize(spec_.type);
    switch (ElementSize(spec_.type)) {
        case 8: std::memcpy(at, &value, 8); break;
        case 4: { const int32_t v = static_cast<int32_t>(value); std::memcpy(at, &v, 4); break; }
        case 2: { const int16_t v = static_cast<int16_t>(value); std::memcpy(at, &v, 2); break; }
        default: *at = static_cast<uint8_t>(value);
    }
}

int64_t DeviceTensor::DeviceInteger(int64_t storage_index) const {
    const std::vector<uint8_t> bytes = Download();
    const uint8_t* at = bytes.data() + storage_index * ElementSize(spec_.type);
    switch (spec_.type) {
        case ACL_INT64: { int64_t v; std::memcpy(&v, at, 8); return v; }
        case ACL_INT32: { int32_t v; std::memcpy(&v, at, 4); return v; }
        case ACL_INT16: { int16_t v; std::memcpy(&v, at, 2); return v; }
        case ACL_INT8: return static_cast<int8_t>(*at);
        default: return *at;
    }
}

void DeviceTensor::Upload() {
    aclrtMemcpy(device_, static_cast<size_t>(storage_bytes_), host_.data(), static_cast<size_t>(storage_bytes_),
                ACL_MEMCPY_HOST_TO_DEVICE);
}

std::vector<uint8_t> DeviceTensor::Download() const {
    std::vector<uint8_t> bytes(static_cast<size_t>(storage_bytes_));
    aclrtMemcpy(bytes.data(), bytes.size(), device_, bytes.size(), ACL_MEMCPY_DEVICE_TO_HOST);
    return bytes;
}

std::vector<int64_t> BroadcastIndex(const std::vector<int64_t>& index, const std::vector<int64_t>& dims) {
    std::vector<int64_t> result(dims.size());
    const size_t lead = index.size() - dims.size();
    for (size_t d = 0; d < dims.size(); ++d) result[d] = dims[d] == 1 ? 0 : index[lead + d];
    return result;
}

std::unique_ptr<DeviceTensor> TensorOfValues(const TensorSpec& spec, const std::vector<double>& values) {
    std::mt19937_64 rng(1);
    auto t = std::make_unique<DeviceTensor>(spec, rng, [](std::mt19937_64&) { return -7.0; });
    const bool integer = spec.type == ACL_INT64 || spec.type == ACL_INT32 || spec.type == ACL_UINT8;
    std::vector<int64_t> index(spec.dims.size(), 0);
    for (double v : values) {
        const int64_t at = t->StorageIndex(index);
        if (integer) t->SetInteger(at, static_cast<int64_t>(v));
        else t->SetStorage(at, v);
        for (size_t d = index.size(); d-- > 0;) {
            if (++index[d] < spec.dims[d]) break;
            index[d] = 0;
        }
    }
    t->Upload();
    return t;
}

std::vector<double> ViewValues(const DeviceTensor& t) {
    const std::vector<uint8_t> bytes = t.Download();
    const TensorSpec& spec = t.spec();
    const int64_t n = NumElements(spec.dims);
    std::vector<double> values;
    std::vector<int64_t> index(spec.dims.size(), 0);
    for (int64_t i = 0; i < n; ++i) {
        values.push_back(DecodeElement(bytes.data() + t.StorageIndex(index) * ElementSize(spec.type), spec.type));
        for (size_t d = index.size(); d-- > 0;) {
            if (++index[d] < spec.dims[d]) break;
            index[d] = 0;
        }
    }
    return values;
}

}  // namespace test_support
