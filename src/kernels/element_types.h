// The element types the kernels handle, and scalar load/round/store helpers for each.
#pragma once

#include <cstdint>
#include <cstring>
#include <type_traits>

#include "common/float_convert.h"

namespace aclnn_cpu::kernels {

enum class ElementType : uint8_t { kFloat32, kFloat16, kBFloat16 };

// Calls f with std::integral_constant<ElementType, type>: one switch that turns a run-time dtype into a
// template argument, shared by every place that picks a kernel instance by dtype.
template <class F>
decltype(auto) WithElementType(ElementType type, F&& f) {
    switch (type) {
        case ElementType::kFloat16: return f(std::integral_constant<ElementType, ElementType::kFloat16>{});
        case ElementType::kBFloat16: return f(std::integral_constant<ElementType, ElementType::kBFloat16>{});
        default: return f(std::integral_constant<ElementType, ElementType::kFloat32>{});
    }
}

inline int64_t ElementSize(ElementType type) { return type == ElementType::kFloat32 ? 4 : 2; }

inline float LoadAsFloat(ElementType type, const char* address) {
    if (type == ElementType::kFloat32) {
        float value;
        std::memcpy(&value, address, sizeof value);
        return value;
    }
    uint16_t bits;
    std::memcpy(&bits, address, sizeof bits);
    return type == ElementType::kFloat16 ? HalfToFloat(bits) : Bf16ToFloat(bits);
}

// value rounded (nearest, ties to even) to the precision and range of type, returned as fp32.
inline float RoundTo(ElementType type, float value) {
    switch (type) {
        case ElementType::kFloat16: return HalfToFloat(FloatToHalf(value));
        case ElementType::kBFloat16: return Bf16ToFloat(FloatToBf16(value));
        default: return value;
    }
}

inline void StoreFromFloat(ElementType type, char* address, float value) {
    if (type == ElementType::kFloat32) {
        std::memcpy(address, &value, sizeof value);
        return;
    }
    const uint16_t bits = type == ElementType::kFloat16 ? FloatToHalf(value) : FloatToBf16(value);
    std::memcpy(address, &bits, sizeof bits);
}

}  // namespace aclnn_cpu::kernels
