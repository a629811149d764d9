"""The worst error of each operator's elementwise results (reduction none) against the exact value of CANN's
formula, per dtype, on the domain the operator is used on and on its hard regions -- the figures of
docs/compatibility.md, "Accuracy against the exact value". The exact value is the formula in long double (a
64-bit significand: the fp32 inputs' products are exact in it, and the transcendental functions are far
within the half ulp of fp32 measured here); mpmath re-checks the worst case of each row.

    scripts/run_python_installed.sh scripts/measure_accuracy.py [--count N] [--seed S]

Prints one Markdown row per operator and dtype: the domain, the worst error in ulp of the result's dtype, the
share above 1 ulp, and the inputs of the worst case. Inputs whose exact result is not finite in the result's
dtype, or whose fp32 steps over- or underflow (the formula's own limits, listed in compatibility.md), are left
out of the worst error and counted apart.
"""
import argparse
import warnings

import mpmath
import numpy as np

import aclnn_cpu

L = np.longdouble


def log1pexp(t):
    """log(1 + e^t) in long double without overflow."""
    return np.where(t > 0, t + np.log1p(np.exp(-t)), np.log1p(np.exp(t)))


def sigmoid(t):
    return 1 / (1 + np.exp(-t))


# Each operator's exact formula on long double inputs (in the row's input order), and the same in mpmath for the
# re-check of the worst case. "scale" is the mean's 1/N (none: 1).
FORMULAS = {
    "soft_margin_loss": (lambda x, y: log1pexp(-x * y),
                         lambda x, y: mpmath.log1p(mpmath.exp(-x * y))),
    "soft_margin_loss_backward": (lambda g, x, y: -g * y * sigmoid(-x * y),
                                  lambda g, x, y: -g * y / (1 + mpmath.exp(x * y))),
    "mse_loss": (lambda x, y: (x - y) ** 2, lambda x, y: (x - y) ** 2),
    "mse_loss_backward": (lambda g, x, y: 2 * (x - y) * g, lambda g, x, y: 2 * (x - y) * g),
    "l1_loss": (lambda x, y: np.abs(x - y), lambda x, y: abs(x - y)),
    "smooth_l1_loss": (lambda x, y: np.where(np.abs(x - y) < 1, 0.5 * (x - y) ** 2, np.abs(x - y) - 0.5),
                       lambda x, y: 0.5 * (x - y) ** 2 if abs(x - y) < 1 else abs(x - y) - 0.5),
    "smooth_l1_loss_backward": (lambda g, x, y: np.clip(x - y, -1, 1) * g,
                                lambda g, x, y: max(-1, min(1, x - y)) * g),
    "binary_cross_entropy": (
        lambda x, y: -(y * np.maximum(np.log(x), -100) + (1 - y) * np.maximum(np.log1p(-x), -100)),
        lambda x, y: -(y * max(mpmath.log(x), -100) + (1 - y) * max(mpmath.log1p(-x), -100))),
    "binary_cross_entropy_backward": (lambda g, x, y: g * (x - y) / np.maximum((1 - x) * x, L(1e-12)),
                                      lambda g, x, y: g * (x - y) / max((1 - x) * x, mpmath.mpf(1e-12))),
    "binary_cross_entropy_with_logits": (lambda x, y: (1 - y) * log1pexp(x) + y * log1pexp(-x),
                                         lambda x, y: (1 - y) * mpmath.log1p(mpmath.exp(x)) +
                                         y * mpmath.log1p(mpmath.exp(-x))),
    "binary_cross_entropy_with_logits_backward": (lambda g, x, y: g * ((1 - y) * sigmoid(x) - y * sigmoid(-x)),
                                                  lambda g, x, y: g * ((1 - y) / (1 + mpmath.exp(-x)) -
                                                                       y / (1 + mpmath.exp(x)))),
    "kl_div_backward": (lambda g, x, y: -y * g, lambda g, x, y: -y * g),
}

# Where an fp32 step of the formula over- or underflows, by the formula's own design (compatibility.md): left out
# of the worst error. The soft margin gradient's exp(-x*y) overflows past 88.72 (NaN there, or +-inf first).
LIMITS = {
    "soft_margin_loss_backward": lambda g, x, y: -x * y > 88.0,
}

DTYPES = {"float32": np.float32, "float16": np.float16, "bfloat16": None}


def draw(domain, count, rng, hard):
    """Values of an input's domain; the hard regions where the formulas' terms cancel or saturate."""
    if domain == "sign_label":
        return np.where(rng.random(count) < 0.5, -1.0, 1.0)
    if domain == "probability":
        soft = rng.random(count)
        return np.where(rng.random(count) < 0.3, np.round(soft), soft) if hard else soft
    if domain == "gradient":
        return rng.uniform(-2, 2, count)
    values = rng.standard_normal(count) * 3
    if hard:  # logits far out, where exp and the softplus reach their tails
        values = np.where(rng.random(count) < 0.5, rng.uniform(-105, 105, count), values)
    return values


def as_dtype(values, dtype):
    if dtype == "bfloat16":
        bits = (values.astype(np.float32).view(np.uint32) + 0x7FFF + ((values.astype(np.float32).view(np.uint32)
                                                                        >> 16) & 1)) >> 16
        return aclnn_cpu.Bfloat16(bits.astype(np.uint16))
    return values.astype(DTYPES[dtype])


def as_long_double(array, dtype):
    if dtype == "bfloat16":
        return (np.asarray(array.bits, np.uint32) << 16).view(np.float32).astype(L)
    return np.asarray(array).astype(L)


def ulp_of(exact, dtype):
    """The spacing of the result's dtype at |exact| (its subnormal spacing below the normal range)."""
    bits, emin = {"float32": (24, -126), "float16": (11, -14), "bfloat16": (8, -126)}[dtype]
    exponent = np.floor(np.log2(np.maximum(np.abs(exact), L(2.0) ** (emin - 60))))
    return L(2.0) ** (np.maximum(exponent, emin) - (bits - 1))


def largest(dtype):
    return {"float32": 3.4028234663852886e38, "float16": 65504.0, "bfloat16": 3.3895313892515355e38}[dtype]


def measure(name, dtype, count, rng, hard):
    info = aclnn_cpu._operators.OPERATORS[name]
    required = [i for i in info.inputs if not i.optional]
    values = [as_dtype(draw(i.domain, count, rng, hard), dtype) for i in required]
    got = getattr(aclnn_cpu, name)(*values, reduction="none")
    got = as_long_double(got, dtype)
    exact_inputs = [as_long_double(v, dtype) for v in values]
    exact = FORMULAS[name][0](*exact_inputs)
    finite = np.isfinite(exact) & (np.abs(exact) < largest(dtype))
    if name in LIMITS:
        finite &= ~LIMITS[name](*exact_inputs)
    error = np.where(finite, np.abs(got - exact) / ulp_of(exact, dtype), 0)
    error = np.where(np.isnan(error), np.inf, error)
    worst = int(np.argmax(error))
    inputs = [float(v[worst]) for v in exact_inputs]
    if not np.isfinite(got[worst]):
        return np.inf, np.inf, float(np.mean(error > 1)), inputs, int(np.sum(~finite))
    with mpmath.workdps(60):
        check = FORMULAS[name][1](*[mpmath.mpf(v) for v in inputs])
        mp_error = float(abs(mpmath.mpf(float(got[worst])) - check) / mpmath.mpf(float(ulp_of(exact[worst:worst + 1],
                                                                                                  dtype)[0])))
    return error[worst], mp_error, float(np.mean(error > 1)), inputs, int(np.sum(~finite))


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--count", type=int, default=1 << 20)
    parser.add_argument("--seed", type=int, default=0)
    args = parser.parse_args()
    rng = np.random.default_rng(args.seed)
    warnings.simplefilter("ignore", RuntimeWarning)  # log(0) = -inf: the clamps' inputs
    print("| operator | dtype | domain | worst error (ulp) | share > 1 ulp | worst case (inputs) | left out |")
    print("|---|---|---|---|---|---|---|")
    for name in FORMULAS:
        for dtype in DTYPES:
            for hard in (False, True):
                long_error, mp_error, share, inputs, left_out = measure(name, dtype, args.count, rng, hard)
                domain = "hard regions" if hard else "typical"
                case = ", ".join(f"{v:.9g}" for v in inputs)
                print(f"| {name} | {dtype} | {domain} | {mp_error:.3f} | {share:.2e} | {case} | {left_out} |")


if __name__ == "__main__":
    main()
