"""The NLL losses from Python: class-index targets from numpy and DLPack, the two outputs, every reduction and
ignore_index, against PyTorch's nll_loss and its gradient (the same formula; the sums in another order)."""
import numpy as np
import pytest

import aclnn_cpu

torch = pytest.importorskip("torch", reason="PyTorch (python3-torch) is not installed")
F = torch.nn.functional


def log_probabilities(rng, shape):
    logits = torch.tensor(rng.normal(0, 3, shape), dtype=torch.float32)
    return F.log_softmax(logits, dim=1)


def targets_with_ignored(rng, shape, classes, ignore_index=-100):
    target = rng.integers(0, classes, shape)
    target[rng.random(shape) < 0.2] = ignore_index
    return target


@pytest.mark.parametrize("reduction", ["none", "mean", "sum"])
@pytest.mark.parametrize("target_type", [np.int64, np.int32, np.uint8])
def test_nll_loss_matches_pytorch(reduction, target_type):
    rng = np.random.default_rng(1)
    x = log_probabilities(rng, (64, 10))
    ignore = 7 if target_type == np.uint8 else -100
    target = targets_with_ignored(rng, 64, 10, ignore).astype(target_type)
    weight = torch.tensor(rng.uniform(0.5, 2, 10), dtype=torch.float32)
    out, total_weight = aclnn_cpu.nll_loss(x.numpy(), target, weight.numpy(), reduction=reduction,
                                           ignore_index=ignore)
    expected = F.nll_loss(x, torch.tensor(target.astype(np.int64)), weight, reduction=reduction, ignore_index=ignore)
    if reduction == "none":
        np.testing.assert_array_equal(out, expected.numpy())  # -(w * x), one fp32 product each
        assert total_weight == 0  # not written for none
    else:
        np.testing.assert_allclose(out, expected.numpy(), rtol=2e-6)
        counted = target != ignore
        np.testing.assert_allclose(total_weight, weight.numpy()[target[counted].astype(np.int64)].sum(), rtol=1e-6)


def test_targets_from_dlpack_and_results_in_the_callers_kind():
    rng = np.random.default_rng(2)
    x = log_probabilities(rng, (16, 5))
    for dtype in (torch.int64, torch.int32, torch.uint8):
        target = torch.tensor(rng.integers(0, 5, 16)).to(dtype)
        out, total_weight = aclnn_cpu.nll_loss(x, target, torch.ones(5), reduction="sum")
        assert isinstance(out, torch.Tensor) and out.dtype == torch.float32 and out.shape == ()
        assert total_weight.item() == 16
        torch.testing.assert_close(out, F.nll_loss(x, target.long(), reduction="sum"))


def test_nll_loss2d_and_its_gradient_match_pytorch():
    rng = np.random.default_rng(3)
    x = log_probabilities(rng, (2, 4, 3, 5)).requires_grad_()
    target = torch.tensor(targets_with_ignored(rng, (2, 3, 5), 4))
    weight = torch.tensor(rng.uniform(0.5, 2, 4), dtype=torch.float32)
    out, total_weight = aclnn_cpu.nll_loss2d(x.detach(), target, weight)
    expected = F.nll_loss(x, target, weight)
    torch.testing.assert_close(out, expected.detach())
    expected.backward()
    gradient = aclnn_cpu.nll_loss2d_backward(torch.tensor(1.0), x.detach(), target, weight, total_weight.reshape(1))
    torch.testing.assert_close(gradient, x.grad)


@pytest.mark.parametrize("reduction", ["none", "mean", "sum"])
def test_nll_loss_backward_matches_pytorchs_gradient(reduction):
    rng = np.random.default_rng(4)
    x = log_probabilities(rng, (32, 6)).requires_grad_()
    target = torch.tensor(targets_with_ignored(rng, 32, 6))
    weight = torch.tensor(rng.uniform(0.5, 2, 6), dtype=torch.float32)
    loss = F.nll_loss(x, target, weight, reduction=reduction)
    grad_output = torch.tensor(rng.uniform(-2, 2, loss.shape), dtype=torch.float32)
    loss.backward(grad_output)
    _, total_weight = aclnn_cpu.nll_loss(x.detach(), target, weight, reduction="sum")
    gradient = aclnn_cpu.nll_loss_backward(grad_output, x.detach(), target, weight, total_weight.reshape(1),
                                           reduction=reduction)
    torch.testing.assert_close(gradient, x.grad)
    assert (gradient[target == -100] == 0).all()


def test_a_target_outside_the_classes_raises_with_the_status():
    x = np.zeros((3, 4), np.float32)
    with pytest.raises(aclnn_cpu.AclnnError, match=r"Target 4 at \[1\] of target is out of bounds") as error:
        aclnn_cpu.nll_loss(x, np.array([0, 4, 1]), np.ones(4, np.float32))
    assert error.value.status == 161002
    with pytest.raises(aclnn_cpu.AclnnError, match="Tensor target not implemented for DT_FLOAT"):
        aclnn_cpu.nll_loss(x, np.zeros(3, np.float32), np.ones(4, np.float32))
