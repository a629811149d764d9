"""aclnn_cpu.torch for the table's operators along a dim: F.softmax and F.log_softmax (aten::_softmax,
_log_softmax) and their gradients (aten::_softmax_backward_data, _log_softmax_backward_data) give the package's
bits -- CANN's arithmetic -- for each dtype and dim, through autograd to the second order and out=; PyTorch's own
kernel for what the rows cannot take (float64, half_to_float, a dim outside the rank, more than 8 dims)."""
import numpy as np
import pytest

import aclnn_cpu
from aclnn_cpu._operators import OPERATORS

torch = pytest.importorskip("torch", reason="PyTorch (python3-torch) is not installed")
import aclnn_cpu.torch as override  # noqa: E402
from torch_support import disabled_after  # noqa: E402,F401 -- the fixture applies to every test

F = torch.nn.functional
DTYPES = [torch.float32, torch.float16, torch.bfloat16]
# The rows along a dim that serve aten, by the aten operator (the forwards and the gradients they record).
ALONG_DIM = {info.aten_name: name for name, info in OPERATORS.items()
             if info.iteration == "along_dim" and info.aten_name}
FORWARDS = {"softmax": F.softmax, "log_softmax": F.log_softmax}


def package(name, *tensors, dim):
    """The package's result for torch tensors (through DLPack), as a torch tensor."""
    return torch.from_dlpack(getattr(aclnn_cpu, name)(*tensors, dim=dim))


def same_bits(a, b):
    return a.dtype == b.dtype and a.shape == b.shape and torch.equal(a.view(torch.int16 if a.element_size() == 2
                                                                           else torch.int32),
                                                                    b.view(torch.int16 if b.element_size() == 2
                                                                           else torch.int32))


def test_the_rows_serve_the_aten_operators_pytorch_maps():
    assert set(ALONG_DIM) == {"_softmax", "_log_softmax", "_softmax_backward_data", "_log_softmax_backward_data"}
    override.enable()
    for aten_name in ALONG_DIM:
        assert f"aten::{aten_name}" not in override.unregistered
        assert torch._C._dispatch_has_kernel_for_dispatch_key(f"aten::{aten_name}", "BackendSelect")


@pytest.mark.parametrize("name", sorted(FORWARDS))
@pytest.mark.parametrize("dtype", DTYPES, ids=str)
def test_forward_and_gradient_are_the_packages(name, dtype):
    generator = torch.Generator().manual_seed(DTYPES.index(dtype) * 7 + len(name))
    x = (torch.randn((6, 33, 5), generator=generator) * 4).to(dtype)
    g = torch.randn((6, 33, 5), generator=generator).to(dtype)
    for dim in (-1, 0, 1, 2, -3):
        with override.enabled():
            leaf = x.clone().requires_grad_()
            y = FORWARDS[name](leaf, dim=dim)
            (gradient,) = torch.autograd.grad(y, leaf, g)
        expected = package(name, x, dim=dim)
        assert same_bits(y.detach(), expected), (name, dim)
        expected_gradient = package(name + "_backward", g, expected, dim=dim)
        assert same_bits(gradient, expected_gradient), (name, dim)
        # And PyTorch's own arithmetic is close (fp32 steps in another order).
        reference = FORWARDS[name](x.float(), dim=dim)
        tolerance = 1e-5 if dtype == torch.float32 else 2e-2
        assert torch.allclose(y.detach().float(), reference, rtol=tolerance, atol=tolerance)


@pytest.mark.parametrize("name", sorted(FORWARDS))
def test_double_backward_and_out(name):
    generator = torch.Generator().manual_seed(11)
    x = torch.randn((4, 9), generator=generator)
    with override.enabled():
        leaf = x.clone().requires_grad_()
        y = FORWARDS[name](leaf, dim=1)
        (gradient,) = torch.autograd.grad(y.sum() if name == "log_softmax" else (y * y).sum(), leaf,
                                          create_graph=True)
        (second,) = torch.autograd.grad(gradient.square().sum(), leaf)
        out = torch.empty(0)
        returned = getattr(torch.ops.aten, "_" + name).out(x, 1, False, out=out)
    leaf = x.clone().requires_grad_()
    y_pytorch = FORWARDS[name](leaf, dim=1)
    objective = y_pytorch.sum() if name == "log_softmax" else (y_pytorch * y_pytorch).sum()
    (gradient_pytorch,) = torch.autograd.grad(objective, leaf, create_graph=True)
    (second_pytorch,) = torch.autograd.grad(gradient_pytorch.square().sum(), leaf)
    assert torch.allclose(second, second_pytorch, rtol=1e-4, atol=1e-5)
    assert returned is out and same_bits(out, package(name, x, dim=1))


def test_what_the_rows_cannot_take_is_pytorchs():
    x = torch.randn((3, 4), dtype=torch.float64)
    with override.enabled():
        assert torch.equal(F.softmax(x, dim=1), torch.softmax(x.clone(), dim=1))  # float64: PyTorch's kernel
        with pytest.raises(IndexError):
            F.log_softmax(x.float(), dim=2)  # PyTorch's own error
        nine = torch.randn((1,) * 8 + (5,))
        assert torch.allclose(F.softmax(nine, dim=-1), torch.softmax(nine.double(), dim=-1).float())
        # half_to_float (CUDA's fused widening; CANN's op_api has no such argument) is PyTorch's, which refuses
        # it on a CPU.
        with pytest.raises(RuntimeError, match="half to float"):
            torch.ops.aten._softmax(torch.randn((2, 5)).half(), 1, True)


def test_a_classifier_trains_alike_with_and_without_the_override():
    """Ten steps of a linear classifier with log_softmax + nll_loss: the override changes the arithmetic by fp32
    steps only."""
    def train(enabled):
        generator = torch.Generator().manual_seed(3)
        x = torch.randn((64, 20), generator=generator)
        labels = torch.randint(0, 7, (64,), generator=generator)
        model = torch.nn.Linear(20, 7)
        with torch.no_grad():
            model.weight.copy_(torch.randn((7, 20), generator=generator) * 0.1)
            model.bias.zero_()
        optimizer = torch.optim.SGD(model.parameters(), lr=0.5)
        losses = []
        for _ in range(10):
            optimizer.zero_grad()
            if enabled:
                with override.enabled():
                    loss = F.nll_loss(F.log_softmax(model(x), dim=1), labels)
                    loss.backward()
            else:
                loss = F.nll_loss(F.log_softmax(model(x), dim=1), labels)
                loss.backward()
            optimizer.step()
            losses.append(loss.item())
        return np.array(losses)
    assert np.allclose(train(True), train(False), rtol=1e-4)


def test_functorch_transforms_reach_the_kernels():
    """vmap's batched call and grad's wrapped tensors run the same kernels: the package's bits."""
    functorch = pytest.importorskip("functorch")
    x = torch.randn((3, 4, 7), generator=torch.Generator().manual_seed(5))
    with override.enabled():
        batched = functorch.vmap(lambda t: F.log_softmax(t, dim=-1))(x)
        gradient = functorch.grad(lambda t: F.softmax(t, dim=0)[1, 2, 3])(x)
    assert same_bits(batched, package("log_softmax", x, dim=-1))
    one_hot = torch.zeros_like(x)
    one_hot[1, 2, 3] = 1
    assert same_bits(gradient, package("softmax_backward", one_hot, package("softmax", x, dim=0), dim=0))
