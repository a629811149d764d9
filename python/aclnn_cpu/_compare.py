"""CANN's community precision standard for floating-point operators, for judging an NPU output by a golden.

    relative error  r_i = |a_i - g_i| / (|g_i| + 1e-7)
    MERE = mean(r),  MARE = max(r),  pass when MERE < T and MARE < 10 T,
    T = 2^-10 (FLOAT16), 2^-7 (BFLOAT16), 2^-13 (FLOAT).

Elements where either side is NaN or infinite are not in r: they must match exactly (NaN with NaN, an
infinity with the same infinity), and any mismatch fails. The report adds the worst elements and a histogram
of the distance in units in the last place of the dtype, both values rounded to it.
"""
from dataclasses import dataclass, field

import numpy as np

from ._dtypes import ACL_BF16, ACL_FLOAT, ACL_FLOAT16, NAMES, Bfloat16, from_float64, parse_dtype

THRESHOLDS = {ACL_FLOAT16: 2.0 ** -10, ACL_BF16: 2.0 ** -7, ACL_FLOAT: 2.0 ** -13}
ULP_BUCKETS = ("0", "1", "2", "3-4", "5-16", "17-256", ">256")
_BUCKET_EDGES = (0, 1, 2, 4, 16, 256)


@dataclass
class CompareResult:
    passed: bool
    dtype: str
    count: int
    mere: float
    mare: float
    threshold: float
    nan_inf_mismatches: int
    nan_inf_matching: int = 0                         # elements NaN or infinite on both sides, alike
    worst: list = field(default_factory=list)        # (index, actual, golden, relative error, ulp), worst first
    ulp_histogram: dict = field(default_factory=dict)  # bucket name -> element count (finite elements)

    def report(self):
        t = self.threshold
        lines = [f"dtype {self.dtype}, {self.count} elements, threshold T = {t:.6g}",
                 f"MERE {self.mere:.6g} (limit T = {t:.6g}) {'ok' if self.mere < t else 'FAIL'}",
                 f"MARE {self.mare:.6g} (limit 10T = {10 * t:.6g}) {'ok' if self.mare < 10 * t else 'FAIL'}",
                 f"NaN/inf mismatches {self.nan_inf_mismatches} ({self.nan_inf_matching} NaN/inf elements match) "
                 f"{'ok' if self.nan_inf_mismatches == 0 else 'FAIL'}",
                 "ulp histogram: " + ", ".join(f"{k}: {v}" for k, v in self.ulp_histogram.items())]
        if self.worst:
            lines.append("worst elements (index, actual, golden, relative error, ulp):")
            lines += [f"  {index} {a!r} {g!r} {r:.3g} {u}" for index, a, g, r, u in self.worst]
        lines.append("PASS" if self.passed else "FAIL")
        return "\n".join(lines)

    def __str__(self):
        return self.report()


def _values(obj):
    """(float64 values, aclDataType or None) of a numpy array, a Bfloat16 or a DLPack tensor."""
    if isinstance(obj, Bfloat16):
        return obj.to_float32().astype(np.float64), ACL_BF16
    if not isinstance(obj, np.ndarray) and hasattr(obj, "__dlpack__"):
        if "bfloat16" in str(getattr(obj, "dtype", "")):  # numpy cannot import bfloat16: widen in torch
            return obj.float().numpy().astype(np.float64), ACL_BF16
        obj = np.from_dlpack(obj)
    array = np.asarray(obj)
    kind = {np.dtype(np.float16): ACL_FLOAT16, np.dtype(np.float32): ACL_FLOAT}.get(array.dtype)
    return array.astype(np.float64), kind


def _ordered(values, acl_type):
    """Integers in the order of the floats: adjacent representable values differ by 1."""
    bits = from_float64(values, acl_type)
    width = {ACL_FLOAT: 32, ACL_FLOAT16: 16, ACL_BF16: 16}[acl_type]
    signed = bits.view({32: np.int32, 16: np.int16}[width]).astype(np.int64)
    return np.where(signed < 0, -(signed & ((1 << (width - 1)) - 1)), signed)


def compare(actual, golden, dtype=None, worst_count=5):
    """Judges actual against golden by CANN's standard; dtype defaults to actual's (float16, bfloat16, float32)."""
    a, actual_type = _values(actual)
    g, _ = _values(golden)
    if a.shape != g.shape:
        raise ValueError(f"actual has shape {a.shape} but golden has shape {g.shape}")
    acl_type = parse_dtype(dtype) if dtype is not None else actual_type
    if acl_type is None:
        raise ValueError("cannot tell the dtype to judge by from actual; pass dtype='float16', 'bfloat16' or "
                         "'float32'")
    shape = a.shape
    a, g = a.ravel(), g.ravel()
    finite = np.isfinite(a) & np.isfinite(g)
    same_special = (np.isnan(a) & np.isnan(g)) | (np.isinf(a) & (a == g))
    mismatched = ~finite & ~same_special
    mismatches = int(np.count_nonzero(mismatched))
    # Relative error and ulp distance per element; NaN/inf elements count as infinitely wrong, never read
    # unless mismatched.
    relative = np.full(a.shape, np.inf)
    relative[finite] = np.abs(a[finite] - g[finite]) / (np.abs(g[finite]) + 1e-7)
    ulp = np.zeros(a.shape, dtype=np.int64)
    ulp[finite] = np.abs(_ordered(a[finite], acl_type) - _ordered(g[finite], acl_type))
    mere = float(relative[finite].mean()) if finite.any() else 0.0
    mare = float(relative[finite].max()) if finite.any() else 0.0
    threshold = THRESHOLDS[acl_type]
    buckets = np.searchsorted(np.array(_BUCKET_EDGES), ulp[finite], side="left")
    histogram = {name: int(np.count_nonzero(buckets == i)) for i, name in enumerate(ULP_BUCKETS)}
    # Worst first: the NaN/inf mismatches, then the largest relative errors.
    by_error = np.flatnonzero(finite)[np.argsort(-relative[finite], kind="stable")]
    flagged = np.concatenate([np.flatnonzero(mismatched)[:worst_count], by_error[:worst_count]])[:worst_count]
    worst = []
    for flat in flagged.tolist():
        index = tuple(int(i) for i in np.unravel_index(flat, shape)) if shape else ()
        worst.append((index, float(a[flat]), float(g[flat]), float(relative[flat]),
                      int(ulp[flat]) if finite[flat] else None))
    passed = mismatches == 0 and mere < threshold and mare < 10 * threshold
    return CompareResult(passed, NAMES[acl_type], int(a.size), mere, mare, threshold, mismatches,
                         int(np.count_nonzero(same_special)), worst, histogram)
