"""Lawson's iteratively reweighted least squares: the polynomial fits of scripts/fit_*_table.py share it."""
import numpy as np


def lawson_fit(a, b, iterations):
    """Coefficients c minimising max |a c - b| over the rows of a (each row a node's powers, pre-scaled)."""
    weights = np.ones(len(b))
    for _ in range(iterations):
        root = np.sqrt(weights)
        c, *_ = np.linalg.lstsq(a * root[:, None], b * root, rcond=None)
        error = np.abs(a @ c - b)
        weights *= error / error.max() + 1e-30
        weights /= weights.sum()
    return c
