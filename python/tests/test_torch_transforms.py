"""aclnn_cpu.torch beyond first derivatives: second derivatives (Hessians, gradient penalties, double backward),
functorch's transforms and mixed floating dtypes, for every loss of the operator table that PyTorch has --
each against PyTorch's own answer (float64 where it is a value)."""
import itertools
import warnings

import pytest

import aclnn_cpu
from aclnn_cpu._operators import OPERATORS

torch = pytest.importorskip("torch", reason="PyTorch (python3-torch) is not installed")
functorch = pytest.importorskip("functorch", reason="functorch is not installed")
import aclnn_cpu.torch as override  # noqa: E402
from torch_support import disabled_after, storage_bytes  # noqa: E402,F401 -- the fixture applies to every test

F = torch.nn.functional
REDUCTIONS = ["none", "mean", "sum"]
LOSSES = sorted(name for name, info in OPERATORS.items() if info.result == "loss" and info.aten_name)
FLOAT_TYPES = [torch.float32, torch.float16, torch.bfloat16]


def loss_function(name):
    return getattr(F, OPERATORS[name].aten_name)


def domain_values(domain, shape, generator):
    """float64 values of an input's domain, away from the kinks of |d| and smooth L1 (PyTorch and CANN pick
    different one-sided derivatives there)."""
    if domain == "sign_label":
        return torch.where(torch.rand(shape, generator=generator) < 0.5, -1.0, 1.0).double()
    if domain == "probability":
        return torch.rand(shape, generator=generator, dtype=torch.float64) * 0.9 + 0.05
    return torch.rand(shape, generator=generator, dtype=torch.float64) * 6 - 3


def inputs_of(name, seed, shape=(5, 7)):
    """(self, target) in float64; a real-valued target is moved off self's kinks by at least 0.25."""
    info = OPERATORS[name]
    generator = torch.Generator().manual_seed(seed)
    x = domain_values(info.inputs[0].domain, shape, generator)
    y = domain_values(info.inputs[1].domain, shape, generator)
    if info.inputs[1].domain == "real":
        gap = x - y
        y = torch.where(gap.abs() < 0.25, x - 0.25 * torch.where(gap < 0, -1.0, 1.0) - 1.5, y)
    return x, y


def second_derivatives(name, reduction, x, y, v):
    """(first derivatives, the derivatives of <first derivatives, v>) with respect to self and, for a
    real-valued target, target -- through create_graph, as a gradient penalty or a Hessian-vector product takes
    them."""
    x = x.clone().requires_grad_()
    y = y.clone().requires_grad_(OPERATORS[name].inputs[1].domain == "real")
    wrt = [x, y] if y.requires_grad else [x]
    loss = loss_function(name)(x, y, reduction=reduction)
    incoming = torch.linspace(-1.5, 2.0, loss.numel(), dtype=loss.dtype).reshape(loss.shape).requires_grad_()
    first = torch.autograd.grad(loss, wrt, incoming, create_graph=True)
    penalty = sum((g * v.to(g.dtype)).sum() for g in first)
    second = torch.autograd.grad(penalty, wrt + [incoming], allow_unused=True)
    return first, second


@pytest.mark.parametrize("reduction", REDUCTIONS)
@pytest.mark.parametrize("name", LOSSES)
def test_second_derivatives_are_pytorchs_and_first_ones_keep_canns_bits(name, reduction):
    x, y = inputs_of(name, seed=len(name) + REDUCTIONS.index(reduction))
    v = torch.linspace(-1.0, 1.0, x.numel(), dtype=torch.float64).reshape(x.shape)
    _, expected = second_derivatives(name, reduction, x, y, v)  # PyTorch, float64
    with override.enabled():
        first, got = second_derivatives(name, reduction, x.float(), y.float(), v)
        # The first derivatives under create_graph are the bits of a plain backward.
        xs = x.float().requires_grad_()
        loss = loss_function(name)(xs, y.float(), reduction=reduction)
        plain, = torch.autograd.grad(loss, xs, torch.linspace(-1.5, 2.0, loss.numel()).reshape(loss.shape))
    assert storage_bytes(first[0]) == storage_bytes(plain)
    for g, e in zip(got, expected):
        assert (g is None) == (e is None) or (g is not None and not g.any()) or (e is not None and not e.any())
        if g is not None and e is not None:
            assert g.dtype == torch.float32
            torch.testing.assert_close(g.double(), e, rtol=2e-5, atol=2e-6)


@pytest.mark.parametrize("name", LOSSES)
def test_gradgradcheck_in_float32_against_pytorchs_float64(name):
    """torch.autograd.gradgradcheck's own comparison, run by hand: analytic second derivatives (override,
    float32) against PyTorch's analytic float64 ones: the Hessian of each reduction's sum."""
    x, y = inputs_of(name, seed=3, shape=(4, 3))
    for reduction in REDUCTIONS:
        def f(a, b):
            return loss_function(name)(a, b, reduction=reduction)
        expected = torch.autograd.functional.hessian(lambda a: f(a, y).sum(), x)
        with override.enabled():
            got = torch.autograd.functional.hessian(lambda a: f(a, y.float()).sum(), x.float())
        torch.testing.assert_close(got.double(), expected, rtol=2e-5, atol=2e-6)


def test_the_reported_second_derivative_cases():
    x = torch.tensor([0.3, -1.2, 2.0])
    t = torch.tensor([1.0, 0.0, 0.5])
    with override.enabled():
        hessian = torch.autograd.functional.hessian(lambda a: F.binary_cross_entropy_with_logits(a, t), x)
    torch.testing.assert_close(hessian.diag(), torch.tensor([0.0815, 0.0593, 0.0350]), rtol=0, atol=1e-4)

    def penalty_gradient(on):
        a = torch.tensor([0.3, -1.2, 2.0], requires_grad=True)
        with override.enabled(on):
            loss = F.l1_loss(a * a, torch.tensor([0.5, 0.1, 1.0]))
            g, = torch.autograd.grad(loss, a, create_graph=True)
            (loss + (g * g).sum()).backward()
        return a.grad
    assert torch.equal(penalty_gradient(True), penalty_gradient(False))

    a = torch.tensor([0.3, -1.2, 2.0], requires_grad=True)
    with override.enabled():
        g, = torch.autograd.grad(F.l1_loss(a, t), a, create_graph=True)
        second, = torch.autograd.grad(g.sum(), a, allow_unused=True)
    assert second is not None and not second.any()  # sign(x - t)' is 0 almost everywhere, as PyTorch's


# The arithmetic each functorch transform gets under the override (docs/usage.md, "functorch"): CANN's kernels,
# the eager override's bits, except where functorch's own rules decompose an operator into PyTorch's.
PYTORCH_UNDER_FUNCTORCH = {"binary_cross_entropy_with_logits"}  # grad, vjp, jacrev, hessian
PYTORCH_UNDER_VMAP = {"binary_cross_entropy_with_logits", "l1_loss"}  # decomposed
SUMMED_BY_PYTORCH_UNDER_VMAP = {"binary_cross_entropy", "mse_loss"}  # CANN's per element, PyTorch's sum


def transform_outcome(function):
    """A transform's result, or the type of the error PyTorch raised."""
    try:
        return function()
    except (RuntimeError, NotImplementedError) as error:
        return type(error)


@pytest.mark.parametrize("name", LOSSES)
def test_every_functorch_transform_runs_and_says_its_arithmetic(name):
    x, y = (v.float() for v in inputs_of(name, seed=9, shape=(6, 5)))

    def loss(a, reduction="sum"):
        return loss_function(name)(a, y, reduction=reduction)

    with override.enabled():
        a = x.clone().requires_grad_()
        eager_loss = loss(a)
        eager_grad, = torch.autograd.grad(eager_loss, a)
        eager_elements = loss(x, "none")
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")  # functorch's performance warnings of its fallbacks
            results = {
                "grad": functorch.grad(loss)(x),
                "grad_and_value": functorch.grad_and_value(loss)(x)[0],
                "vjp": functorch.vjp(loss, x)[1](torch.ones(()))[0],
                "jacrev": functorch.jacrev(loss)(x),
                "vmap(grad)": functorch.vmap(functorch.grad(loss))(x.expand(3, 6, 5))[1],
            }
            hessian = transform_outcome(lambda: functorch.hessian(loss)(x))
            batched = functorch.vmap(loss)(x.expand(2, 6, 5))[0]
            batched_elements = functorch.vmap(lambda a: loss(a, "none"))(x.expand(2, 6, 5))[1]
    x64 = x.double().requires_grad_()
    pytorch_grad, = torch.autograd.grad(loss_function(name)(x64, y.double(), reduction="sum"), x64)
    for transform, result in results.items():
        torch.testing.assert_close(result.double(), pytorch_grad, rtol=1e-4, atol=1e-5)
        if name not in PYTORCH_UNDER_FUNCTORCH:
            assert torch.equal(result, eager_grad), transform
    # functorch.hessian is forward-mode over reverse-mode: where PyTorch's own backward kernel has no forward
    # derivative (soft_margin_loss_backward), PyTorch raises the same without the override.
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        pytorch_hessian = transform_outcome(lambda: functorch.hessian(loss)(x))
    assert type(hessian) == type(pytorch_hessian)
    if isinstance(hessian, torch.Tensor):
        torch.testing.assert_close(hessian, pytorch_hessian, rtol=1e-4, atol=1e-5)
    torch.testing.assert_close(batched.double(), loss_function(name)(x.double(), y.double(), reduction="sum"),
                               rtol=1e-4, atol=1e-4)
    if name not in PYTORCH_UNDER_VMAP:
        assert torch.equal(batched_elements, eager_elements)
        if name not in SUMMED_BY_PYTORCH_UNDER_VMAP:
            assert torch.equal(batched, eager_loss.detach())


def pytorch_outcome(function):
    """(result, None) or (None, the RuntimeError's text) of PyTorch's own kernels."""
    try:
        return function(), None
    except RuntimeError as error:
        return None, str(error)


@pytest.mark.parametrize("types", [pair for pair in itertools.permutations(FLOAT_TYPES, 2)],
                         ids=lambda pair: f"{pair[0]}-{pair[1]}".replace("torch.", ""))
@pytest.mark.parametrize("name", LOSSES)
def test_mixed_floating_dtypes_as_pytorch_takes_them(name, types):
    """What PyTorch accepts runs CANN's arithmetic on the inputs widened to their promoted type, with PyTorch's
    result dtype; what PyTorch refuses (one dtype required) is refused with PyTorch's own error. Where PyTorch
    has no kernel for a float16 self, the override computes (CANN has one)."""
    self_type, target_type = types
    x, y = inputs_of(name, seed=13)
    x, y = x.to(self_type), y.to(target_type)
    expected, error = pytorch_outcome(lambda: loss_function(name)(x, y, reduction="mean"))
    with override.enabled():
        got, got_error = pytorch_outcome(lambda: loss_function(name)(x, y, reduction="mean"))
    if error is not None and "not implemented for" not in error:
        assert got_error == error
        return
    assert got_error is None, got_error
    if expected is not None:
        assert got.dtype == expected.dtype
        torch.testing.assert_close(got.double(), expected.double(), rtol=2e-2, atol=1e-3)
    common = torch.promote_types(self_type, target_type)
    widened = getattr(aclnn_cpu, name)(x.to(common), y.to(common), reduction="mean", out_dtype=common)
    assert storage_bytes(got) == storage_bytes(widened.to(got.dtype))
    # Its gradient as PyTorch's autograd takes it: in self's dtype, or PyTorch's refusal where its backward
    # kernel takes one dtype only.
    def gradient():
        leaf = x.clone().requires_grad_()
        return torch.autograd.grad(loss_function(name)(leaf, y, reduction="mean"), leaf)[0]
    expected, error = pytorch_outcome(gradient)
    with override.enabled():
        got, got_error = pytorch_outcome(gradient)
    if error is not None and "not implemented for" not in error:
        assert got_error == error
        return
    assert got_error is None, got_error
    assert got.dtype == self_type and torch.isfinite(got.float()).all()
    if expected is not None:
        torch.testing.assert_close(got.double(), expected.double(), rtol=2e-2, atol=1e-3)
