"""The pictures of a compare (``compare(..., report=DIR)``, ``aclnn-cpu compare --report DIR``): where the
errors are, how they are distributed, and how they depend on the golden's magnitude.

- error_map.png: the relative error r = |a - g| / (|g| + 1e-7) (as in MERE) over the output folded to 2-D
  (leading dims x last dim). A large output is drawn a block of elements per cell, each cell showing the
  *largest* error in its block, so a single bad element is never averaged away. Cells are coloured by class:
  three shades below T (under T/100, T/10, T), orange from T, red from 10T, and magenta where a NaN or an
  infinity does not match.
- error_histogram.png: the distribution of ulp distances (log counts, powers of two) and of r, with T and 10T.
- error_vs_magnitude.png: r against |g|, as points for small outputs and a 2-D histogram for large ones.
- report.html: the verdict, the worst elements and the three pictures (files beside it; no network).
- report.json: the verdict's numbers and where the map's cells are in error_map.png, for tools and tests.

Everything is gathered tile by tile during the compare (``ReportData.add_tile``): per-cell maxima, counts and
histograms, never one Python object per element. matplotlib draws on its Agg canvas, with no display.
"""
import html
import json
import math
import os

import numpy as np

try:
    from matplotlib.backends.backend_agg import FigureCanvasAgg
    from matplotlib.colors import BoundaryNorm, ListedColormap, LogNorm
    from matplotlib.figure import Figure
except ImportError as missing:  # raised again, with what to install, when a report is asked for
    raise ImportError("aclnn_cpu: a compare report draws its pictures with matplotlib, which this Python "
                      f"cannot import ({missing}); on Debian: apt-get install python3-matplotlib") from missing

from ._dtypes import ACL_BF16, ACL_FLOAT, ACL_FLOAT16
from ._folding import folded_shape

MAP_CELLS = 512  # at most this many cells along each axis of the error map
SCATTER_LIMIT = 20000  # up to this many finite elements are drawn as points, more as a 2-D histogram
# The map's classes: (label, colour). Indices are the values drawn.
CLASSES = (("r < T/100", "#eaf2fb"), ("T/100 <= r < T/10", "#b6d4ee"), ("T/10 <= r < T", "#5b9bd5"),
           ("T <= r < 10T", "#f5a623"), ("r >= 10T", "#d0021b"), ("NaN/inf mismatch", "#c000c0"))
MISMATCH_CLASS = 5
# The dtype's machine epsilon: a relative error r is about r / epsilon ulp (up to twice that).
EPSILON = {ACL_FLOAT: 2.0 ** -23, ACL_FLOAT16: 2.0 ** -10, ACL_BF16: 2.0 ** -7}
# The histograms of r and |g| have a bin per power of two, (lowest power, bins); values outside the range are
# counted in the end bins.
RELATIVE_OCTAVES = (-40, 47)    # 2^-40 (about 1e-12) .. 2^7
MAGNITUDE_OCTAVES = (-40, 67)   # 2^-40 .. 2^27
ULP_LOG2_BINS = 40  # bin 0: equal; bin k: 2^(k-1) <= ulp < 2^k (the last bin: everything from 2^38 up)
MAP_IMAGE = (900, 700)  # pixels
MAP_AXES = (0.11, 0.12, 0.66, 0.76)  # left, bottom, width, height as fractions of the figure


def _octave_bins(values, low, bins):
    """Bin k holds 2^(low + k) <= values < 2^(low + k + 1); zeros and smaller values go to bin 0, larger ones
    to the last bin. frexp reads the exponent: cheaper than a logarithm per element."""
    exponent = np.frexp(values)[1].astype(np.int64) - 1  # floor(log2(values)) for values > 0
    index = np.clip(exponent - low, 0, bins - 1)
    index[values == 0] = 0
    return index


class ReportData:
    """What the pictures need, accumulated over the compare's tiles."""

    def __init__(self, shape, acl_type, threshold):
        self.shape = tuple(shape)
        self.acl_type = acl_type
        self.threshold = threshold
        self.rows, self.cols = folded_shape(self.shape)
        self.block = (max(1, math.ceil(self.rows / MAP_CELLS)), max(1, math.ceil(self.cols / MAP_CELLS)))
        grid = (max(1, math.ceil(self.rows / self.block[0])), max(1, math.ceil(self.cols / self.block[1])))
        self.cell_error = np.zeros(grid)
        self.cell_mismatch = np.zeros(grid, bool)
        self.relative_counts = np.zeros(RELATIVE_OCTAVES[1], np.int64)
        self.ulp_counts = np.zeros(ULP_LOG2_BINS, np.int64)
        self.joint_counts = np.zeros((MAGNITUDE_OCTAVES[1], RELATIVE_OCTAVES[1]), np.int64)
        self.points = []  # (|g|, r) arrays while the output is small enough to draw as points
        self.finite = 0

    def add_tile(self, row_slice, col_slice, relative, mismatched, finite_relative, finite_golden, ulp):
        """relative: the tile's r (0 where not finite); mismatched: its NaN/inf mismatches, or None when it has
        no NaN or infinity; the finite_* arrays and ulp: its finite elements."""
        rows = np.arange(0, relative.shape[0], self.block[0])
        cols = np.arange(0, relative.shape[1], self.block[1])
        r0, c0 = row_slice.start // self.block[0], col_slice.start // self.block[1]
        if relative.size:
            cells = np.maximum.reduceat(np.maximum.reduceat(relative, rows, axis=0), cols, axis=1)
            self.cell_error[r0:r0 + cells.shape[0], c0:c0 + cells.shape[1]] = cells
            if mismatched is not None:  # None: the tile has no NaN or infinity
                flagged = np.maximum.reduceat(np.maximum.reduceat(mismatched.view(np.uint8), rows, axis=0), cols,
                                              axis=1)
                self.cell_mismatch[r0:r0 + cells.shape[0], c0:c0 + cells.shape[1]] = flagged.astype(bool)
        relative_bins = _octave_bins(finite_relative, *RELATIVE_OCTAVES)
        self.relative_counts += np.bincount(relative_bins, minlength=RELATIVE_OCTAVES[1])
        # frexp's exponent of the ulp distance is the bin: 0 for 0, k for 2^(k-1) <= ulp < 2^k.
        ulp_bins = np.minimum(np.frexp(ulp.astype(np.float64))[1], ULP_LOG2_BINS - 1)
        self.ulp_counts += np.bincount(ulp_bins, minlength=ULP_LOG2_BINS)
        magnitude_bins = _octave_bins(np.abs(finite_golden), *MAGNITUDE_OCTAVES)
        joint = np.bincount(magnitude_bins * RELATIVE_OCTAVES[1] + relative_bins,
                            minlength=MAGNITUDE_OCTAVES[1] * RELATIVE_OCTAVES[1])
        self.joint_counts += joint.reshape(self.joint_counts.shape)
        self.finite += finite_relative.size
        if self.finite <= SCATTER_LIMIT:
            self.points.append((np.abs(finite_golden), finite_relative.copy()))
        else:
            self.points = []

    # ---- drawing --------------------------------------------------------------------------------------------

    def _classes(self):
        t = self.threshold
        edges = np.array([t / 100, t / 10, t, 10 * t])
        classes = np.searchsorted(edges, self.cell_error, side="right")
        classes[self.cell_mismatch] = MISMATCH_CLASS
        return classes

    def _axis_labels(self):
        rank = len(self.shape)
        if rank == 0:
            return "(a 0-d output: one element)", ""
        x = f"dim {rank - 1} (last, {self.cols} elements)"
        if rank == 1:
            return x, "(a 1-D output: one row)"
        leading = " x ".join(str(d) for d in self.shape[:-1])
        y = f"dims 0..{rank - 2} folded ({leading} = {self.rows} rows)" if rank > 2 else f"dim 0 ({self.rows} rows)"
        return x, y

    def _draw_map(self, path, verdict):
        width, height = MAP_IMAGE
        figure = Figure(figsize=(width / 100, height / 100), dpi=100)
        FigureCanvasAgg(figure)
        axes = figure.add_axes(MAP_AXES)
        colours = ListedColormap([colour for _, colour in CLASSES])
        norm = BoundaryNorm(np.arange(len(CLASSES) + 1) - 0.5, len(CLASSES))
        # A cell covers block elements exactly (the last ones cut by the edge), so the axes count elements.
        classes = self._classes()
        grid_rows, grid_cols = classes.shape
        image = axes.imshow(classes, cmap=colours, norm=norm, interpolation="nearest", aspect="auto",
                            extent=(0, grid_cols * self.block[1], grid_rows * self.block[0], 0))
        axes.set_xlim(0, self.cols)
        axes.set_ylim(self.rows, 0)
        # A few failing cells among many are a pixel or two each: ring them so the eye finds them.
        severe_rows, severe_cols = np.nonzero(classes >= 4)
        if 0 < severe_rows.size <= 64:
            axes.scatter((severe_cols + 0.5) * self.block[1], (severe_rows + 0.5) * self.block[0], s=160,
                         facecolors="none", edgecolors=[CLASSES[k][1] for k in classes[severe_rows, severe_cols]],
                         linewidths=1.5)
            axes.set_xlim(0, self.cols)
            axes.set_ylim(self.rows, 0)
        x_label, y_label = self._axis_labels()
        axes.set_xlabel(x_label)
        axes.set_ylabel(y_label)
        block = ("one element per cell" if self.block == (1, 1)
                 else f"each cell: the largest r of {self.block[0]} x {self.block[1]} elements")
        axes.set_title(f"relative error r = |a - g| / (|g| + 1e-7), T = {self.threshold:.3g}\n{block}; {verdict}",
                       fontsize=10)
        bar_axes = figure.add_axes((MAP_AXES[0] + MAP_AXES[2] + 0.03, MAP_AXES[1], 0.025, MAP_AXES[3]))
        bar = figure.colorbar(image, cax=bar_axes, ticks=range(len(CLASSES)))
        bar.ax.set_yticklabels([label for label, _ in CLASSES], fontsize=8)
        figure.savefig(path)
        left, bottom, w, h = MAP_AXES
        return [round(left * width), round((1 - bottom - h) * height), round((left + w) * width),
                round((1 - bottom) * height)]

    def _draw_histograms(self, path):
        figure = Figure(figsize=(11, 4.2), dpi=100)
        FigureCanvasAgg(figure)
        t, epsilon = self.threshold, EPSILON[self.acl_type]
        ulp_axes, relative_axes = figure.subplots(1, 2)
        labels = ["0"] + [f"{2 ** (k - 1)}" for k in range(1, ULP_LOG2_BINS)]
        last = max(int(np.max(np.flatnonzero(self.ulp_counts))) if self.ulp_counts.any() else 0, 4)
        positions = np.arange(last + 1)
        ulp_axes.bar(positions, self.ulp_counts[:last + 1], color="#5b9bd5", log=True)
        ulp_axes.set_xticks(positions)
        ulp_axes.set_xticklabels(labels[:last + 1], rotation=90, fontsize=7)
        ulp_axes.set_xlabel("ulp distance (bin k: from 2^(k-1) up to 2^k)")
        ulp_axes.set_ylabel("elements (log)")
        for value, name in ((t, "T"), (10 * t, "10T")):
            ulp = value / epsilon  # the ulp distance at which r reaches value for |g| just above a power of 2
            position = 0 if ulp < 1 else math.log2(ulp) + 1
            ulp_axes.axvline(position - 0.5, color="#d0021b" if name == "10T" else "#f5a623", linestyle="--",
                             label=f"{name} = {value:.3g} (about {ulp:.3g} ulp)")
        ulp_axes.legend(fontsize=8)
        ulp_axes.set_title("ulp distance between actual and golden", fontsize=10)
        low, bins = RELATIVE_OCTAVES
        edges = np.arange(low, low + bins + 1) * math.log10(2)
        relative_axes.stairs(np.maximum(self.relative_counts, 0.8), edges, fill=True, color="#5b9bd5",
                             baseline=0.8)
        relative_axes.set_yscale("log")
        for value, name in ((t, "T"), (10 * t, "10T")):
            relative_axes.axvline(math.log10(value), color="#d0021b" if name == "10T" else "#f5a623",
                                  linestyle="--", label=f"{name} = {value:.3g}")
        relative_axes.set_xlabel(f"log10 relative error, a bin per power of 2 (r below 2^{low}, 0 included, in the "
                                 "first)")
        relative_axes.set_ylabel("elements (log)")
        relative_axes.legend(fontsize=8)
        relative_axes.set_title("relative error r", fontsize=10)
        figure.tight_layout()
        figure.savefig(path)

    def _draw_magnitude(self, path):
        figure = Figure(figsize=(8, 5.5), dpi=100)
        FigureCanvasAgg(figure)
        axes = figure.add_subplot()
        t = self.threshold
        if self.points:
            magnitude = np.concatenate([p[0] for p in self.points])
            relative = np.concatenate([p[1] for p in self.points])
            axes.scatter(np.maximum(magnitude, 2.0 ** MAGNITUDE_OCTAVES[0]),
                         np.maximum(relative, 2.0 ** RELATIVE_OCTAVES[0]), s=4, color="#5b9bd5", alpha=0.6,
                         linewidths=0)
            axes.set_xscale("log")
            axes.set_yscale("log")
            axes.set_xlabel("|golden| (zeros drawn at the left edge)")
            axes.set_ylabel("relative error r (0 drawn at the bottom edge)")
            lines = (t, 10 * t)
        else:
            x_edges = np.arange(MAGNITUDE_OCTAVES[0], sum(MAGNITUDE_OCTAVES) + 1) * math.log10(2)
            y_edges = np.arange(RELATIVE_OCTAVES[0], sum(RELATIVE_OCTAVES) + 1) * math.log10(2)
            counts = np.ma.masked_equal(self.joint_counts.T, 0)
            mesh = axes.pcolormesh(x_edges, y_edges, counts, norm=LogNorm(vmin=1, vmax=max(counts.max(), 1)),
                                   cmap="viridis")
            figure.colorbar(mesh, ax=axes, label="elements")
            axes.set_xlabel("log10 |golden| (smaller, 0 included, in the first column)")
            axes.set_ylabel("log10 relative error r (smaller, 0 included, in the first row)")
            lines = (math.log10(t), math.log10(10 * t))
        axes.axhline(lines[0], color="#f5a623", linestyle="--", label=f"T = {t:.3g}")
        axes.axhline(lines[1], color="#d0021b", linestyle="--", label=f"10T = {10 * t:.3g}")
        axes.legend(fontsize=8)
        axes.set_title(f"relative error against the golden's magnitude ({self.finite} finite elements)", fontsize=10)
        figure.tight_layout()
        figure.savefig(path)

    def write(self, directory, result):
        os.makedirs(directory, exist_ok=True)
        verdict = "PASS" if result.passed else "FAIL"
        map_pixels = self._draw_map(os.path.join(directory, "error_map.png"), verdict)
        self._draw_histograms(os.path.join(directory, "error_histogram.png"))
        self._draw_magnitude(os.path.join(directory, "error_vs_magnitude.png"))
        summary = {
            "verdict": verdict, "dtype": result.dtype, "count": result.count, "mere": result.mere,
            "mare": result.mare, "threshold": result.threshold, "nan_inf_mismatches": result.nan_inf_mismatches,
            "nan_inf_matching": result.nan_inf_matching, "ulp_histogram": result.ulp_histogram,
            "worst": [{"index": list(index), "actual": a, "golden": g, "relative_error": r, "ulp": u}
                      for index, a, g, r, u in result.worst],
            "error_map": {"image_size": list(MAP_IMAGE), "axes_pixels": map_pixels, "shape": list(self.shape),
                          "rows": self.rows, "cols": self.cols, "block": list(self.block),
                          "classes": [{"label": label, "colour": colour} for label, colour in CLASSES]},
        }
        with open(os.path.join(directory, "report.json"), "w") as file:
            json.dump(summary, file, indent=1, allow_nan=True)
        with open(os.path.join(directory, "report.html"), "w") as file:
            file.write(_html(result, verdict, self))


def _html(result, verdict, data):
    t = result.threshold

    def row(name, value, limit, ok):
        return (f"<tr><td>{name}</td><td>{value}</td><td>{limit}</td>"
                f"<td class='{'ok' if ok else 'fail'}'>{'ok' if ok else 'FAIL'}</td></tr>")

    table = "".join([
        row("MERE (mean relative error)", f"{result.mere:.6g}", f"&lt; T = {t:.6g}", result.mere < t),
        row("MARE (max relative error)", f"{result.mare:.6g}", f"&lt; 10T = {10 * t:.6g}", result.mare < 10 * t),
        row("NaN/inf mismatches", str(result.nan_inf_mismatches), "0", result.nan_inf_mismatches == 0),
        row("NaN/inf elements that match", str(result.nan_inf_matching), "", True),
    ])
    histogram = "".join(f"<td>{html.escape(k)}: {v}</td>" for k, v in result.ulp_histogram.items())
    worst = "".join(
        f"<tr><td>{html.escape(str(index))}</td><td>{a!r}</td><td>{g!r}</td><td>{r:.3g}</td>"
        f"<td>{'' if u is None else u}</td></tr>" for index, a, g, r, u in result.worst)
    shape = " x ".join(str(d) for d in data.shape) or "0-d"
    return f"""<!DOCTYPE html>
<html lang="en"><head><meta charset="utf-8"><title>aclnn-cpu compare: {verdict}</title>
<style>
body {{ font-family: sans-serif; margin: 2em; color: #222; }}
table {{ border-collapse: collapse; margin: 0.5em 0 1.5em; }}
td, th {{ border: 1px solid #bbb; padding: 0.25em 0.6em; text-align: left; }}
.ok {{ color: #1a7f37; font-weight: bold; }} .fail {{ color: #d0021b; font-weight: bold; }}
.verdict {{ font-size: 1.6em; }} img {{ max-width: 100%; border: 1px solid #ddd; margin: 0.5em 0; }}
</style></head><body>
<h1>aclnn-cpu compare: <span class="verdict {'ok' if result.passed else 'fail'}">{verdict}</span></h1>
<p>{result.count} elements of {html.escape(result.dtype)}, shape {html.escape(shape)}; CANN's precision standard:
relative error r = |actual - golden| / (|golden| + 1e-7), threshold T = {t:.6g}; pass when MERE &lt; T,
MARE &lt; 10T and every NaN/infinity matches.</p>
<table><tr><th>measure</th><th>value</th><th>limit</th><th>verdict</th></tr>{table}</table>
<h2>ulp distance</h2><table><tr>{histogram}</tr></table>
<h2>Worst elements</h2>
<table><tr><th>index</th><th>actual</th><th>golden</th><th>relative error</th><th>ulp</th></tr>{worst}</table>
<h2>Where the errors are</h2>
<p>The output folded to 2-D (leading dims x last dim); each cell shows the largest relative error of the
elements it covers, coloured by class; magenta marks NaN/infinity mismatches.</p>
<img src="error_map.png" alt="error map">
<h2>Distribution</h2><img src="error_histogram.png" alt="error histogram">
<h2>Error against magnitude</h2><img src="error_vs_magnitude.png" alt="error against magnitude">
</body></html>
"""
