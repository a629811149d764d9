// The benchmark's yardsticks, measured in the same run as the operator:
// - plain loops with the operators' memory traffic (2 to 5 reads + 1 write, or a 2- to 4-read sum), the
//   bandwidth to reach;
// - PyTorch's composite evaluation: one pass over memory per arithmetic step, with temporaries;
// - a scalar reference kernel (CANN's formula one element at a time with libm's expf) over the same data.
#pragma once

#include <cstdint>
#include <functional>

namespace bench {

// out[i] = a[i] * b[i] + c[i] over n floats (3 reads + 1 write), on `threads` OpenMP threads.
void PlainLoop3Read1Write(const float* a, const float* b, const float* c, float* out, int64_t n, int threads);
// out[i] = a[i] * b[i] over n floats (2 reads + 1 write).
void PlainLoop1Read1Write(const float* a, float* out, int64_t n, int threads);  // a function of one input
void PlainLoop2Read1Write(const float* a, const float* b, float* out, int64_t n, int threads);
// out[i] = a[i] * b[i] + c[i] * d[i] (4 reads + 1 write), and + e[i] (5 reads + 1 write): the traffic of the
// operators with optional weights.
void PlainLoop4Read1Write(const float* a, const float* b, const float* c, const float* d, float* out, int64_t n,
                          int threads);
void PlainLoop5Read1Write(const float* a, const float* b, const float* c, const float* d, const float* e, float* out,
                          int64_t n, int threads);
// sum of a[i] * b[i] over n floats (2 reads), vectorised (omp simd) and on `threads` threads.
float PlainSum2Read(const float* a, const float* b, int64_t n, int threads);
// The sum over the first dim of [n / columns, columns] arrays with a column sum's traffic: each product widened
// and added to its column's float64 sum (one row of sums per thread in L1, added at the end).
double PlainColumnSum2Read(const float* a, const float* b, int64_t n, int64_t columns, int threads);
// The same with 3 and 4 reads (a * b * c, a * b + c * d): the traffic of a loss's mean with its weights.
float PlainSum3Read(const float* a, const float* b, const float* c, int64_t n, int threads);
float PlainSum4Read(const float* a, const float* b, const float* c, const float* d, int64_t n, int threads);
// The same traffic for 16-bit elements: out[i] = a[i] ^ b[i] ^ c[i], and out[i] = a[i] ^ b[i].
void PlainLoop3Read1Write16(const uint16_t* a, const uint16_t* b, const uint16_t* c, uint16_t* out, int64_t n,
                            int threads);
void PlainLoop2Read1Write16(const uint16_t* a, const uint16_t* b, uint16_t* out, int64_t n, int threads);
void PlainLoop1Read1Write16(const uint16_t* a, uint16_t* out, int64_t n, int threads);  // out[i] = a[i] ^ 1
// And for int64 elements: out[i] = a[i] ^ b[i], and the sum of a[i] ^ b[i] (wrapping).
void PlainLoop2Read1Write64(const int64_t* a, const int64_t* b, int64_t* out, int64_t n, int threads);
int64_t PlainSum2Read64(const int64_t* a, const int64_t* b, int64_t n, int threads);

// soft_margin_loss_backward the way PyTorch's CPU soft_margin_loss_backward_out evaluates it
// (aten/src/ATen/native/Loss.cpp): z = exp((-y) * x); out = y * z; out *= -norm; z += 1; out /= z;
// out *= g -- eight passes over memory, each parallel on `threads` threads, the exp pass vectorised.
// The three temporaries (-y, -y*x, z) are the caller's; release_after_exp, when set, is called where PyTorch
// frees -y and -y*x (the end of the full expression).
struct CompositeTemporaries {
    float* minus_y;
    float* product;
    float* z;
    std::function<void()> release_after_exp;
};
void EagerComposite(const float* x, const float* y, const float* g, float norm, float* out, int64_t n, int threads,
                    const CompositeTemporaries& temporaries);

// exp over n floats with Highway's vector Exp, dispatched to the best SIMD target (bench/composite_exp.cpp).
void VectorExp(const float* in, float* out, int64_t n);

// The scalar reference kernel over contiguous fp32 data.
void ScalarReferencePath(const float* x, const float* y, const float* g, float cof, float* out, int64_t n,
                         int threads);

}  // namespace bench
