"""The fused cross-entropy from Python (Ascend 950's arithmetic, the default SoC): class-index targets from numpy and DLPack, the written outputs (loss and
logProb), every reduction, weights, ignore_index and label smoothing, against PyTorch's F.cross_entropy and the
gradient PyTorch's autograd gives (the same formula; the sums in another order); a refused call raises with its
status."""
import numpy as np
import pytest

import aclnn_cpu

try:
    import torch
    F = torch.nn.functional
except ImportError:  # the tests against PyTorch skip; the others run
    torch = None
needs_torch = pytest.mark.skipif(torch is None, reason="PyTorch (python3-torch) is not installed")


def problem(seed, rows=48, classes=11, ignore_index=3):
    rng = np.random.default_rng(seed)
    logits = rng.normal(0, 3, (rows, classes)).astype(np.float32)
    target = rng.integers(0, classes, rows)
    target[rng.random(rows) < 0.2] = ignore_index
    weight = rng.uniform(0.5, 2, classes).astype(np.float32)
    return logits, target, weight


@needs_torch
@pytest.mark.parametrize("reduction", ["none", "mean", "sum"])
@pytest.mark.parametrize("weighted", [False, True])
@pytest.mark.parametrize("smoothing", [0.0, 0.25])
def test_forward_matches_pytorch(reduction, weighted, smoothing):
    logits, target, weight = problem(1)
    w = weight if weighted else None
    loss, log_prob = aclnn_cpu.cross_entropy_loss(logits, target, w, reduction=reduction, ignore_index=3,
                                                  label_smoothing=smoothing)
    x = torch.tensor(logits)
    np.testing.assert_allclose(log_prob, F.log_softmax(x, dim=1).numpy(), rtol=2e-6, atol=2e-6)
    expected = F.cross_entropy(x, torch.tensor(target), None if w is None else torch.tensor(w),
                               reduction=reduction, ignore_index=3, label_smoothing=smoothing)
    if reduction == "none" and smoothing > 0:
        # PyTorch smooths ignored samples' terms away too; CANN's kernels zero an ignored sample's loss.
        expected = torch.where(torch.tensor(target) == 3, torch.zeros_like(expected), expected)
    np.testing.assert_allclose(loss, expected.numpy(), rtol=1e-5, atol=1e-6)


@needs_torch
def test_gradient_matches_autograd():
    logits, target, weight = problem(2)
    x = torch.tensor(logits, requires_grad=True)
    loss = F.cross_entropy(x, torch.tensor(target), torch.tensor(weight), ignore_index=3)
    loss.backward()
    _, log_prob = aclnn_cpu.cross_entropy_loss(logits, target, weight, ignore_index=3)
    grad = aclnn_cpu.cross_entropy_loss_grad(np.float32(1.0), log_prob, target, weight, ignore_index=3)
    np.testing.assert_allclose(grad, x.grad.numpy(), rtol=1e-5, atol=1e-7)


@needs_torch
def test_targets_from_dlpack_and_results_in_the_callers_kind():
    logits, target, _ = problem(3, ignore_index=0)
    loss, log_prob = aclnn_cpu.cross_entropy_loss(torch.tensor(logits), torch.tensor(target), reduction="sum")
    assert isinstance(loss, torch.Tensor) and loss.dtype == torch.float32
    assert log_prob.shape == (48, 11)
    torch.testing.assert_close(loss.reshape(()), F.cross_entropy(torch.tensor(logits), torch.tensor(target),
                                                                 reduction="sum"))


def test_a_refused_call_raises_with_its_status():
    logits, target, _ = problem(4)
    with pytest.raises(aclnn_cpu.AclnnError) as error:
        aclnn_cpu.cross_entropy_loss(logits, target, label_smoothing=1.5)
    assert error.value.status == 561002 and "label_smoothing" in str(error.value)
    target[5] = 11  # outside the classes: the kernel fails before writing anything
    with pytest.raises(aclnn_cpu.AclnnError) as error:
        aclnn_cpu.cross_entropy_loss(logits, target)
    assert error.value.status == 161002 and "Target 11 at [5]" in str(error.value)
