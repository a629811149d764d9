#!/usr/bin/env python3
"""Fits the coefficient table of kernels/vector_softplus-inl.h and prints it as C++.

softplus(-a) = log1p(exp(-a)) for a >= 0 is evaluated as
    a = k ln2 + r, |r| <= ln2/2,  k = round(a / ln2)
    E = 2^-k P_row(r),  row = min(k, 15)
    f = E - w E^2,      w = 1/2 on row 15, else 0
where P_k(r) approximates h_k(r) = 2^k log1p(2^-k exp(-r)) for k = 0..14 and P_15(r) approximates exp(-r)
(for k >= 15, log1p(e) = e - e^2/2 + e^3/3 - ..., and e^3/3 is below 2^-30 of e).
Each P is a degree-6 polynomial, fitted for the smallest relative error (Lawson's iteratively reweighted
least squares on Chebyshev nodes, float64), its coefficients rounded to fp32 one at a time from the constant
term up, the later ones refitted after each rounding so that they absorb the earlier rounding errors.
Needs numpy. Usage: scripts/fit_softplus_table.py [--check]  (--check also prints the fitted error per row)
"""
import sys

import numpy as np

DEGREE = 6
ROWS = 16
LN2 = np.log(2.0)
HALF = LN2 / 2 * 1.0005  # the reduction's |r| bound, with room for its rounding


def target(row, r):
    if row == ROWS - 1:
        return np.exp(-r)
    return np.ldexp(np.log1p(np.ldexp(np.exp(-r), -row)), row)


def fit(row, fixed):
    """Coefficients c[len(fixed)..DEGREE] with c[0..len(fixed)) fixed, minimising the max relative error."""
    low = -1e-3 if row == 0 else -HALF  # a >= 0: row 0 only sees r >= 0
    x = (np.cos(np.pi * (np.arange(4000) + 0.5) / 4000)[::-1] + 1) / 2 * (HALF - low) + low
    y = target(row, x)
    powers = np.vstack([x ** j for j in range(DEGREE + 1)]).T
    rest = y - powers[:, :len(fixed)] @ np.array(fixed, dtype=np.float64) if fixed else y.copy()
    a = powers[:, len(fixed):] / y[:, None]
    b = rest / y
    weights = np.ones_like(x)
    for _ in range(200):
        sw = np.sqrt(weights)
        c, *_ = np.linalg.lstsq(a * sw[:, None], b * sw, rcond=None)
        error = np.abs(a @ c - b)
        weights *= error / error.max() + 1e-30
        weights /= weights.sum()
    return list(fixed) + list(c), x, y


def rounded_fit(row):
    fixed = []
    for j in range(DEGREE + 1):
        coefficients, x, y = fit(row, fixed)
        fixed.append(float(np.float32(coefficients[j])))
    p = sum(fixed[j] * x ** j for j in range(DEGREE + 1))
    return fixed, np.max(np.abs(p / y - 1)) / 2.0 ** -24


def main():
    check = "--check" in sys.argv[1:]
    table = []
    for row in range(ROWS):
        coefficients, error = rounded_fit(row)
        table.append(coefficients)
        if check:
            print(f"row {row:2d}: max relative error {error:.4f} x 2^-24", file=sys.stderr)
    for j in range(DEGREE + 1):
        # The shortest decimal that reads back as the same fp32 value.
        values = [np.float32(table[row][j]) for row in range(ROWS)]
        values = [f"{np.format_float_positional(v, unique=True, trim='0')}f" if 1e-3 <= abs(v) < 1e3 or v == 0
                  else f"{np.format_float_scientific(v, unique=True, trim='0')}f" for v in values]
        print(f"    {{  // c{j}")
        for start in range(0, ROWS, 6):
            print("        " + ", ".join(values[start:start + 6]) + ",")
        print("    },")


if __name__ == "__main__":
    main()
