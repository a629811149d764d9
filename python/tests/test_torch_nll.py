"""aclnn_cpu.torch for the NLL losses: F.nll_loss, F.cross_entropy, nn.NLLLoss and nn.CrossEntropyLoss reach
aten::nll_loss_forward / nll_loss2d_forward and their backward functions (what torch_npu maps to aclnnNLLLoss,
aclnnNLLLoss2d and their gradients), which give the package's bits -- CANN's arithmetic -- with weights,
ignore_index, label smoothing and N-d inputs, through autograd to the second order, functorch and out=; PyTorch's
own kernel (and its errors) for what the rows cannot take. A classifier and a language-model head over a 32K
vocabulary train alike with and without the override."""
import numpy as np
import pytest

import aclnn_cpu

torch = pytest.importorskip("torch", reason="PyTorch (python3-torch) is not installed")
import aclnn_cpu.torch as override  # noqa: E402
from torch_support import disabled_after  # noqa: E402,F401 -- the fixture applies to every test

F = torch.nn.functional
NLL_ATEN = ["nll_loss_forward", "nll_loss_backward", "nll_loss2d_forward", "nll_loss2d_backward"]


def same_bits(a, b):
    view = torch.int16 if a.element_size() == 2 else torch.int32
    return a.dtype == b.dtype and a.shape == b.shape and torch.equal(a.view(view), b.view(view))


def package_cross_entropy(x, target, weight, reduction, ignore_index=-100):
    """log_softmax then nll_loss through the package: the two CANN calls torch_npu makes."""
    log_probabilities = torch.from_dlpack(aclnn_cpu.log_softmax(x, dim=1))
    loss, total_weight = aclnn_cpu.nll_loss2d(log_probabilities, target, weight, reduction=reduction,
                                              ignore_index=ignore_index) if x.dim() == 4 else aclnn_cpu.nll_loss(
        log_probabilities, target, weight, reduction=reduction, ignore_index=ignore_index)
    return log_probabilities, loss, total_weight


def test_the_rows_serve_the_aten_operators_pytorch_maps():
    override.enable()
    for aten_name in NLL_ATEN:
        for overload in ("", ".output" if "forward" in aten_name else ".grad_input"):
            assert f"aten::{aten_name}{overload}" not in override.unregistered
        assert torch._C._dispatch_has_kernel_for_dispatch_key(f"aten::{aten_name}", "BackendSelect")


@pytest.mark.parametrize("reduction", ["none", "mean", "sum"])
@pytest.mark.parametrize("shape", [(32, 11), (4, 6, 3, 5)], ids=["2d", "4d"])
@pytest.mark.parametrize("weighted", [False, True])
def test_cross_entropy_and_its_gradient_are_the_packages(reduction, shape, weighted):
    generator = torch.Generator().manual_seed(len(shape) * 10 + weighted)
    x = torch.randn(shape, generator=generator) * 3
    classes = shape[1]
    target_shape = (shape[0],) + shape[2:]
    target = torch.randint(0, classes, target_shape, generator=generator)
    target.view(-1)[::5] = 3  # the ignored class
    weight = torch.rand(classes, generator=generator) + 0.5 if weighted else None
    with override.enabled():
        leaf = x.clone().requires_grad_()
        loss = F.cross_entropy(leaf, target, weight=weight, ignore_index=3, reduction=reduction)
        incoming = torch.randn(loss.shape, generator=generator)
        (gradient,) = torch.autograd.grad(loss, leaf, incoming)
    ones = torch.ones(classes)
    log_probabilities, expected, total_weight = package_cross_entropy(
        x, target, weight if weighted else ones, reduction, ignore_index=3)
    assert same_bits(loss.detach(), expected)
    backward = aclnn_cpu.nll_loss2d_backward if x.dim() == 4 else aclnn_cpu.nll_loss_backward
    nll_gradient = backward(incoming, log_probabilities, target, weight if weighted else ones,
                            total_weight.reshape(1), reduction=reduction, ignore_index=3)
    expected_gradient = torch.from_dlpack(aclnn_cpu.log_softmax_backward(nll_gradient, log_probabilities, dim=1))
    assert same_bits(gradient, expected_gradient)
    # PyTorch's own arithmetic is close (fp32 steps in another order).
    reference = F.cross_entropy(x, target, weight=weight, ignore_index=3, reduction=reduction)
    assert torch.allclose(loss.detach(), reference, rtol=1e-5, atol=1e-6)


def test_modules_label_smoothing_and_half():
    generator = torch.Generator().manual_seed(7)
    x = torch.randn((16, 9), generator=generator)
    target = torch.randint(0, 9, (16,), generator=generator)
    with override.enabled():
        nll = torch.nn.NLLLoss()(F.log_softmax(x, dim=1), target)
        smoothed = torch.nn.CrossEntropyLoss(label_smoothing=0.2)(x, target)
        half = F.nll_loss(F.log_softmax(x, dim=1).half(), target)  # PyTorch's CPU kernel has no FLOAT16; CANN does
    assert same_bits(nll, package_cross_entropy(x, target, torch.ones(9), "mean")[1])
    assert torch.allclose(smoothed, torch.nn.CrossEntropyLoss(label_smoothing=0.2)(x, target), rtol=1e-5)
    expected_half = aclnn_cpu.nll_loss(F.log_softmax(x, dim=1).half(), target, torch.ones(9, dtype=torch.half))[0]
    assert same_bits(half, expected_half)


def test_double_backward_and_out():
    generator = torch.Generator().manual_seed(11)
    x = torch.randn((8, 5), generator=generator)
    target = torch.randint(0, 5, (8,), generator=generator)
    weight = torch.rand(5, generator=generator) + 0.5

    def second_derivative():
        leaf = x.clone().requires_grad_()
        loss = F.cross_entropy(leaf, target, weight=weight)
        (gradient,) = torch.autograd.grad(loss, leaf, create_graph=True)
        (second,) = torch.autograd.grad(gradient.square().sum(), leaf)
        return second

    with override.enabled():
        second = second_derivative()
        log_probabilities = F.log_softmax(x, dim=1)
        output, total_weight = torch.empty(0), torch.empty(0)
        returned = torch.ops.aten.nll_loss_forward.output(log_probabilities, target, weight, 2, -100,
                                                          output=output, total_weight=total_weight)
        grad_input = torch.empty(0)
        torch.ops.aten.nll_loss_backward.grad_input(torch.tensor(1.0), log_probabilities, target, weight, 2, -100,
                                                    total_weight, grad_input=grad_input)
    assert torch.allclose(second, second_derivative(), rtol=1e-4, atol=1e-6)
    expected, expected_total = aclnn_cpu.nll_loss(log_probabilities, target, weight, reduction="sum")
    assert returned[0] is output and same_bits(output, expected) and same_bits(total_weight, expected_total)
    assert same_bits(grad_input, aclnn_cpu.nll_loss_backward(torch.tensor(1.0), log_probabilities, target, weight,
                                                             total_weight.reshape(1), reduction="sum"))


def test_what_the_rows_cannot_take_is_pytorchs():
    x = F.log_softmax(torch.randn((3, 4)), dim=1)
    with override.enabled():
        with pytest.raises(IndexError, match="Target 4 is out of bounds"):
            F.nll_loss(x, torch.tensor([0, 4, 1]))  # PyTorch's own check, before CANN's kernel would read outside
        with pytest.raises(RuntimeError, match="expected scalar type Long"):
            F.nll_loss(x, torch.tensor([0, 1, 1], dtype=torch.int32))
        double = F.nll_loss(x.double(), torch.tensor([0, 1, 3]))  # float64: PyTorch's kernel
    assert torch.equal(double, F.nll_loss(x.double(), torch.tensor([0, 1, 3])))


def test_functorch_transforms_reach_the_kernels():
    functorch = pytest.importorskip("functorch")
    generator = torch.Generator().manual_seed(5)
    x = torch.randn((3, 6, 4), generator=generator)
    target = torch.randint(0, 4, (3, 6), generator=generator)
    with override.enabled():
        batched = functorch.vmap(lambda t, y: F.cross_entropy(t, y))(x, target)
        gradient = functorch.grad(lambda t: F.cross_entropy(t, target[0]))(x[0])
    for b in range(3):
        assert torch.allclose(batched[b], package_cross_entropy(x[b], target[b], torch.ones(4), "mean")[1])
    log_probabilities, _, total_weight = package_cross_entropy(x[0], target[0], torch.ones(4), "mean")
    nll_gradient = aclnn_cpu.nll_loss_backward(torch.tensor(1.0), log_probabilities, target[0], torch.ones(4),
                                               total_weight.reshape(1))
    assert same_bits(gradient, torch.from_dlpack(aclnn_cpu.log_softmax_backward(nll_gradient, log_probabilities,
                                                                                dim=1)))


def train(enabled, make_model, batches, steps, lr):
    """`steps` steps of SGD on F.cross_entropy; the losses."""
    torch.manual_seed(0)
    model = make_model()
    optimizer = torch.optim.SGD(model.parameters(), lr=lr)
    losses = []
    with override.enabled(enabled):
        for step in range(steps):
            inputs, labels = batches[step % len(batches)]
            optimizer.zero_grad()
            loss = F.cross_entropy(model(inputs), labels)
            loss.backward()
            optimizer.step()
            losses.append(loss.item())
    return np.array(losses)


def test_a_language_model_head_trains_alike_with_and_without_the_override():
    """200 steps of an embedding, a linear layer and cross-entropy over a 32K vocabulary (next-token labels, some
    ignored as padding): the override changes the arithmetic by fp32 steps only."""
    vocabulary, width = 32768, 16
    generator = torch.Generator().manual_seed(1)
    batches = []
    for _ in range(4):
        tokens = torch.randint(0, vocabulary, (33,), generator=generator)
        labels = tokens[1:].clone()
        labels[-3:] = -100  # padding
        batches.append((tokens[:-1], labels))

    def make_model():
        return torch.nn.Sequential(torch.nn.Embedding(vocabulary, width), torch.nn.Linear(width, vocabulary))

    with_override = train(True, make_model, batches, 200, lr=0.5)
    without = train(False, make_model, batches, 200, lr=0.5)
    assert with_override[-1] < with_override[0] / 2  # it learns
    assert np.allclose(with_override, without, rtol=1e-3, atol=1e-4)


def test_a_classifier_trains_alike_with_and_without_the_override():
    generator = torch.Generator().manual_seed(2)
    batches = [(torch.randn((64, 20), generator=generator), torch.randint(0, 7, (64,), generator=generator))]

    def make_model():
        return torch.nn.Sequential(torch.nn.Linear(20, 32), torch.nn.Tanh(), torch.nn.Linear(32, 7))

    assert np.allclose(train(True, make_model, batches, 200, lr=0.2), train(False, make_model, batches, 200, lr=0.2),
                       rtol=1e-3, atol=1e-5)
