#include "comparison_kernels.h"

#include <omp.h>

#include <cmath>

namespace bench {

void PlainLoop3Read1Write(const float* a, const float* b, const float* c, float* out, int64_t n, int threads) {
#pragma omp parallel for num_threads(threads) schedule(static)
    for (int64_t i = 0; i < n; ++i) out[i] = a[i] * b[i] + c[i];
}

void PlainLoop1Read1Write(const float* a, float* out, int64_t n, int threads) {
#pragma omp parallel for num_threads(threads) schedule(static)
    for (int64_t i = 0; i < n; ++i) out[i] = a[i] * 0.5f;
}

void PlainLoop2Read1Write(const float* a, const float* b, float* out, int64_t n, int threads) {
#pragma omp parallel for num_threads(threads) schedule(static)
    for (int64_t i = 0; i < n; ++i) out[i] = a[i] * b[i];
}

void PlainLoop4Read1Write(const float* a, const float* b, const float* c, const float* d, float* out, int64_t n,
                          int threads) {
#pragma omp parallel for num_threads(threads) schedule(static)
    for (int64_t i = 0; i < n; ++i) out[i] = a[i] * b[i] + c[i] * d[i];
}

void PlainLoop5Read1Write(const float* a, const float* b, const float* c, const float* d, const float* e, float* out,
                          int64_t n, int threads) {
#pragma omp parallel for num_threads(threads) schedule(static)
    for (int64_t i = 0; i < n; ++i) out[i] = a[i] * b[i] + c[i] * d[i] + e[i];
}

float PlainSum2Read(const float* a, const float* b, int64_t n, int threads) {
    float sum = 0;
#pragma omp parallel for simd num_threads(threads) schedule(static) reduction(+ : sum)
    for (int64_t i = 0; i < n; ++i) sum += a[i] * b[i];
    return sum;
}

double PlainColumnSum2Read(const float* a, const float* b, int64_t n, int64_t columns, int threads) {
    const int64_t rows = n / columns;
    std::vector<double> total(static_cast<size_t>(columns), 0.0);
#pragma omp parallel num_threads(threads)
    {
        std::vector<double> partial(static_cast<size_t>(columns), 0.0);
        double* sums = partial.data();
#pragma omp for schedule(static)
        for (int64_t r = 0; r < rows; ++r) {
            const float* x = a + r * columns;
            const float* y = b + r * columns;
#pragma omp simd
            for (int64_t c = 0; c < columns; ++c) sums[c] += static_cast<double>(x[c] * y[c]);
        }
#pragma omp critical
        for (int64_t c = 0; c < columns; ++c) total[static_cast<size_t>(c)] += sums[c];
    }
    return total.front() + total.back();
}

float PlainSum3Read(const float* a, const float* b, const float* c, int64_t n, int threads) {
    float sum = 0;
#pragma omp parallel for simd num_threads(threads) schedule(static) reduction(+ : sum)
    for (int64_t i = 0; i < n; ++i) sum += a[i] * b[i] * c[i];
    return sum;
}

float PlainSum4Read(const float* a, const float* b, const float* c, const float* d, int64_t n, int threads) {
    float sum = 0;
#pragma omp parallel for simd num_threads(threads) schedule(static) reduction(+ : sum)
    for (int64_t i = 0; i < n; ++i) sum += a[i] * b[i] + c[i] * d[i];
    return sum;
}

void PlainLoop2Read1Write64(const int64_t* a, const int64_t* b, int64_t* out, int64_t n, int threads) {
#pragma omp parallel for num_threads(threads) schedule(static)
    for (int64_t i = 0; i < n; ++i) out[i] = a[i] ^ b[i];
}

int64_t PlainSum2Read64(const int64_t* a, const int64_t* b, int64_t n, int threads) {
    uint64_t sum = 0;
#pragma omp parallel for simd num_threads(threads) schedule(static) reduction(+ : sum)
    for (int64_t i = 0; i < n; ++i) sum += static_cast<uint64_t>(a[i] ^ b[i]);
    return static_cast<int64_t>(sum);
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

void PlainLoop1Read1Write16(const uint16_t* a, uint16_t* out, int64_t n, int threads) {
#pragma omp parallel for num_threads(threads) schedule(static)
    for (int64_t i = 0; i < n; ++i) out[i] = static_cast<uint16_t>(a[i] ^ 1u);
}

void EagerComposite(const float* x, const float* y, const float* g, float norm, float* out, int64_t n, int threads,
                    const CompositeTemporaries& temporaries) {
    float* minus_y = temporaries.minus_y;
    float* product = temporaries.product;
    float* z = temporaries.z;
#pragma omp parallel for num_threads(threads) schedule(static)
    for (int64_t i = 0; i < n; ++i) minus_y[i] = -y[i];
#pragma omp parallel for num_threads(threads) schedule(static)
    for (int64_t i = 0; i < n; ++i) product[i] = minus_y[i] * x[i];
#pragma omp parallel num_threads(threads)
    {
        const int count = omp_get_num_threads(), index = omp_get_thread_num();
        const int64_t begin = n * index / count, end = n * (index + 1) / count;
        VectorExp(product + begin, z + begin, end - begin);
    }
    if (temporaries.release_after_exp) temporaries.release_after_exp();  // -y and -y*x die with the expression
#pragma omp parallel for num_threads(threads) schedule(static)
    for (int64_t i = 0; i < n; ++i) out[i] = y[i] * z[i];
#pragma omp parallel for num_threads(threads) schedule(static)
    for (int64_t i = 0; i < n; ++i) out[i] *= -norm;
#pragma omp parallel for num_threads(threads) schedule(static)
    for (int64_t i = 0; i < n; ++i) z[i] += 1.0f;
#pragma omp parallel for num_threads(threads) schedule(static)
    for (int64_t i = 0; i < n; ++i) out[i] /= z[i];
#pragma omp parallel for num_threads(threads) schedule(static)
    for (int64_t i = 0; i < n; ++i) out[i] *= g[i];
}

// CANN's kernel one element at a time with libm's expf, in its order (docs/contract.md section 4): every step an fp32
// operation (the build keeps each rounding: no contraction, no fast-math).
static float SoftMarginLossGradElement(float x, float y, float g, float cof) {
    const float p = x * y;
    const float e = std::exp(-p);
    const float num = (-y) * e;
    const float den = e + 1.0f;
    const float q = num / den;
    const float gs = g * cof;
    return q * gs;
}

void ScalarReferencePath(const float* x, const float* y, const float* g, float cof, float* out, int64_t n,
                         int threads) {
#pragma omp parallel for num_threads(threads) schedule(static)
    for (int64_t i = 0; i < n; ++i) out[i] = SoftMarginLossGradElement(x[i], y[i], g[i], cof);
}

}  // namespace bench
