"""What the aclnn_cpu.torch tests share."""
import pytest

torch = pytest.importorskip("torch", reason="PyTorch (python3-torch) is not installed")
import aclnn_cpu.torch as override  # noqa: E402


def storage_bytes(tensor):
    """A tensor's elements as bytes, from a copy: in PyTorch 1.13 a storage that .numpy() has shared is no longer
    resizable, and the tests go on to resize results."""
    return tensor.detach().clone().contiguous().reshape(-1).view(torch.uint8).numpy().tobytes()


@pytest.fixture(autouse=True)
def disabled_after():
    """Each test leaves the override off, whatever it did."""
    yield
    override.disable()
