#include <cstring>

#include "kernels/smlb_element.h"
#include "kernels/smlb_row_kernel.h"

namespace aclnn_cpu::kernels {

void SmlbRowScalar(const SmlbTypes& types, float cof, const engine::OperandPointers& pointers,
                   const std::array<int64_t, 4>& byte_strides, int64_t n) {
    const char* grad = pointers[kGradOutput];
    const char* self = pointers[kSelf];
    const char* target = pointers[kTarget];
    char* out = pointers[kOut];
    for (int64_t i = 0; i < n; ++i) {
        const float g = LoadAsFloat(types.operand[kGradOutput], grad + i * byte_strides[kGradOutput]);
        const float x = LoadAsFloat(types.operand[kSelf], self + i * byte_strides[kSelf]);
        const float y = LoadAsFloat(types.operand[kTarget], target + i * byte_strides[kTarget]);
        const float r = RoundTo(types.promote, SoftMarginLossGradElement(x, y, g, cof));
        StoreFromFloat(types.operand[kOut], out + i * byte_strides[kOut], r);
    }
}

void CopyRow(char* dst, int64_t dst_stride, const char* src, int64_t src_stride, int64_t element_size, int64_t n) {
    if (dst_stride == element_size && src_stride == element_size) {
        std::memcpy(dst, src, static_cast<size_t>(n * element_size));
        return;
    }
    for (int64_t i = 0; i < n; ++i) std::memcpy(dst + i * dst_stride, src + i * src_stride, element_size);
}

}  // namespace aclnn_cpu::kernels
