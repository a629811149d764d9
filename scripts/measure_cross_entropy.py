"""The worst error of the fused cross-entropy's results against the exact value of CANN's formula, per SoC, in FLOAT:
the figures of docs/compatibility.md, "The fused cross-entropy". The exact value is the formula in long double.
Rows of C = 2 to 5000 logits drawn from N(0, s^2), s = 1, 8 or 30, random targets and weights, label smoothing 0,
0.1 or 0.5 (the gradient's 0 on Atlas A2/A3, whose kernel has none).

    ACLNN_CPU_SOC_NAME=Ascend910B1 scripts/run_python_installed.sh scripts/measure_cross_entropy.py [--seed S]

Each error is in fp32 ulp of the largest term the kernel's steps round: logProb's of the largest of |logProb|,
|x - max|, log(sum) and 1 on Ascend 950 ((x - max) - log(sum)), of |logProb|, |x|, |max|, log(sum),
|max + log(sum)| and 1 on Atlas A2/A3 (x - (log(sum) + max)) -- the 1 as the sum of exponentials, at least 1, is an
fp32 value in CANN's formula, so its log carries up to half an fp32 ulp of 1; a sample's loss of (1 - ls) w[t] T[t] + ls / C sum(w T),
T those logProb terms; the mean of its value; a gradient element of |exp(lp) s| + |s| + |sm| (exp(lp) sum(w) +
w[c]).
"""
import argparse
import os

import numpy as np

import aclnn_cpu

L = np.longdouble


def ulp32(v):
    return np.spacing(np.abs(np.asarray(v, dtype=np.float64)).astype(np.float32)).astype(np.float64)


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--trials", type=int, default=40)
    args = parser.parse_args()
    soc = os.environ.get("ACLNN_CPU_SOC_NAME") or "Ascend950PR_9599"
    atlas_a2 = soc.startswith("Ascend910B") or soc.startswith("Ascend910_93")
    rng = np.random.default_rng(args.seed)
    worst = {"logProb": 0.0, "loss": 0.0, "mean": 0.0, "gradient": 0.0}
    for _ in range(args.trials):
        n, c = 64, int(rng.choice([2, 7, 100, 1000, 5000]))
        x = rng.normal(0, float(rng.choice([1, 8, 30])), (n, c)).astype(np.float32)
        t = rng.integers(0, c, n)
        w = rng.uniform(0.25, 2, c).astype(np.float32)
        ls = float(rng.choice([0.0, 0.1, 0.5]))
        xl = x.astype(L)
        m = xl.max(axis=1, keepdims=True)
        log_sum = np.log(np.exp(xl - m).sum(axis=1, keepdims=True))
        lp_exact = xl - m - log_sum
        loss, lp = aclnn_cpu.cross_entropy_loss(x, t, w, reduction="none", label_smoothing=ls)
        if atlas_a2:
            terms = np.maximum(np.maximum(np.abs(xl), np.abs(m)), np.maximum(log_sum, np.abs(m + log_sum)))
            terms = np.maximum(terms, 1)
        else:
            terms = np.maximum(np.maximum(np.abs(xl - m), log_sum), 1)
        terms = np.maximum(terms, np.abs(lp_exact))
        error = np.abs(lp.astype(np.float64) - lp_exact.astype(np.float64)) / ulp32(terms)
        worst["logProb"] = max(worst["logProb"], error.max())
        rows = np.arange(n)
        wt = w[t].astype(L)
        smooth = (w.astype(L) * lp_exact).sum(axis=1)
        ls32 = L(np.float32(ls))
        exact = (1 - ls32) * -wt * lp_exact[rows, t] - ls32 / c * smooth
        magnitude = (1 - ls32) * wt * terms[rows, t] + ls32 / c * (w.astype(L) * terms).sum(axis=1)
        error = np.abs(loss.astype(np.float64) - exact.astype(np.float64)) / ulp32(magnitude)
        worst["loss"] = max(worst["loss"], error.max())
        mean, _ = aclnn_cpu.cross_entropy_loss(x, t, w, reduction="mean", label_smoothing=ls)
        exact_mean = float(exact.sum() / wt.sum())
        worst["mean"] = max(worst["mean"], abs(float(mean.reshape(())) - exact_mean) / float(ulp32(exact_mean)))
        g = np.float32(rng.uniform(-2, 2))
        ls_grad = 0.0 if atlas_a2 else ls
        grad = aclnn_cpu.cross_entropy_loss_grad(g, lp, t, w, reduction="sum", label_smoothing=ls_grad)
        e = np.exp(lp.astype(L))
        s = (wt * L(g) * (1 - L(np.float32(ls_grad))))[:, None]
        sm = L(g) * L(np.float32(ls_grad)) / c
        onehot = np.zeros((n, c), dtype=L)
        onehot[rows, t] = 1
        wl = w.astype(L)[None, :]
        exact_grad = e * s - onehot * s + sm * (e * wl.sum() - wl)
        magnitude = np.abs(e * s) + np.abs(s) + abs(sm) * (e * wl.sum() + wl)
        error = np.abs(grad.astype(np.float64) - exact_grad.astype(np.float64)) / ulp32(magnitude)
        worst["gradient"] = max(worst["gradient"], error.max())
    print(f"| {soc} | " + " | ".join(f"{worst[k]:.2f}" for k in ("logProb", "loss", "mean", "gradient")) + " |")


if __name__ == "__main__":
    main()
