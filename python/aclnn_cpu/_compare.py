"""CANN's community precision standard for floating-point operators, for judging an NPU output by a golden.

    relative error  r_i = |a_i - g_i| / (|g_i| + 1e-7)
    MERE = mean(r),  MARE = max(r),  pass when MERE < T and MARE < 10 T,
    T = 2^-10 (FLOAT16), 2^-7 (BFLOAT16), 2^-13 (FLOAT).

Elements where either side is NaN or infinite are not in r: they must match exactly (NaN with NaN, an
infinity with the same infinity), and any mismatch fails. The report adds the worst elements and a histogram
of the distance in units in the last place of the dtype, both values rounded to it.

The arrays are judged a tile at a time (about 4M elements converted to float64 at once), so a compare needs
little memory beyond its inputs; with ``report=DIR`` the same pass gathers what the pictures need
(``_report.py``).
"""
from dataclasses import dataclass, field

import numpy as np

from ._dtypes import ACL_BF16, ACL_FLOAT, ACL_FLOAT16, NAMES, STORAGE, Bfloat16, from_float64, parse_dtype
from ._folding import folded_shape

THRESHOLDS = {ACL_FLOAT16: 2.0 ** -10, ACL_BF16: 2.0 ** -7, ACL_FLOAT: 2.0 ** -13}
ULP_BUCKETS = ("0", "1", "2", "3-4", "5-16", "17-256", ">256")
_BUCKET_EDGES = (0, 1, 2, 4, 16, 256)
_BUCKET_EDGE_ARRAY = np.array(_BUCKET_EDGES)
_TILE_ELEMENTS = 1 << 22


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
    report_dir: str = None                           # where compare(..., report=DIR) wrote its report

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
        if self.report_dir is not None:
            lines.append(f"report: {self.report_dir}/report.html")
        lines.append("PASS" if self.passed else "FAIL")
        return "\n".join(lines)

    def __str__(self):
        return self.report()


def _source(obj):
    """(obj's values as a numpy array in their own storage, a function widening a piece of it to float64,
    the aclDataType obj carries or None). Nothing is widened here: the tiles are, one at a time."""
    if isinstance(obj, Bfloat16):
        return obj.bits, _widen_bfloat16_bits, ACL_BF16
    if not isinstance(obj, np.ndarray) and hasattr(obj, "__dlpack__"):
        if "bfloat16" in str(getattr(obj, "dtype", "")):  # numpy cannot import bfloat16: widen in torch
            return obj.float().numpy(), _widen, ACL_BF16
        obj = np.from_dlpack(obj)
    array = np.asarray(obj)
    kind = {np.dtype(np.float16): ACL_FLOAT16, np.dtype(np.float32): ACL_FLOAT}.get(array.dtype)
    return array, _widen, kind


def _widen(values):
    return values.astype(np.float64)


def _widen_bfloat16_bits(bits):
    return Bfloat16(bits).to_float32().astype(np.float64)


def _ordered(values, acl_type):
    """Integers in the order of the floats: adjacent representable values differ by 1. values: float64, or
    already acl_type's storage (float32, float16, bfloat16 bits), which is used as it is."""
    bits = values if values.dtype == STORAGE[acl_type] else from_float64(values, acl_type)
    width = {ACL_FLOAT: 32, ACL_FLOAT16: 16, ACL_BF16: 16}[acl_type]
    signed = bits.view({32: np.int32, 16: np.int16}[width]).astype(np.int64)
    return np.where(signed < 0, -(signed & ((1 << (width - 1)) - 1)), signed)


class _Worst:
    """The worst elements seen so far: the first NaN/inf mismatches by index, then the largest relative errors
    (ties: the lower index first), as one sort of the whole array would order them."""

    def __init__(self, count):
        self.count = count
        self.mismatched = np.empty(0, np.int64)
        self.errors = np.empty(0)
        self.error_indices = np.empty(0, np.int64)

    def add(self, flat_mismatched, relative, to_flat):
        """flat_mismatched: a tile's mismatches (flat indices, ascending) or None; relative: its finite
        elements' errors in flat order; to_flat maps positions in relative to flat indices."""
        k = self.count
        if k <= 0:
            return
        if flat_mismatched is not None and self.mismatched.size < k:
            self.mismatched = np.sort(np.concatenate([self.mismatched, flat_mismatched[:k]]))[:k]
        if relative.size > k:
            kth = np.partition(relative, relative.size - k)[relative.size - k]  # the k-th largest
            above = np.flatnonzero(relative > kth)
            ties = np.flatnonzero(relative == kth)[:k - above.size]
            keep = np.concatenate([above, ties])
        else:
            keep = np.arange(relative.size)
        errors = np.concatenate([self.errors, relative[keep]])
        indices = np.concatenate([self.error_indices, to_flat(keep)])
        order = np.lexsort((indices, -errors))[:k]
        self.errors, self.error_indices = errors[order], indices[order]

    def entries(self):
        """(flat index, relative error) worst first; a NaN/inf mismatch's error is infinite."""
        mismatched = [(int(i), float("inf")) for i in self.mismatched]
        ranked = [(int(i), float(e)) for i, e in zip(self.error_indices, self.errors)]
        return (mismatched + ranked)[:self.count]


def _tiles(rows, cols, block_rows, block_cols):
    """(row slice, column slice) tiles of about _TILE_ELEMENTS covering rows x cols, each made of whole
    block_rows x block_cols blocks (the last ones may be cut short by the array's edge)."""
    if block_cols * block_rows >= _TILE_ELEMENTS or cols * block_rows > _TILE_ELEMENTS:
        tile_cols = max(block_cols, (_TILE_ELEMENTS // block_rows) // block_cols * block_cols)
    else:
        tile_cols = cols
    tile_rows = max(block_rows, (_TILE_ELEMENTS // max(tile_cols, 1)) // block_rows * block_rows)
    for r0 in range(0, rows, tile_rows):
        for c0 in range(0, cols, tile_cols):
            yield slice(r0, min(r0 + tile_rows, rows)), slice(c0, min(c0 + tile_cols, cols))


def compare(actual, golden, dtype=None, worst_count=5, report=None):
    """Judges actual against golden by CANN's standard; dtype defaults to actual's (float16, bfloat16, float32).

    With report=DIR, also writes DIR/report.html with pictures of where the errors are (error_map.png,
    error_histogram.png, error_vs_magnitude.png; needs matplotlib, Debian's python3-matplotlib)."""
    a_values, a_widen, actual_type = _source(actual)
    g_values, g_widen, _ = _source(golden)
    if a_values.shape != g_values.shape:
        raise ValueError(f"actual has shape {a_values.shape} but golden has shape {g_values.shape}")
    acl_type = parse_dtype(dtype) if dtype is not None else actual_type
    if acl_type is None:
        raise ValueError("cannot tell the dtype to judge by from actual; pass dtype='float16', 'bfloat16' or "
                         "'float32'")
    threshold = THRESHOLDS[acl_type]
    shape = a_values.shape
    rows, cols = folded_shape(shape)
    a2d, g2d = a_values.reshape(rows, cols), g_values.reshape(rows, cols)
    drawing = None
    if report is not None:
        from ._report import ReportData  # imports matplotlib: fails here, before any work, when it is missing
        drawing = ReportData(shape, acl_type, threshold)
    block_rows, block_cols = drawing.block if drawing is not None else (1, 1)

    count_finite = 0
    mismatches = matching = 0
    sum_relative, max_relative = 0.0, 0.0
    ulp_counts = np.zeros(len(ULP_BUCKETS), np.int64)
    worst = _Worst(worst_count)
    for row_slice, col_slice in _tiles(rows, cols, block_rows, block_cols):
        a_native, g_native = a2d[row_slice, col_slice], g2d[row_slice, col_slice]
        a, g = a_widen(a_native), g_widen(g_native)
        # The ulp distance reads the stored bits when they are already of the judged dtype (the usual case).
        a_bits = a_native if a_native.dtype == STORAGE[acl_type] else a
        g_bits = g_native if g_native.dtype == STORAGE[acl_type] else g
        finite = np.isfinite(a) & np.isfinite(g)
        with np.errstate(invalid="ignore", over="ignore"):
            relative = np.abs(a - g) / (np.abs(g) + 1e-7)
        if finite.all():  # the usual case: no NaN or infinity, every element is judged by r
            mismatched = None
            finite_positions = None
            finite_relative, finite_g = relative.ravel(), g.ravel()
            finite_a_bits, finite_g_bits = a_bits.ravel(), g_bits.ravel()
        else:
            same_special = (np.isnan(a) & np.isnan(g)) | (np.isinf(a) & (a == g))
            mismatched = ~finite & ~same_special
            mismatches += int(np.count_nonzero(mismatched))
            matching += int(np.count_nonzero(same_special))
            relative[~finite] = 0.0  # NaN/inf elements are judged by matching alone
            finite_positions = np.flatnonzero(finite)
            finite_relative = relative.ravel()[finite_positions]
            finite_g = g.ravel()[finite_positions]
            finite_a_bits, finite_g_bits = a_bits.ravel()[finite_positions], g_bits.ravel()[finite_positions]
        ulp = np.abs(_ordered(finite_a_bits, acl_type) - _ordered(finite_g_bits, acl_type))
        count_finite += finite_relative.size
        sum_relative += float(finite_relative.sum())
        if finite_relative.size:
            max_relative = max(max_relative, float(finite_relative.max()))
        ulp_counts += np.bincount(np.searchsorted(_BUCKET_EDGE_ARRAY, ulp, side="left"), minlength=len(ULP_BUCKETS))
        tile_cols = col_slice.stop - col_slice.start

        def flat(positions, row_start=row_slice.start, col_start=col_slice.start, width=tile_cols):
            """Tile positions (row-major in the tile) -> flat indices of the whole array."""
            return (row_start + positions // width) * cols + col_start + positions % width

        worst.add(flat(np.flatnonzero(mismatched)) if mismatched is not None else None, finite_relative,
                  lambda kept: flat(kept if finite_positions is None else finite_positions[kept]))
        if drawing is not None:
            drawing.add_tile(row_slice, col_slice, relative, mismatched, finite_relative, finite_g, ulp)

    mere = sum_relative / count_finite if count_finite else 0.0
    histogram = {name: int(ulp_counts[i]) for i, name in enumerate(ULP_BUCKETS)}
    worst_rows = []
    for flat_index, relative_error in worst.entries():
        r, c = divmod(flat_index, cols)
        a_value, g_value = float(a_widen(a2d[r:r + 1, c])[0]), float(g_widen(g2d[r:r + 1, c])[0])
        index = tuple(int(i) for i in np.unravel_index(flat_index, shape)) if shape else ()
        ulp = None
        if np.isfinite(relative_error):
            ordered = _ordered(np.array([a_value, g_value]), acl_type)
            ulp = int(abs(ordered[0] - ordered[1]))
        worst_rows.append((index, a_value, g_value, relative_error, ulp))
    passed = mismatches == 0 and mere < threshold and max_relative < 10 * threshold
    result = CompareResult(passed, NAMES[acl_type], int(rows * cols), mere, max_relative, threshold, mismatches,
                           matching, worst_rows, histogram)
    if drawing is not None:
        result.report_dir = str(report)
        drawing.write(report, result)
    return result
