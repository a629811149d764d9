#!/usr/bin/env python3
"""Fits the table of kernels/vector_log-inl.h and prints kernels/log_table.h.

log(x) for a normal positive x is evaluated as
    b = bits(x) - OFFSET,  k = b >> 23 (arithmetic),  j = (b >> 19) mod 16,  z = x / 2^k  in [0.703125, 1.40625)
    r = z / c_j - 1 = z i_j - 1                    (i_j = 1 / c_j exactly: the product is exact inside an FMA)
    log(x) = k ln2 + L_j + log1p(r),  log1p(r) = r + r^2 (A1 + A2 r + A3 r^2 + A4 r^3)
OFFSET = bits(0.703125) puts 1.0 in the middle of row 9: rows 0..8 cover [0.703125, 0.984375) in steps of
1/32, row 9 covers [0.984375, 1.03125) and rows 10..15 cover [1.03125, 1.40625) in steps of 1/16.

Each row j holds i_j, an fp32 value near 1 / (the row's centre), and L_j = -log(i_j) rounded to fp32. Row 9 has
i = 1 and L = 0: there r = z - 1 exactly and log(x) = log1p(r), accurate relative to itself where it is small.
Elsewhere i_j is chosen among the fp32 values within 2^12 ulp of 1 / centre for the one whose log is nearest to
an fp32 value (Gal's accurate tables), so that L_j is off by a small fraction of an ulp. For targets without
FMA the row also holds c_j = 1 / i_j rounded and e_j = c_j i_j - 1 rounded (|e| < 2^-24): there
r = (z - c_j) i_j + e_j, with z - c_j exact.

One polynomial serves every row: P(r) = (log1p(r) - r) / r^2 over the union of the rows' r ranges, fitted for
the smallest error relative to log1p(r) (Lawson's iteratively reweighted least squares on Chebyshev nodes,
float64), its coefficients rounded to fp32 one at a time from A1 up, the later ones refitted after each rounding
so that they absorb the earlier rounding errors.
Needs numpy. Usage: scripts/fit_log_table.py [--check] > src/kernels/log_table.h
(--check also prints each row's r range and the fitted error on stderr)
"""
import sys

import numpy as np

from minimax_fit import lawson_fit

ROWS = 16
DEGREE = 3  # of P, in r: the coefficients A1..A4
OFFSET = 0x3F340000  # bits of 0.703125
ROW_SHIFT = 19
ONE_ROW = 9  # the row holding 1.0
GAL_SEARCH = 1 << 12


def f32_from_bits(bits):
    return float(np.array([bits], dtype=np.uint32).view(np.float32)[0])


def bits_of(value):
    return int(np.array([value], dtype=np.float32).view(np.uint32)[0])


def representation_error(value):
    """|value - fp32(value)| in ulps of fp32(value)."""
    rounded = np.float32(value)
    return abs(value - float(rounded)) / float(np.spacing(np.abs(rounded)))


def row_inverse(row):
    """The row's i_j (1 for the row of 1.0, else the Gal search around 1 / centre) and the row's z range."""
    low = f32_from_bits(OFFSET + (row << ROW_SHIFT))
    high = f32_from_bits(OFFSET + ((row + 1) << ROW_SHIFT))
    if row == ONE_ROW:
        return 1.0, low, high
    centre_bits = bits_of(2.0 / (low + high))
    best, best_error = None, None
    for m in range(-GAL_SEARCH, GAL_SEARCH + 1):
        candidate = f32_from_bits(centre_bits + m)
        error = representation_error(-np.log(candidate))
        if best is None or error < best_error:
            best, best_error = candidate, error
    return best, low, high


def table_row(row):
    inverse, low, high = row_inverse(row)
    point = float(np.float32(1.0 / inverse))
    point_error = float(np.float32(point * inverse - 1.0))  # the product is exact in float64
    log_of_point = float(np.float32(0.0 - np.log(inverse)))  # +0 for row 9
    return {
        "inverse": inverse, "log": log_of_point, "point": point, "point_error": point_error,
        "log_error": representation_error(-np.log(inverse)),
        "r": (low * inverse - 1.0, high * inverse - 1.0),
    }


def fit_polynomial(r_low, r_high):
    nodes = (np.cos(np.pi * (np.arange(6000) + 0.5) / 6000)[::-1] + 1) / 2 * (r_high - r_low) + r_low
    nodes = nodes[np.abs(nodes) > 1e-6]
    exact = np.log1p(nodes)
    target = (exact - nodes) / nodes ** 2
    powers = np.vstack([nodes ** j for j in range(DEGREE + 1)]).T
    # The error of r + r^2 P relative to log1p(r): (r^2 / log1p(r)) times P's absolute error.
    scale = nodes ** 2 / exact
    fixed = []
    for j in range(DEGREE + 1):
        rest = target - (powers[:, :j] @ np.array(fixed) if fixed else 0.0)
        coefficients = lawson_fit(powers[:, j:] * scale[:, None], rest * scale, 100)
        fixed.append(float(np.float32(coefficients[0])))
    fitted = nodes + nodes ** 2 * (powers @ np.array(fixed))
    return fixed, float(np.max(np.abs(fitted - exact) / np.abs(exact)))


def fmt(value):
    text = repr(float(np.float32(value)))
    if "e" in text:
        mantissa, exponent = text.split("e")
        text = f"{mantissa}e{int(exponent):+03d}"
    return text + "f"


def main():
    check = "--check" in sys.argv[1:]
    rows = [table_row(row) for row in range(ROWS)]
    r_low = min(row["r"][0] for row in rows)
    r_high = max(row["r"][1] for row in rows)
    polynomial, relative = fit_polynomial(r_low, r_high)
    worst_log = max(row["log_error"] for row in rows)
    if check:
        for j, row in enumerate(rows):
            print(f"row {j:2d}: i = {row['inverse']!r:<22} r in [{row['r'][0]:+.5f}, {row['r'][1]:+.5f}]  "
                  f"L off by {row['log_error']:.2e} ulp, e = {row['point_error']:.2e}", file=sys.stderr)
        print(f"r in [{r_low:+.6f}, {r_high:+.6f}]: log1p's relative error {relative:.2e} "
              f"({relative * 2**24:.4f} x 2^-24)", file=sys.stderr)
    out = []
    out.append("// The table of kernels/vector_log-inl.h, generated by scripts/fit_log_table.py (which says how it")
    out.append("// was fitted; rerun it instead of editing these numbers). Row j (of 16, by the top four bits of the")
    out.append("// reduced argument z in [0.703125, 1.40625)) holds i_j, about the inverse of the row's centre, and")
    out.append("// L_j = -log(i_j) rounded (within {:.4f} ulp); then".format(worst_log))
    out.append("//   log(x) = k ln2 + L_j + log1p(r),  r = z i_j - 1,  log1p(r) = r + r^2 (A1 + A2 r + A3 r^2 + A4 r^3),")
    out.append(f"// r in [{r_low:.5f}, {r_high:.5f}], where the polynomial is within {relative * 2**24:.4f} x 2^-24 of")
    out.append("// log1p(r) (relative, with its coefficients in fp32). Targets without FMA also read c_j = 1 / i_j and")
    out.append("// e_j = c_j i_j - 1, both rounded. Plain data, one copy for every SIMD target; 64-byte aligned so that a")
    out.append("// column is one AVX-512 load.")
    out.append("#pragma once")
    out.append("")
    out.append("#include <cstdint>")
    out.append("")
    out.append("namespace aclnn_cpu::kernels {")
    out.append("")
    out.append(f"constexpr int kLogRows = {ROWS};")
    out.append(f"constexpr uint32_t kLogOffsetBits = 0x{OFFSET:08X}u;  // bits of 0.703125: 1.0 in the middle of row {ONE_ROW}")
    out.append(f"constexpr int kLogRowShift = {ROW_SHIFT};")
    out.append("")

    def column(name, values):
        out.append(f"alignas(64) inline constexpr float {name}[{ROWS}] = {{")
        current = "    "
        for piece in (fmt(v) + "," for v in values):
            if len(current) + len(piece) + 1 > 114:
                out.append(current.rstrip())
                current = "    "
            current += piece + " "
        out.append(current.rstrip())
        out.append("};")

    column("kLogRowInverse", [row["inverse"] for row in rows])
    column("kLogRowLog", [row["log"] for row in rows])
    column("kLogRowPoint", [row["point"] for row in rows])
    column("kLogRowPointError", [row["point_error"] for row in rows])
    out.append("")
    out.append("// A1..A4.")
    out.append("inline constexpr float kLog1pPolynomial[{}] = {{{}}};".format(
        DEGREE + 1, ", ".join(fmt(a) for a in polynomial)))
    out.append("")
    out.append("}  // namespace aclnn_cpu::kernels")
    print("\n".join(out))


if __name__ == "__main__":
    main()
