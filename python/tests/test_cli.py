"""The aclnn-cpu command line end to end on .bin files, as an NPU test uses it, and every bad-input exit."""
import json
import re
import os
import subprocess

import numpy as np
import pytest

import aclnn_cpu
from aclnn_cpu import _operators

CLI = os.path.join(os.environ["ACLNN_CPU_BUILD_DIR"], "bin", "aclnn-cpu")


def cli(*args):
    return subprocess.run([CLI, *map(str, args)], capture_output=True, text=True, check=False)


@pytest.mark.parametrize("dtype", ["float16", "bfloat16", "float32"])
@pytest.mark.parametrize("operator", sorted(_operators.OPERATORS))
def test_gen_run_compare(tmp_path, operator, dtype):
    """Every operator of the table, from gen's files through run to compare (and the Python API on the files)."""
    case = tmp_path / "case"
    info = _operators.OPERATORS[operator]
    extra = ["--beta", "0.75"] if "beta" in {p.python_name for p in info.parameters} else []
    has_reduction = any(p.type == "reduction" for p in info.parameters)
    reduction = ["--reduction", "none"] if has_reduction else []
    # target broadcasts along the rows where the row lets it; else it has self's shape (CANN's rule).
    targets = [i for i in info.inputs if i.role == "target" and not i.optional]
    target_shape = [1024] if [i.shape for i in targets] == ["broadcast"] else [8, 1024]
    shape = "8,1024" if info.self_ranks[0] <= 2 else "2,16,4,8"  # aclnnNLLLoss2d's self: 4-D
    done = cli("gen", operator, "--shape", shape, "--target-shape", ",".join(map(str, target_shape)), "--dtype",
               dtype, "--seed", 11, *reduction, *extra, "--dir", case)
    assert done.returncode == 0, done.stderr
    manifest = json.loads((case / "case.json").read_text())
    for target in targets:
        if target.domain == "class_index":  # one class index per row of self, int64
            per_sample = [8] if shape == "8,1024" else [2, 4, 8]
            assert manifest["inputs"][target.python_name] == {"file": "target.bin", "dtype": "int64",
                                                              "shape": per_sample}
        else:
            assert manifest["inputs"][target.python_name]["shape"] == target_shape
    # The recorded command reproduces the golden bit for bit (and a second output's, where the operator has one).
    out = tmp_path / "out.bin"
    args = manifest["command"].split()[1:]
    args = [a.strip("'") for a in args]
    args[args.index("--out") + 1] = str(out)
    more = {name: re.sub(r"(?<!^)(?=[A-Z])", "_", name).lower() for name in info.returned_outs}
    for snake in more.values():  # totalWeightOut -> --total-weight-out, logProbOut -> --log-prob-out
        args[args.index("--" + snake.replace("_", "-")) + 1] = str(tmp_path / f"{snake}.bin")
    done = cli(*args)
    assert done.returncode == 0, done.stderr
    assert out.read_bytes() == (case / "golden.bin").read_bytes()
    for snake in more.values():
        assert (tmp_path / f"{snake}.bin").read_bytes() == (case / f"golden_{snake}.bin").read_bytes()
    # The Python API on the same files gives the same bits.
    storage = {"float16": np.float16, "bfloat16": np.uint16, "float32": np.float32, "int64": np.int64}
    def load(name):
        recorded = manifest["inputs"][name]
        values = np.fromfile(case / recorded["file"], dtype=storage[recorded["dtype"]]).reshape(recorded["shape"])
        return aclnn_cpu.Bfloat16(values) if recorded["dtype"] == "bfloat16" else values
    inputs = [None if i.optional else load(i.python_name) for i in info.inputs]
    keywords = {"beta": 0.75} if extra else {}
    if has_reduction:
        keywords["reduction"] = "none"
    result = getattr(aclnn_cpu, operator)(*inputs, **keywords)
    result = result[0] if isinstance(result, tuple) else result
    result_bytes = (result.bits if dtype == "bfloat16" else result).tobytes()
    assert result_bytes == out.read_bytes()
    done = cli("compare", out, case / "golden.bin", "--dtype", dtype)
    assert done.returncode == 0 and "PASS" in done.stdout


def test_each_input_takes_its_domain(tmp_path):
    """Soft margin's targets are mostly +-1; a regression loss's targets are real values; gradients moderate."""
    assert cli("gen", "soft_margin_loss", "--shape", "4096", "--dtype", "float32", "--dir", tmp_path / "s").returncode == 0
    labels = np.fromfile(tmp_path / "s" / "target.bin", dtype=np.float32)
    assert np.mean(np.abs(labels) == 1) > 0.8
    assert cli("gen", "mse_loss_backward", "--shape", "4096", "--dtype", "float32", "--dir", tmp_path / "m").returncode == 0
    targets = np.fromfile(tmp_path / "m" / "target.bin", dtype=np.float32)
    assert np.mean(np.abs(targets) == 1) < 0.05 and targets.min() < -5 and targets.max() > 5
    gradients = np.fromfile(tmp_path / "m" / "grad_output.bin", dtype=np.float32)
    assert np.abs(gradients).max() <= 2


def test_parameters_from_the_table(tmp_path):
    x = np.linspace(-3, 3, 64, dtype=np.float32)
    x.tofile(tmp_path / "x.bin")
    np.zeros(64, np.float32).tofile(tmp_path / "y.bin")
    common = ["--self", f"{tmp_path / 'x.bin'}:float32:[64]", "--target", f"{tmp_path / 'y.bin'}:float32:[64]"]
    done = cli("run", "smooth_l1_loss", *common, "--reduction", "none", "--beta", "0.5", "--out", tmp_path / "o.bin")
    assert done.returncode == 0, done.stderr
    expected = aclnn_cpu.smooth_l1_loss(x, np.zeros(64, np.float32), reduction="none", beta=0.5)
    assert np.fromfile(tmp_path / "o.bin", dtype=np.float32).tobytes() == expected.tobytes()
    done = cli("run", "mse_loss", *common, "--beta", "0.5", "--out", tmp_path / "o.bin")
    assert done.returncode == 2 and "--beta" in done.stderr and "mse_loss has no parameter beta" in done.stderr
    done = cli("run", "smooth_l1_loss", *common, "--beta", "-1", "--out", tmp_path / "o.bin")
    assert done.returncode == 2 and "beta should be greater than or equal to 0" in done.stderr
    done = cli("run", "smooth_l1_loss", *common, "--beta", "wide", "--out", tmp_path / "o.bin")
    assert done.returncode == 2 and "--beta" in done.stderr and "not a number" in done.stderr
    done = cli("run", "mse_loss", *common, "--grad-output", f"{tmp_path / 'x.bin'}:float32:[64]", "--out",
               tmp_path / "o.bin")
    assert done.returncode == 2 and "mse_loss has no input grad_output" in done.stderr


def test_gen_is_reproducible_and_has_the_hard_values(tmp_path):
    for name in ("a", "b"):
        assert cli("gen", "soft_margin_loss", "--shape", "4096", "--dtype", "float32", "--seed", 5,
                   "--nonfinite", "--dir", tmp_path / name).returncode == 0
    assert (tmp_path / "a" / "self.bin").read_bytes() == (tmp_path / "b" / "self.bin").read_bytes()
    self_values = np.fromfile(tmp_path / "a" / "self.bin", dtype=np.float32)
    assert np.any(np.isnan(self_values)) and np.any(np.isinf(self_values))
    assert np.any(np.abs(self_values) == np.float32(88.72)) and np.any(self_values == 0)
    assert np.any((self_values != 0) & (np.abs(self_values) < 1.2e-38))  # subnormals


def test_compare_fails_with_exit_1_and_names_the_worst(tmp_path):
    golden = np.linspace(1, 2, 256, dtype=np.float32)
    actual = golden.copy()
    actual[17] *= np.float32(1.01)
    golden.tofile(tmp_path / "golden.bin")
    actual.tofile(tmp_path / "out.bin")
    done = cli("compare", tmp_path / "out.bin", tmp_path / "golden.bin", "--dtype", "float32")
    assert done.returncode == 1
    assert "FAIL" in done.stdout and "(17,)" in done.stdout


def test_run_out_dtype_suffix(tmp_path):
    x = np.linspace(-3, 3, 64, dtype=np.float16)
    x.tofile(tmp_path / "x.bin")
    np.ones(64, np.float16).tofile(tmp_path / "y.bin")
    done = cli("run", "soft_margin_loss", "--self", f"{tmp_path}/x.bin:float16:[64]", "--target",
               f"{tmp_path}/y.bin:float16:[64]", "--reduction", "none", "--out", f"{tmp_path}/o.bin:float32")
    assert done.returncode == 0, done.stderr
    assert os.path.getsize(tmp_path / "o.bin") == 64 * 4


def test_bad_inputs_exit_2_with_a_message(tmp_path):
    np.zeros(16, np.float16).tofile(tmp_path / "x.bin")
    x = f"{tmp_path}/x.bin"
    cases = [
        (("compare", x, tmp_path / "missing.bin", "--dtype", "float16"), "missing.bin does not exist"),
        (("compare", x, x, "--dtype", "float8"), "unknown dtype 'float8'"),
        (("compare", x, x, "--dtype", "float16", "--shape", "4,5"), "needs 40"),
        (("run", "soft_margin_loss", "--self", f"{x}:float16:[4,5]", "--target", f"{x}:float16:[16]", "--out",
          tmp_path / "o.bin"), "has 32 bytes, but float16 [4, 5] needs 40"),
        (("run", "soft_margin_loss", "--self", f"{x}:float16:[16]", "--target", f"{x}:half4:[16]", "--out",
          tmp_path / "o.bin"), "--target: unknown dtype"),
        (("run", "soft_margin_loss", "--self", f"{x}:float16", "--target", f"{x}:float16:[16]", "--out",
          tmp_path / "o.bin"), "is not PATH:DTYPE:[SHAPE]"),
        (("run", "soft_margin_loss", "--self", f"{x}:float16:[16]", "--out", tmp_path / "o.bin"),
         "needs --target"),
        (("run", "soft_margin_loss", "--self", f"{x}:float16:[16]", "--target", f"{x}:float16:[2,8]", "--out",
          tmp_path / "o.bin"), "161002"),
        (("run", "soft_margin_loss", "--self", f"{x}:float16:[16]", "--target", f"{x}:float16:[16]",
          "--reduction", "avg", "--out", tmp_path / "o.bin"), "--reduction"),
        (("frobnicate",), "invalid choice"),
    ]
    for args, message in cases:
        done = cli(*args)
        assert done.returncode == 2, (args, done.stdout, done.stderr)
        assert message in done.stderr, (args, done.stderr)
    assert not (tmp_path / "o.bin").exists()
