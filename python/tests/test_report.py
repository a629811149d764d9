"""compare(..., report=DIR) and aclnn-cpu compare --report: the pictures must show each defect where it is.

Each crafted case reads the rendered error_map.png back and looks at the pixels of the elements it broke
(report.json says where the map's axes are in the image), against pixels of elements it left alone.
"""
import json
import os
import subprocess
import sys

import matplotlib.image as matplotlib_image  # python3-matplotlib (scripts/install_deps.sh installs it)
import numpy as np
import pytest

import aclnn_cpu

CLI = os.path.join(os.environ.get("ACLNN_CPU_BUILD_DIR", ""), "bin", "aclnn-cpu")


class Map:
    """The rendered error map and the mapping from an element's index in the folded output to a pixel."""

    def __init__(self, directory):
        with open(os.path.join(directory, "report.json")) as file:
            self.summary = json.load(file)
        layout = self.summary["error_map"]
        self.rows, self.cols = layout["rows"], layout["cols"]
        self.block = layout["block"]
        self.x0, self.y0, self.x1, self.y1 = layout["axes_pixels"]
        image = matplotlib_image.imread(os.path.join(directory, "error_map.png"))
        assert image.shape[1::-1] == tuple(layout["image_size"])
        self.pixels = np.round(image[:, :, :3] * 255).astype(int)
        self.colours = {c["label"]: tuple(int(c["colour"][i:i + 2], 16) for i in (1, 3, 5))
                        for c in layout["classes"]}

    def pixel(self, row, col):
        """The colour at the centre of the cell that holds element (row, col)."""
        r = (row // self.block[0] + 0.5) * self.block[0]
        c = (col // self.block[1] + 0.5) * self.block[1]
        r, c = min(r, self.rows - 0.5), min(c, self.cols - 0.5)
        x = self.x0 + c / self.cols * (self.x1 - self.x0)
        y = self.y0 + r / self.rows * (self.y1 - self.y0)
        # The frame's line is antialiased over the pixel beside it: stay two pixels in.
        x = min(max(int(x), self.x0 + 2), self.x1 - 3)
        y = min(max(int(y), self.y0 + 2), self.y1 - 3)
        return tuple(self.pixels[y, x])

    def inside_pixels(self, margin=3):
        """Every pixel of the map's area, a few pixels in from its frame."""
        return self.pixels[self.y0 + margin:self.y1 - margin, self.x0 + margin:self.x1 - margin].reshape(-1, 3)


def test_a_wrong_block_shows_at_its_place(tmp_path):
    rng = np.random.default_rng(1)
    golden = rng.standard_normal((256, 256)).astype(np.float32)
    actual = golden.copy()
    actual[96:112, 160:176] *= np.float32(1.01)  # a tile computed wrong: r = 0.01, far above 10T
    result = aclnn_cpu.compare(actual, golden, report=str(tmp_path))
    assert not result.passed and result.report_dir == str(tmp_path)
    drawn = Map(tmp_path)
    red, low = drawn.colours["r >= 10T"], drawn.colours["r < T/100"]
    for row in range(96, 112, 3):
        for col in range(160, 176, 3):
            assert drawn.pixel(row, col) == red, (row, col)
    for row, col in ((10, 10), (96, 100), (150, 168), (200, 240), (50, 168), (104, 220)):
        assert drawn.pixel(row, col) == low, (row, col)
    assert drawn.summary["verdict"] == "FAIL"


def test_a_bad_last_column_shows_as_a_band_across_a_folded_output(tmp_path):
    rng = np.random.default_rng(2)
    golden = (rng.random((4, 64, 100)) + 1).astype(np.float16)  # rank 3: folded to 256 rows x 100 columns
    actual = golden.copy()
    actual[..., -1] = (golden[..., -1].astype(np.float32) * 1.004).astype(np.float16)  # about 4 ulp: T..10T
    result = aclnn_cpu.compare(actual, golden, report=str(tmp_path))
    # The verdict passes (MERE < T, MARE < 10T): only the picture shows that every row's end is off.
    assert result.passed and result.mare > result.threshold
    drawn = Map(tmp_path)
    assert (drawn.rows, drawn.cols) == (256, 100)
    orange, low = drawn.colours["T <= r < 10T"], drawn.colours["r < T/100"]
    for row in range(0, 256, 17):
        assert drawn.pixel(row, 99) == orange, row
        assert drawn.pixel(row, 50) == low and drawn.pixel(row, 90) == low, row


def test_nan_where_the_golden_is_finite_has_its_own_colour(tmp_path):
    golden = np.linspace(1, 2, 64 * 80, dtype=np.float32).reshape(64, 80)
    actual = golden.copy()
    actual[40, 30] = np.nan
    actual[5, 70] = np.inf
    result = aclnn_cpu.compare(actual, golden, report=str(tmp_path))
    assert result.nan_inf_mismatches == 2
    drawn = Map(tmp_path)
    magenta = drawn.colours["NaN/inf mismatch"]
    assert drawn.pixel(40, 30) == magenta and drawn.pixel(5, 70) == magenta
    assert drawn.pixel(20, 30) == drawn.colours["r < T/100"]
    # Nothing else is magenta: the two cells and the rings drawn around them (not in the colour of a cell).
    magenta_pixels = np.all(drawn.inside_pixels() == magenta, axis=1)
    assert 2 <= np.count_nonzero(magenta_pixels) < 600


def test_a_single_bad_element_survives_the_reduction_of_a_large_output(tmp_path):
    golden = np.ones((2048, 3000), np.float32)
    actual = golden.copy()
    actual[1501, 2003] = 1.01  # r = 0.01 >= 10T; a mean over the 24 elements of its cell would be < T
    aclnn_cpu.compare(actual, golden, report=str(tmp_path))
    drawn = Map(tmp_path)
    assert drawn.block == [4, 6]  # at most 512 cells a side: the maximum of each 4 x 6 block is drawn
    assert drawn.pixel(1501, 2003) == drawn.colours["r >= 10T"]
    assert drawn.pixel(1501, 2300) == drawn.colours["r < T/100"]


def test_a_passing_compare_is_all_low_error(tmp_path):
    rng = np.random.default_rng(3)
    golden = (rng.standard_normal((128, 200)) + 4).astype(np.float16)
    actual = np.nextafter(golden, np.float16(np.inf))  # every element 1 ulp off: r <= 2^-10 = T
    actual[::2] = golden[::2]
    result = aclnn_cpu.compare(actual, golden, report=str(tmp_path))
    assert result.passed
    drawn = Map(tmp_path)
    below_t = {drawn.colours[k] for k in ("r < T/100", "T/100 <= r < T/10", "T/10 <= r < T")}
    # Identical arrays are the lowest class everywhere; this one has 1-ulp errors: every cell is below T.
    inside = drawn.inside_pixels()
    assert all(tuple(p) in below_t for p in np.unique(inside, axis=0)), np.unique(inside, axis=0)
    assert drawn.summary["verdict"] == "PASS"


def test_the_html_names_the_verdict_and_links_the_pictures(tmp_path):
    golden = np.ones(1000, np.float16)
    actual = golden.copy()
    actual[7] = np.float16(1.25)
    result = aclnn_cpu.compare(actual, golden, report=str(tmp_path))
    text = (tmp_path / "report.html").read_text()
    assert "<title>aclnn-cpu compare: FAIL</title>" in text
    for picture in ("error_map.png", "error_histogram.png", "error_vs_magnitude.png"):
        assert f'src="{picture}"' in text
        assert (tmp_path / picture).stat().st_size > 1000
    assert "(7,)" in text and "MARE" in text and "http" not in text.replace("http-equiv", "")
    assert f"{result.mare:.6g}" in text
    drawn = Map(tmp_path)  # a 1-D output is one row
    assert drawn.rows == 1 and drawn.pixel(0, 7) == drawn.colours["r >= 10T"]


def test_the_command_line_writes_the_report_and_keeps_its_exit_codes(tmp_path):
    golden = np.linspace(1, 2, 600, dtype=np.float32)
    actual = golden.copy()
    actual[100:120] *= np.float32(1.01)
    golden.tofile(tmp_path / "golden.bin")
    actual.tofile(tmp_path / "actual.bin")
    run = subprocess.run([CLI, "compare", str(tmp_path / "actual.bin"), str(tmp_path / "golden.bin"), "--dtype",
                          "float32", "--shape", "20,30", "--report", str(tmp_path / "report")],
                         capture_output=True, text=True)
    assert run.returncode == 1, run.stderr
    assert "report.html" in run.stdout
    drawn = Map(tmp_path / "report")
    assert (drawn.rows, drawn.cols) == (20, 30)
    assert drawn.pixel(3, 10) == drawn.colours["r >= 10T"] and drawn.pixel(10, 10) == drawn.colours["r < T/100"]
    missing = subprocess.run([CLI, "compare", str(tmp_path / "nothing.bin"), str(tmp_path / "golden.bin"),
                              "--dtype", "float32", "--report", str(tmp_path / "r2")], capture_output=True, text=True)
    assert missing.returncode == 2 and "nothing.bin" in missing.stderr
    assert not (tmp_path / "r2").exists()


@pytest.fixture
def without_matplotlib(tmp_path):
    """A PYTHONPATH under which importing matplotlib fails, as on a machine without python3-matplotlib."""
    fake = tmp_path / "no_matplotlib" / "matplotlib"
    fake.mkdir(parents=True)
    (fake / "__init__.py").write_text("raise ImportError('No module named matplotlib (test stand-in)')\n")
    environment = dict(os.environ)
    inherited = [os.path.abspath(p) for p in environment.get("PYTHONPATH", "").split(os.pathsep) if p]
    environment["PYTHONPATH"] = os.pathsep.join([str(fake.parent)] + inherited)
    return environment


def test_without_matplotlib_a_report_fails_naming_the_package_and_nothing_else_changes(tmp_path,
                                                                                         without_matplotlib):
    golden = np.ones(10, np.float32)
    golden.tofile(tmp_path / "golden.bin")
    command = [CLI, "compare", str(tmp_path / "golden.bin"), str(tmp_path / "golden.bin"), "--dtype", "float32"]
    plain = subprocess.run(command, capture_output=True, text=True, env=without_matplotlib)
    assert plain.returncode == 0 and "PASS" in plain.stdout, plain.stderr
    asked = subprocess.run(command + ["--report", str(tmp_path / "report")], capture_output=True, text=True,
                           env=without_matplotlib)
    assert asked.returncode == 2 and "python3-matplotlib" in asked.stderr and "--report" in asked.stderr
    assert not (tmp_path / "report").exists()
    script = ("import numpy as np, aclnn_cpu\n"
              "print(aclnn_cpu.compare(np.ones(3, np.float32), np.ones(3, np.float32)).passed)\n"
              "try:\n"
              "    aclnn_cpu.compare(np.ones(3, np.float32), np.ones(3, np.float32), report='unused')\n"
              "except ImportError as error:\n"
              "    print('ImportError:', error)\n")
    python = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True, env=without_matplotlib,
                            cwd=tmp_path)
    assert python.returncode == 0, python.stderr
    assert python.stdout.startswith("True\nImportError:") and "python3-matplotlib" in python.stdout
    assert not (tmp_path / "unused").exists()
