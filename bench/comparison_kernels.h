// The benchmark's yardsticks, measured in the same run as the operator:
// - plain loops with the operator's memory traffic (3 reads + 1 write, or 2 + 1), the bandwidth to reach;
// - a PyTorch-style composite evaluation: one pass over memory per arithmetic step, with temporaries;
// - the library's scalar reference kernel over the same contiguous data.
#pragma once

#include <cstdint>

namespace bench {

// out[i] = a[i] * b[i] + c[i] over n floats (3 reads + 1 write), on `threads` OpenMP threads.
void PlainLoop3Read1Write(const float* a, const float* b, const float* c, float* out, int64_t n, int threads);
// out[i] = a[i] * b[i] over n floats (2 reads + 1 write).
void PlainLoop2Read1Write(const float* a, const float* b, float* out, int64_t n, int threads);
// The same traffic for 16-bit elements: out[i] = a[i] ^ b[i] ^ c[i], and out[i] = a[i] ^ b[i].
void PlainLoop3Read1Write16(const uint16_t* a, const uint16_t* b, const uint16_t* c, uint16_t* out, int64_t n,
                            int threads);
void PlainLoop2Read1Write16(const uint16_t* a, const uint16_t* b, uint16_t* out, int64_t n, int threads);

// soft_margin_loss_backward the way an eager framework evaluates it: p = x*y; t = -p; e = exp(t);
// num = -y*e; den = e + 1; q = num/den; gs = g*cof; out = q*gs -- each step a separate pass over n floats,
// using `scratch` (5 * n floats) for the temporaries.
void CompositeMultiPass(const float* x, const float* y, const float* g, float cof, float* out, float* scratch,
                        int64_t n, int threads);

// The library's scalar reference kernel over contiguous fp32 data.
void ScalarReferencePath(const float* x, const float* y, const float* g, float cof, float* out, int64_t n,
                         int threads);

}  // namespace bench
