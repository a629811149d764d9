#include "comparison_kernels.h"

#include <omp.h>

#include <cmath>

#include "kernels/smlb_row_kernel.h"

namespace bench {

void PlainLoop3Read1Write(const float* a, const float* b, const float* c, float* out, int64_t n, int threads) {
#pragma omp parallel for num_threads(threads) schedule(static)
    for (int64_t i = 0; i < n; ++i) out[i] = a[i] * b[i] + c[i];
}

void PlainLoop2Read1Write(const float* a, const float* b, float* out, int64_t n, int threads) {
#pragma omp parallel for num_threads(threads) schedule(static)
    for (int64_t i = 0; i < n; ++i) out[i] = a[i] * b[i];
}

void PlainLoop3Read1Write16(const uint16_t* a, const uint16_t* b, const uint16_t* c, uint16_t* out, int64_t n,
                            int threads) {
#pragma omp parallel for num_threads(threads) schedule(static)
    for (int64_t i = 0; i < n; ++i) out[i] = static_cast<uint16_t>(a[i] ^ b[i] ^ c[i]);
}

void PlainLoop2Read1Write16(const uint16_t* a, const uint16_t* b, uint16_t* out, int64_t n, int threads) {
#pragma omp parallel for num_threads(threads) schedule(static)
    for (int64_t i = 0; i < n; ++i) out[i] = static_cast<uint16_t>(a[i] ^ b[i]);
}

void CompositeMultiPass(const float* x, const float* y, const float* g, float cof, float* out, float* scratch,
                        int64_t n, int threads) {
    float* p = scratch;
    float* e = scratch + n;
    float* num = scratch + 2 * n;
    float* den = scratch + 3 * n;
    float* q = scratch + 4 * n;
#pragma omp parallel num_threads(threads)
    {
#pragma omp for schedule(static)
        for (int64_t i = 0; i < n; ++i) p[i] = x[i] * y[i];
#pragma omp for schedule(static)
        for (int64_t i = 0; i < n; ++i) p[i] = -p[i];
#pragma omp for schedule(static)
        for (int64_t i = 0; i < n; ++i) e[i] = std::exp(p[i]);
#pragma omp for schedule(static)
        for (int64_t i = 0; i < n; ++i) num[i] = -y[i] * e[i];
#pragma omp for schedule(static)
        for (int64_t i = 0; i < n; ++i) den[i] = e[i] + 1.0f;
#pragma omp for schedule(static)
        for (int64_t i = 0; i < n; ++i) q[i] = num[i] / den[i];
#pragma omp for schedule(static)
        for (int64_t i = 0; i < n; ++i) p[i] = g[i] * cof;
#pragma omp for schedule(static)
        for (int64_t i = 0; i < n; ++i) out[i] = q[i] * p[i];
    }
}

void ScalarReferencePath(const float* x, const float* y, const float* g, float cof, float* out, int64_t n,
                         int threads) {
    using namespace aclnn_cpu::kernels;
    SmlbTypes types;
    types.operand = {ElementType::kFloat32, ElementType::kFloat32, ElementType::kFloat32, ElementType::kFloat32};
    types.promote = ElementType::kFloat32;
    const std::array<int64_t, 4> strides = {4, 4, 4, 4};
#pragma omp parallel num_threads(threads)
    {
        const int count = threads, index = omp_get_thread_num();
        const int64_t begin = n * index / count, end = n * (index + 1) / count;
        aclnn_cpu::engine::OperandPointers pointers = {
            const_cast<char*>(reinterpret_cast<const char*>(g + begin)),
            const_cast<char*>(reinterpret_cast<const char*>(x + begin)),
            const_cast<char*>(reinterpret_cast<const char*>(y + begin)), reinterpret_cast<char*>(out + begin)};
        SmlbRowScalar(types, cof, pointers, strides, end - begin);
    }
}

}  // namespace bench
