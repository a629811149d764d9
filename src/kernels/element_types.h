// The element types the kernels handle, and scalar load/round/store helpers for each.
#pragma once

#include <cstdint>
#include <cstring>
#include <type_traits>

#include "common/float_convert.h"

namespace aclnn_cpu::kernels {

// The floating types the kernels compute with, and the integer types they read (widened to fp32 and rounded to
// the promote type as they are loaded, as CANN's op_api casts an integer input to the promote type first).
enum class ElementType : uint8_t { kFloat32, kFloat16, kBFloat16, kInt64, kInt32, kInt16, kInt8, kUInt8, kBool };

inline bool IsInteger(ElementType type) { return type >= ElementType::kInt64; }

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

inline int64_t ElementSize(ElementType type) {
    switch (type) {
        case ElementType::kFloat32: case ElementType::kInt32: return 4;
        case ElementType::kInt64: return 8;
        case ElementType::kInt8: case ElementType::kUInt8: case ElementType::kBool: return 1;
        default: return 2;
    }
}

// The integer element at address, exactly.
inline int64_t LoadInteger(ElementType type, const char* address) {
    switch (type) {
        case ElementType::kInt64: { int64_t v; std::memcpy(&v, address, sizeof v); return v; }
        case ElementType::kInt32: { int32_t v; std::memcpy(&v, address, sizeof v); return v; }
        case ElementType::kInt16: { int16_t v; std::memcpy(&v, address, sizeof v); return v; }
        case ElementType::kInt8: return static_cast<int8_t>(*address);
        case ElementType::kUInt8: return static_cast<uint8_t>(*address);
        default: return *address != 0 ? 1 : 0;  // kBool
    }
}

inline float LoadAsFloat(ElementType type, const char* address) {
    // An integer rounds to nearest (ties to even) in the conversion.
    if (IsInteger(type)) return static_cast<float>(LoadInteger(type, address));
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

// An integer result stored in type: INT64 as it is, a floating type rounded to nearest (ties to even) -- in one
// rounding for FLOAT and FLOAT16 (every integer FLOAT16 can hold or overflows to is exact in fp32), through fp32
// for BFLOAT16 (two roundings, which differ from one only beyond 2^24).
inline void StoreInteger(ElementType type, char* address, int64_t value) {
    if (type == ElementType::kInt64) {
        std::memcpy(address, &value, sizeof value);
        return;
    }
    StoreFromFloat(type, address, static_cast<float>(value));
}

}  // namespace aclnn_cpu::kernels
