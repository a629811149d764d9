// The out-of-line members of the opdev headers' small floating-point types, exported from libnnopbase under
// the names CANN's libnnopbase gives them, so a program built against either set of headers links here.
#pragma GCC visibility push(default)
#include "aclnn/opdev/float4_e1m2.h"
#include "aclnn/opdev/float4_e2m1.h"
#include "aclnn/opdev/float6_e2m3.h"
#include "aclnn/opdev/float6_e3m2.h"
#include "aclnn/opdev/float8_e4m3fn.h"
#include "aclnn/opdev/float8_e5m2.h"
#include "aclnn/opdev/float8_e8m0.h"
#include "aclnn/opdev/hifloat4.h"
#include "aclnn/opdev/hifloat8.h"
#pragma GCC visibility pop

#include <cstring>

#include "opdev/small_float_codec.h"

namespace {

using aclnn_cpu::opdev::SmallFloatLayout;

bool E4M3FNIsNan(uint8_t bits) { return (bits & 0x7Fu) == 0x7Fu; }
bool E5M2IsNan(uint8_t bits) { return (bits & 0x7Cu) == 0x7Cu && (bits & 0x03u) != 0; }
bool E5M2IsInf(uint8_t bits) { return (bits & 0x7Fu) == 0x7Cu; }

// {mantissa bits, bias, sign bit, overflow exponent, saturated, NaN becomes, is NaN, is infinity}. The
// overflow exponent is one past the largest for the formats without specials; E4M3FN's is 15, its own
// largest, because CANN saturates every value that rounds there (from 248 up) to 448.
constexpr SmallFloatLayout kE1M2{2, 1, 3, 2, 0x07, 0x07, nullptr, nullptr};
constexpr SmallFloatLayout kE2M1{1, 1, 3, 4, 0x07, 0x07, nullptr, nullptr};
constexpr SmallFloatLayout kE2M3{3, 1, 5, 4, 0x1F, 0x1F, nullptr, nullptr};
constexpr SmallFloatLayout kE3M2{2, 3, 5, 8, 0x1F, 0x1F, nullptr, nullptr};
constexpr SmallFloatLayout kHiF4{2, 1, 3, 2, 0x07, 0x07, nullptr, nullptr};
constexpr SmallFloatLayout kE4M3FN{3, 7, 7, 15, 0x7E, 0x7F, E4M3FNIsNan, nullptr};
constexpr SmallFloatLayout kE5M2{2, 15, 7, 31, 0x7C, 0x7F, E5M2IsNan, E5M2IsInf};

}  // namespace

// The members every sign-exponent-mantissa type defines the same way, from its layout.
#define ACLNN_CPU_DEFINE_SMALL_FLOAT(Type, layout, magnitude_mask)                                           \
    op::Type::Type(float v) : value(aclnn_cpu::opdev::EncodeSmallFloat(layout, v)) {}                      \
    op::Type::operator float() const { return aclnn_cpu::opdev::DecodeSmallFloat(layout, value); }         \
    op::Type::operator double() const { return static_cast<double>(static_cast<float>(*this)); }           \
    bool op::Type::IsZero() const { return (value & magnitude_mask) == 0; }                                 \
    bool op::Type::IsNaN() const { return layout.is_nan != nullptr && layout.is_nan(value); }              \
    bool op::Type::IsInf() const { return layout.is_inf != nullptr && layout.is_inf(value); }

ACLNN_CPU_DEFINE_SMALL_FLOAT(Float4E1M2, kE1M2, 0x07u)
ACLNN_CPU_DEFINE_SMALL_FLOAT(Float4E2M1, kE2M1, 0x07u)
ACLNN_CPU_DEFINE_SMALL_FLOAT(Float6E2M3, kE2M3, 0x1Fu)
ACLNN_CPU_DEFINE_SMALL_FLOAT(Float6E3M2, kE3M2, 0x1Fu)
ACLNN_CPU_DEFINE_SMALL_FLOAT(HiFloat4, kHiF4, 0x07u)
ACLNN_CPU_DEFINE_SMALL_FLOAT(Float8E4M3FN, kE4M3FN, 0x7Fu)
ACLNN_CPU_DEFINE_SMALL_FLOAT(Float8E5M2, kE5M2, 0x7Fu)

#undef ACLNN_CPU_DEFINE_SMALL_FLOAT

op::Float8E8M0::Float8E8M0(float v) : value(aclnn_cpu::opdev::EncodeE8M0(v)) {}
op::Float8E8M0::operator float() const { return aclnn_cpu::opdev::DecodeE8M0(value); }
op::Float8E8M0::operator double() const { return static_cast<double>(static_cast<float>(*this)); }
bool op::Float8E8M0::IsZero() const { return value == 0x00; }
bool op::Float8E8M0::IsNaN() const { return value == NAN_VALUE; }
bool op::Float8E8M0::IsInf() const { return false; }
int32_t op::Float8E8M0::GetExponent() const { return IsZero() || IsNaN() ? 0 : static_cast<int32_t>(value) - 127; }

op::HiFloat8::HiFloat8(float f32) {
    uint32_t bits;
    std::memcpy(&bits, &f32, sizeof bits);
    value = BitsFromFp32(bits);
}
op::HiFloat8::operator float() const { return aclnn_cpu::opdev::DecodeHiFloat8(value); }
bool op::HiFloat8::IsNaN() const { return value == HIF8_NAN_VALUE; }
bool op::HiFloat8::IsInf() const { return (value & 0x7Fu) == HIF8_INF_VALUE; }
bool op::HiFloat8::IsZero() const { return (value & 0x7Fu) == HIF8_ZERO_VALUE; }
uint8_t op::HiFloat8::BitsFromFp32(uint32_t f32) { return aclnn_cpu::opdev::EncodeHiFloat8(f32); }
