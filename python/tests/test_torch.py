"""The DLPack path with PyTorch (Debian's python3-torch): torch in, torch out, the same bits as numpy in."""
import numpy as np
import pytest

import aclnn_cpu

torch = pytest.importorskip("torch", reason="PyTorch (python3-torch) is not installed")

TORCH_TYPES = {"float32": torch.float32, "float16": torch.float16, "bfloat16": torch.bfloat16}


def numpy_twin(tensor):
    """The same elements as numpy / Bfloat16 storage."""
    if tensor.dtype == torch.bfloat16:
        return aclnn_cpu.Bfloat16(tensor.contiguous().view(torch.int16).numpy().view(np.uint16))
    return tensor.contiguous().numpy()


def storage_bytes(result):
    if isinstance(result, torch.Tensor):
        return result.contiguous().view(torch.uint8).numpy().tobytes() if result.dim() else \
            result.reshape(1).view(torch.uint8).numpy().tobytes()
    storage = result.bits if isinstance(result, aclnn_cpu.Bfloat16) else np.asarray(result)
    return np.ascontiguousarray(storage).tobytes()


@pytest.mark.parametrize("dtype", sorted(TORCH_TYPES))
@pytest.mark.parametrize("reduction", ["none", "mean", "sum"])
def test_torch_in_torch_out_same_bits_as_numpy(dtype, reduction):
    generator = torch.Generator().manual_seed(7)
    x = (torch.rand(32, 48, generator=generator) * 20 - 10).to(TORCH_TYPES[dtype])
    y = torch.where(torch.rand(48, generator=generator) < 0.5, -1.0, 1.0).to(TORCH_TYPES[dtype])
    g = torch.rand(32, 48, generator=generator).to(TORCH_TYPES[dtype])
    for function, args in ((aclnn_cpu.soft_margin_loss, (x, y)), (aclnn_cpu.soft_margin_loss_backward, (g, x, y))):
        got = function(*args, reduction=reduction)
        assert isinstance(got, torch.Tensor) and got.dtype == TORCH_TYPES[dtype]
        expected = function(*(numpy_twin(a) for a in args), reduction=reduction)
        assert storage_bytes(got) == storage_bytes(expected)


def test_torch_non_contiguous_and_mixed_dtypes():
    generator = torch.Generator().manual_seed(8)
    x = (torch.rand(40, 24, generator=generator) * 20 - 10).to(torch.bfloat16).t()  # transposed view
    y = torch.where(torch.rand(24, 1, generator=generator) < 0.5, -1.0, 1.0).to(torch.float16)
    got = aclnn_cpu.soft_margin_loss(x, y, reduction="none")
    assert got.dtype == torch.float32 and tuple(got.shape) == (24, 40)
    expected = aclnn_cpu.soft_margin_loss(numpy_twin(x), numpy_twin(y), reduction="none")
    assert storage_bytes(got) == storage_bytes(expected)
    as_bf16 = aclnn_cpu.soft_margin_loss(x, y, reduction="none", out_dtype=torch.bfloat16)
    assert as_bf16.dtype == torch.bfloat16


def test_torch_matches_torch_within_cann_precision():
    """torch's own soft_margin_loss (float64) as an outside golden, judged by CANN's standard."""
    generator = torch.Generator().manual_seed(9)
    x = torch.rand(64, 256, generator=generator) * 10 - 5
    y = torch.where(torch.rand(64, 256, generator=generator) < 0.5, -1.0, 1.0)
    golden = torch.nn.functional.soft_margin_loss(x.double(), y.double(), reduction="none").float()
    result = aclnn_cpu.compare(aclnn_cpu.soft_margin_loss(x, y, reduction="none"), golden)
    assert result.passed, result.report()


def test_torch_errors():
    with pytest.raises(aclnn_cpu.AclnnError) as error:
        aclnn_cpu.soft_margin_loss(torch.zeros(3, 4), torch.zeros(5))
    assert error.value.status == 161002
    # An integer tensor reaches the C API, which names its dtype (as for numpy's); a complex one has no aclDataType.
    with pytest.raises(aclnn_cpu.AclnnError, match="DT_INT32"):
        aclnn_cpu.soft_margin_loss(torch.zeros(3, dtype=torch.int32), torch.zeros(3))
    with pytest.raises(TypeError, match="DLPack type"):
        aclnn_cpu.soft_margin_loss(torch.zeros(3, dtype=torch.complex64), torch.zeros(3))
