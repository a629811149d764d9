#!/usr/bin/env python3
"""Fits the two coefficient tables of kernels/vector_softplus-inl.h and prints kernels/softplus_table.h.

softplus(-a) = log1p(exp(-a)) for a >= 0 is evaluated in one of two ways:

Near table, for a < 15.75 (where almost every loss lives; the fast path):
    j = round(2a), r = a - j/2, |r| <= 1/4
    f = Q_j(r)
where Q_j (j = 0..31) is a degree-5 polynomial approximating log1p(exp(-(j/2 + r))) directly.

Far table, for every a (used where a >= 15.75, and for NaN):
    a = k ln2 + r, |r| <= ln2/2,  k = round(a / ln2)
    E = 2^-k P_row(r),  row = min(k, 15)
    f = E - w E^2,      w = 1/2 on row 15, else 0
where P_k(r) approximates h_k(r) = 2^k log1p(2^-k exp(-r)) for k = 0..14 and P_15(r) approximates exp(-r)
(for k >= 15, log1p(e) = e - e^2/2 + e^3/3 - ..., and e^3/3 is below 2^-30 of e), each of degree 6.

Every polynomial is fitted for the smallest error -- relative for the far table, whose values are scaled by
2^-k afterwards, in fp32 ulps for the near table, whose values are used as they are (Lawson's iteratively reweighted least squares on
Chebyshev nodes, float64), its coefficients rounded to fp32 one at a time from the constant term up, the
later ones refitted after each rounding so that they absorb the earlier rounding errors.
Needs numpy. Usage: scripts/fit_softplus_table.py [--check] > src/kernels/softplus_table.h
(--check also prints the fitted error per row on stderr)
"""
import sys

import numpy as np

from minimax_fit import lawson_fit

LN2 = np.log(2.0)


class Table:
    def __init__(self, name, rows, degree, half, first_low, in_ulps, target):
        self.name, self.rows, self.degree = name, rows, degree
        self.in_ulps = in_ulps  # minimise the error in fp32 ulps of the value rather than relative to it
        self.half = half  # the reduction's |r| bound, with room for its rounding
        self.first_low = first_low  # row 0 only sees r >= 0 (a >= 0)
        self.target = target


FAR = Table("kSoftplusFarTable", 16, 6, LN2 / 2 * 1.0005, -1e-3, False,
            lambda row, r: np.exp(-r) if row == 15 else np.ldexp(np.log1p(np.ldexp(np.exp(-r), -row)), row))
NEAR = Table("kSoftplusNearTable", 32, 5, 0.25 * 1.0001, -1e-9, True,
             lambda row, r: np.log1p(np.exp(-(row * 0.5 + r))))


def fit(table, row, fixed):
    """Coefficients c[len(fixed)..degree] with c[0..len(fixed)) fixed, minimising the max relative error."""
    low = table.first_low if row == 0 else -table.half
    x = (np.cos(np.pi * (np.arange(4000) + 0.5) / 4000)[::-1] + 1) / 2 * (table.half - low) + low
    y = table.target(row, x)
    powers = np.vstack([x ** j for j in range(table.degree + 1)]).T
    rest = y - powers[:, :len(fixed)] @ np.array(fixed, dtype=np.float64) if fixed else y.copy()
    # A row's values span a factor e^(1/2), often across a power of two; below it an ulp is half as large, so
    # the near table weighs the error by the ulp of each value (its results are used as they are, unscaled).
    scale = np.spacing(np.abs(y).astype(np.float32)).astype(np.float64) if table.in_ulps else y
    a = powers[:, len(fixed):] / scale[:, None]
    b = rest / scale
    c = lawson_fit(a, b, 200)
    return list(fixed) + list(c), x, y


def rounded_fit(table, row):
    fixed = []
    for j in range(table.degree + 1):
        coefficients, x, y = fit(table, row, fixed)
        fixed.append(float(np.float32(coefficients[j])))
    p = sum(fixed[j] * x ** j for j in range(table.degree + 1))
    if table.in_ulps:
        return fixed, np.max(np.abs(p - y) / np.spacing(np.abs(y).astype(np.float32)).astype(np.float64))
    return fixed, np.max(np.abs(p / y - 1)) / 2.0 ** -24


def fitted(table, check):
    rows, worst = [], 0.0
    for row in range(table.rows):
        coefficients, error = rounded_fit(table, row)
        rows.append(coefficients)
        worst = max(worst, error)
        if check:
            unit = "ulp" if table.in_ulps else "x 2^-24 relative"
            print(f"{table.name} row {row:2d}: max error {error:.4f} {unit}", file=sys.stderr)
    return rows, worst


def print_table(table, rows):
    print(f"alignas(64) inline constexpr float {table.name}[{table.degree + 1}][{table.rows}] = {{")
    for j in range(table.degree + 1):
        # The shortest decimal that reads back as the same fp32 value.
        values = [np.float32(rows[row][j]) for row in range(table.rows)]
        values = [f"{np.format_float_positional(v, unique=True, trim='0')}f" if 1e-3 <= abs(v) < 1e3 or v == 0
                  else f"{np.format_float_scientific(v, unique=True, trim='0')}f" for v in values]
        print(f"    {{  // c{j}")
        for start in range(0, table.rows, 6):
            print("        " + ", ".join(values[start:start + 6]) + ",")
        print("    },")
    print("};")


def main():
    check = "--check" in sys.argv[1:]
    near, near_error = fitted(NEAR, check)
    far, far_error = fitted(FAR, check)
    print(f"""\
// The coefficient tables of kernels/vector_softplus-inl.h, generated by scripts/fit_softplus_table.py (which
// says how they were fitted; rerun it instead of editing these numbers). Column `row` of coefficient j holds
// c_j of the row's polynomial c0 + c1 r + c2 r^2 + ...:
//   near table, rows j = 0..31: ~ log1p(exp(-(j/2 + r))), |r| <= 1/4, degree 5, error at most
//     {near_error:.2f} ulp of the fp32 value with the coefficients in fp32 (before the evaluation's roundings);
//   far table, rows k = 0..14: ~ 2^k log1p(2^-k exp(-r)), |r| <= ln2/2, degree 6, relative error at most
//     {far_error:.2f} x 2^-24; row 15: ~ exp(-r), for every k >= 15.
// Plain data, one copy for every SIMD target; 64-byte aligned so that 16 entries of a column are one AVX-512
// load.
#pragma once

namespace aclnn_cpu::kernels {{

constexpr int kSoftplusNearRows = {NEAR.rows};
constexpr int kSoftplusNearDegree = {NEAR.degree};
constexpr float kSoftplusNearLimit = {NEAR.rows / 2 - 0.25}f;  // the near table serves a < this
constexpr int kSoftplusFarRows = {FAR.rows};
constexpr int kSoftplusFarDegree = {FAR.degree};
""")
    print_table(NEAR, near)
    print()
    print_table(FAR, far)
    print("""
}  // namespace aclnn_cpu::kernels""")


if __name__ == "__main__":
    main()
