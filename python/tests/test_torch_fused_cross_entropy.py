"""aclnn_cpu.torch's opt-in fused cross-entropy: with enable(fused_cross_entropy=True), F.cross_entropy and
nn.CrossEntropyLoss give aclnnCrossEntropyLoss's loss and aclnnCrossEntropyLossGrad's gradient (the package's
bits), where the fused kernels take the call; PyTorch's F.cross_entropy (through the override's log_softmax and
nll_loss) otherwise; never by default. A language-model head and a classifier train alike with it and without the
override."""
import os

import numpy as np
import pytest

import aclnn_cpu

torch = pytest.importorskip("torch", reason="PyTorch (python3-torch) is not installed")
import aclnn_cpu.torch as override  # noqa: E402
from torch_support import disabled_after  # noqa: E402,F401 -- the fixture applies to every test

F = torch.nn.functional


def same_bits(a, b):
    view = torch.int16 if a.element_size() == 2 else torch.int32
    return a.dtype == b.dtype and a.shape == b.shape and torch.equal(a.reshape(-1).view(view), b.reshape(-1).view(view))


@pytest.fixture
def atlas_a2():
    """Atlas A2's SoC for the test (its gradient ignores a negative ignore_index, and has no label smoothing)."""
    os.environ["ACLNN_CPU_SOC_NAME"] = "Ascend910B1"
    yield
    del os.environ["ACLNN_CPU_SOC_NAME"]


def problem(seed, rows=24, classes=9):
    generator = torch.Generator().manual_seed(seed)
    x = torch.randn((rows, classes), generator=generator) * 3
    target = torch.randint(0, classes, (rows,), generator=generator)
    weight = torch.rand((classes,), generator=generator) + 0.5
    return x, target, weight


def test_the_fused_kernels_are_an_opt_in():
    x, target, _ = problem(1)
    fused, _ = aclnn_cpu.cross_entropy_loss(x, target)
    with override.enabled():
        default = F.cross_entropy(x, target)
    with override.enabled(fused_cross_entropy=True):
        opted_in = F.cross_entropy(x, target)
        module = torch.nn.CrossEntropyLoss()(x, target)
    assert same_bits(opted_in, fused) and same_bits(module, fused)
    log_probabilities = torch.from_dlpack(aclnn_cpu.log_softmax(x, dim=1))
    assert same_bits(default, aclnn_cpu.nll_loss(log_probabilities, target, torch.ones(9))[0])  # the two calls


@pytest.mark.parametrize("reduction", ["none", "mean", "sum"])
@pytest.mark.parametrize("weighted", [False, True])
@pytest.mark.parametrize("smoothing", [0.0, 0.3])
def test_loss_and_gradient_are_the_fused_kernels(reduction, weighted, smoothing):
    x, target, weight = problem(2)
    target[::5] = 3  # ignored
    w = weight if weighted else None
    with override.enabled(fused_cross_entropy=True):
        leaf = x.clone().requires_grad_()
        loss = F.cross_entropy(leaf, target, w, ignore_index=3, reduction=reduction, label_smoothing=smoothing)
        grad_loss = torch.linspace(-1, 1, loss.numel()).reshape(loss.shape)
        loss.backward(grad_loss)
    expected, log_prob = aclnn_cpu.cross_entropy_loss(x, target, w, reduction=reduction, ignore_index=3,
                                                      label_smoothing=smoothing)
    assert same_bits(loss.detach(), expected)
    gradient = aclnn_cpu.cross_entropy_loss_grad(grad_loss, log_prob, target, w, reduction=reduction, ignore_index=3,
                                                 label_smoothing=smoothing)
    assert same_bits(leaf.grad, gradient)
    pytorch = F.cross_entropy(x, target, w, ignore_index=3, reduction=reduction, label_smoothing=smoothing)
    torch.testing.assert_close(loss.detach(), pytorch, rtol=1e-5, atol=1e-6)


def test_what_the_fused_kernels_do_not_take_is_pytorchs(atlas_a2):
    x, target, weight = problem(3)
    with override.enabled(fused_cross_entropy=True):
        # N-d inputs, class probabilities, the legacy arguments: PyTorch's F.cross_entropy, served by the override.
        images = torch.randn((2, 4, 3, 3))
        labels = torch.randint(0, 4, (2, 3, 3))
        with override.enabled():
            unfused = F.cross_entropy(images, labels)
        assert same_bits(F.cross_entropy(images, labels), unfused)
        probabilities = torch.softmax(torch.randn(x.shape), dim=1)
        torch.testing.assert_close(F.cross_entropy(x, probabilities),
                                   -(probabilities * torch.log_softmax(x, dim=1)).sum(1).mean())
        with override.enabled():
            unfused_sum = F.cross_entropy(x, target, reduction="sum")
        assert same_bits(F.cross_entropy(x, target, size_average=False), unfused_sum)
        # A target outside the classes: PyTorch's error.
        bad = target.clone()
        bad[0] = 9
        with pytest.raises(IndexError):
            F.cross_entropy(x, bad)
        # Atlas A2's gradient has no label smoothing: with a gradient to take, the override's log_softmax + nll_loss.
        leaf = x.clone().requires_grad_()
        smoothed = F.cross_entropy(leaf, target, label_smoothing=0.2)
        with override.enabled():
            assert same_bits(smoothed.detach(), F.cross_entropy(x, target, label_smoothing=0.2))
        # Padding under -100 is ignored there, forward and backward.
        padded = target.clone()
        padded[-4:] = -100
        loss = F.cross_entropy(leaf, padded)
        expected, _ = aclnn_cpu.cross_entropy_loss(x, padded)
        assert same_bits(loss.detach(), expected)


def test_pytorchs_rules_and_modes_stay_pytorchs():
    original = F.cross_entropy
    x, target, weight = problem(6)
    with override.enabled(fused_cross_entropy=True):
        assert F.cross_entropy is not original
        # A weight of another dtype than the input: PyTorch's error, whatever the targets.
        with pytest.raises(RuntimeError):
            F.cross_entropy(x.bfloat16(), target, weight)
        # Autocast, forward-mode AD: PyTorch's F.cross_entropy (through the override's operators).
        with torch.autocast("cpu", dtype=torch.bfloat16):
            assert F.cross_entropy(x, target).dtype == torch.float32
        import torch.autograd.forward_ad as forward_ad
        with forward_ad.dual_level():
            dual = forward_ad.make_dual(x, torch.ones_like(x))
            assert forward_ad.unpack_dual(F.cross_entropy(dual, target)).tangent is not None
        # float16 with create_graph: CANN's gradient, the second derivative from PyTorch's formula in float32.
        half = x.half().requires_grad_()
        (gradient,) = torch.autograd.grad(F.cross_entropy(half, target), half, create_graph=True)
        assert gradient.dtype == torch.float16 and gradient.requires_grad
        # Every sample ignored under mean: the loss 0/0 and, as CANN's kernels divide by it, a NaN gradient.
        leaf = x.clone().requires_grad_()
        ignored = torch.full_like(target, 3)
        loss = F.cross_entropy(leaf, ignored, ignore_index=3)
        loss.backward()
        assert torch.isnan(loss) and torch.isnan(leaf.grad).all()
        override.enable()  # leaves the opt-in as it is
        assert F.cross_entropy is not original
    assert F.cross_entropy is original  # PyTorch's own again


def test_ascend_950s_gradient_ignores_no_negative_index():
    x, target, _ = problem(4)
    padded = target.clone()
    padded[-4:] = -100
    with override.enabled(fused_cross_entropy=True):
        forward_only = F.cross_entropy(x, padded)  # its forward ignores -100: fused
        assert same_bits(forward_only, aclnn_cpu.cross_entropy_loss(x, padded)[0])
        leaf = x.clone().requires_grad_()
        loss = F.cross_entropy(leaf, padded)  # a gradient to take: the override's log_softmax + nll_loss
        loss.backward()
        with override.enabled():
            reference = x.clone().requires_grad_()
            F.cross_entropy(reference, padded).backward()
        assert same_bits(leaf.grad, reference.grad)


def test_double_backward_and_functorch():
    import functorch

    x, target, weight = problem(5)
    with override.enabled(fused_cross_entropy=True):
        leaf = x.clone().requires_grad_()
        loss = F.cross_entropy(leaf, target, weight)
        (gradient,) = torch.autograd.grad(loss, leaf, create_graph=True)
        expected = aclnn_cpu.cross_entropy_loss_grad(torch.tensor(1.0), aclnn_cpu.cross_entropy_loss(
            x, target, weight)[1], target, weight)
        assert torch.equal(gradient.detach(), expected)  # CANN's values
        (second,) = torch.autograd.grad((gradient * gradient).sum(), leaf)
        batched = functorch.vmap(lambda row, t: F.cross_entropy(row[None], t[None]))(x, target)
    pytorch_leaf = x.clone().requires_grad_()
    (pytorch_gradient,) = torch.autograd.grad(F.cross_entropy(pytorch_leaf, target, weight), pytorch_leaf,
                                              create_graph=True)
    (pytorch_second,) = torch.autograd.grad((pytorch_gradient * pytorch_gradient).sum(), pytorch_leaf)
    torch.testing.assert_close(second, pytorch_second, rtol=1e-4, atol=1e-6)  # PyTorch's formula's derivative
    torch.testing.assert_close(batched, F.cross_entropy(x, target, reduction="none"))


@pytest.fixture
def fused_calls(monkeypatch):
    """The number of fused forward calls made, as a one-element list."""
    from aclnn_cpu import _fused_cross_entropy

    calls = [0]
    forward = _fused_cross_entropy._operators.cross_entropy_loss

    def counted(*args, **kwargs):
        calls[0] += 1
        return forward(*args, **kwargs)

    monkeypatch.setattr(_fused_cross_entropy._operators, "cross_entropy_loss", counted)
    return calls


def train(mode, make_model, batches, steps, lr):
    """`steps` steps of SGD on F.cross_entropy: PyTorch's (mode None), or the override fused; the losses."""
    torch.manual_seed(0)
    model = make_model()
    optimizer = torch.optim.SGD(model.parameters(), lr=lr)
    losses = []
    with override.enabled(mode is not None, fused_cross_entropy=mode == "fused"):
        for step in range(steps):
            inputs, labels = batches[step % len(batches)]
            optimizer.zero_grad()
            loss = F.cross_entropy(model(inputs), labels)
            loss.backward()
            optimizer.step()
            losses.append(loss.item())
    return np.array(losses)


def test_a_language_model_head_trains_alike_fused(atlas_a2, fused_calls):
    """200 steps of an embedding, a linear layer and the fused cross-entropy over a 32K vocabulary (next-token
    labels, padding ignored: Atlas A2's gradient ignores -100)."""
    vocabulary, width = 32768, 16
    generator = torch.Generator().manual_seed(1)
    batches = []
    for _ in range(4):
        tokens = torch.randint(0, vocabulary, (33,), generator=generator)
        labels = tokens[1:].clone()
        labels[-3:] = -100
        batches.append((tokens[:-1], labels))

    def make_model():
        return torch.nn.Sequential(torch.nn.Embedding(vocabulary, width), torch.nn.Linear(width, vocabulary))

    fused = train("fused", make_model, batches, 200, lr=0.5)
    assert fused_calls[0] == 200
    pytorch = train(None, make_model, batches, 200, lr=0.5)
    assert fused[-1] < fused[0] / 2  # it learns
    assert np.allclose(fused, pytorch, rtol=1e-3, atol=1e-4)


def test_a_classifier_trains_alike_fused(fused_calls):
    generator = torch.Generator().manual_seed(2)
    batches = [(torch.randn((64, 20), generator=generator), torch.randint(0, 7, (64,), generator=generator))]

    def make_model():
        return torch.nn.Sequential(torch.nn.Linear(20, 32), torch.nn.Tanh(), torch.nn.Linear(32, 7))

    fused = train("fused", make_model, batches, 200, lr=0.2)
    assert fused_calls[0] == 200
    assert np.allclose(fused, train(None, make_model, batches, 200, lr=0.2), rtol=1e-3, atol=1e-5)
