"""aclnn_cpu.torch for every loss of the operator table that PyTorch has (F.<aten name>, its nn module, autograd,
out=): the package's bits -- CANN's arithmetic -- for each dtype, reduction and parameter; PyTorch's own kernel
for what the row cannot take (float64, a parameter outside CANN's range); a regression model trains the same
with and without the override. The machinery itself (threads, toggling, promotion, dims) is
test_torch_override.py's."""
import warnings

import numpy as np
import pytest

import aclnn_cpu
from aclnn_cpu._operators import OPERATORS

torch = pytest.importorskip("torch", reason="PyTorch (python3-torch) is not installed")
import aclnn_cpu.torch as override  # noqa: E402
from torch_support import disabled_after, storage_bytes  # noqa: E402,F401 -- the fixture applies to every test

F = torch.nn.functional
DTYPES = {"float32": torch.float32, "float16": torch.float16, "bfloat16": torch.bfloat16}
REDUCTIONS = ["none", "mean", "sum"]
# The losses PyTorch has, by the table's aten names; each row's gradient is the row named <loss>_backward.
LOSSES = sorted(name for name, info in OPERATORS.items() if info.result == "loss" and info.aten_name)
# A value other than the default for each parameter besides reduction.
PARAMETERS = {"beta": 0.7, "eps": 0.05}
# The table's elementwise functions PyTorch has (torch.<aten name>), and every row by the aten operator it serves
# (a function's gradient is the row serving <aten name>_backward).
ELEMENTWISE = sorted(name for name, info in OPERATORS.items()
                     if info.result == "elementwise" and info.iteration == "elementwise" and info.aten_name)
ROW_OF_ATEN = {info.aten_name: name for name, info in OPERATORS.items() if info.aten_name}
# PyTorch's nn modules, by their lowercased names (nn.MSELoss is "mseloss", the aten name without "_"; PyTorch
# abbreviates binary cross-entropy).
MODULES = {cls.__name__.lower(): cls for cls in vars(torch.nn).values()
           if isinstance(cls, type) and issubclass(cls, torch.nn.Module)}
MODULE_NAMES = {"binary_cross_entropy": "bceloss", "binary_cross_entropy_with_logits": "bcewithlogitsloss"}


def module_class(name):
    aten_name = OPERATORS[name].aten_name
    return MODULES[MODULE_NAMES.get(aten_name, aten_name.replace("_", ""))]



def loss_function(name):
    return getattr(F, OPERATORS[name].aten_name)


def keywords(name):
    """The row's parameters besides reduction, set to non-default values, by their aten names."""
    info = OPERATORS[name]
    return {p.aten_name: PARAMETERS[p.python_name] for p in info.parameters if p.python_name in PARAMETERS}


def values_of(domain, shape, dtype, generator):
    """Values for an input's domain: reals in [-10, 10] with some exactly equal pairs (x - y == 0), +-1, or
    probabilities in [0.01, 0.99]."""
    if domain == "sign_label":
        return torch.where(torch.rand(shape, generator=generator) < 0.5, -1.0, 1.0).to(dtype)
    if domain == "probability":
        return (torch.rand(shape, generator=generator) * 0.98 + 0.01).to(dtype)
    return (torch.rand(shape, generator=generator) * 20 - 10).round(decimals=1).to(dtype)


def loss_inputs(name, dtype, seed, target_shape=(24, 40)):
    """(self, target) of the row's domains; self (24, 40) needs a gradient, so does a target of real values."""
    info = OPERATORS[name]
    generator = torch.Generator().manual_seed(seed)
    x = values_of(info.inputs[0].domain, (24, 40), dtype, generator).requires_grad_()
    y = values_of(info.inputs[1].domain, target_shape, dtype, generator)
    return x, y.requires_grad_(info.inputs[1].domain == "real")


@pytest.mark.parametrize("reduction", REDUCTIONS)
@pytest.mark.parametrize("dtype", sorted(DTYPES))
@pytest.mark.parametrize("name", LOSSES)
def test_loss_and_autograd_equal_the_package_bit_for_bit(name, dtype, reduction):
    torch_type = DTYPES[dtype]
    x, y = loss_inputs(name, torch_type, seed=LOSSES.index(name) * 10 + REDUCTIONS.index(reduction))
    with override.enabled():
        loss = loss_function(name)(x, y, reduction=reduction, **keywords(name))
        incoming = torch.ones((), dtype=torch_type)
        if reduction == "none":
            incoming = (torch.rand(loss.shape, generator=torch.Generator().manual_seed(3)) - 0.5).to(torch_type)
        gradients = torch.autograd.grad(loss, [t for t in (x, y) if t.requires_grad], incoming)
    package_keywords = {p.python_name: PARAMETERS[p.python_name] for p in OPERATORS[name].parameters
                        if p.python_name in PARAMETERS}
    expected_loss = getattr(aclnn_cpu, name)(x.detach(), y.detach(), reduction=reduction, out_dtype=torch_type,
                                             **package_keywords)
    assert loss.dtype == torch_type and storage_bytes(loss) == storage_bytes(expected_loss)
    expected_gradient = getattr(aclnn_cpu, name + "_backward")(incoming, x.detach(), y.detach(), reduction=reduction,
                                                               out_dtype=torch_type, **package_keywords)
    assert storage_bytes(gradients[0]) == storage_bytes(expected_gradient)
    if y.requires_grad:  # a loss of self - target: target's gradient is self's negated (a zero's sign aside)
        assert torch.equal(gradients[1], -expected_gradient)
    # Against PyTorch's float64 arithmetic, loosely: the bits above are the contract, this guards the meaning.
    # The golden is rounded once to the result's dtype, so that a sum past float16's range is inf on both sides.
    golden = loss_function(name)(x.detach().double(), y.detach().double(), reduction=reduction, **keywords(name))
    golden = golden.to(torch_type).double()
    finite = golden[torch.isfinite(golden)]
    scale = finite.abs().max().item() if finite.numel() else 0.0
    tolerance = 1e-5 if dtype == "float32" else 1e-2
    assert torch.allclose(loss.double(), golden, rtol=tolerance, atol=tolerance * scale)


@pytest.mark.parametrize("dtype", sorted(DTYPES))
@pytest.mark.parametrize("name", ELEMENTWISE)
def test_an_elementwise_function_and_its_gradient_equal_the_package_bit_for_bit(name, dtype):
    info = OPERATORS[name]
    torch_type = DTYPES[dtype]
    generator = torch.Generator().manual_seed(ELEMENTWISE.index(name))
    x = values_of(info.inputs[0].domain, (24, 40), torch_type, generator).requires_grad_()
    incoming = (torch.rand((24, 40), generator=generator) - 0.5).to(torch_type)
    gradient_row = OPERATORS[ROW_OF_ATEN[info.aten_name + "_backward"]]
    # The defaults (PyTorch's None), then the other values.
    for given in ({}, {p.python_name: PARAMETERS[p.python_name] for p in info.parameters if p.python_name in PARAMETERS}):
        with override.enabled():
            result = getattr(torch, info.aten_name)(x, **{p.aten_name: given[p.python_name]
                                                            for p in info.parameters if p.python_name in given})
            (gradient,) = torch.autograd.grad(result, [x], incoming)
        expected = getattr(aclnn_cpu, name)(x.detach(), **given)
        assert result.dtype == torch_type and storage_bytes(result) == storage_bytes(expected)
        by_aten = {"self": x.detach(), "grad_output": incoming}
        expected_gradient = getattr(aclnn_cpu, gradient_row.name)(*(by_aten[i.aten_name] for i in gradient_row.inputs),
                                                                  **given)
        assert storage_bytes(gradient) == storage_bytes(expected_gradient)


@pytest.mark.parametrize("name", LOSSES)
def test_the_nn_module_and_a_broadcast_target_run_canns_arithmetic(name):
    # A target broadcast to self where the row takes one (PyTorch's BCELoss requires self's shape).
    broadcast = OPERATORS[name].inputs[1].shape == "broadcast"
    x, y = loss_inputs(name, torch.float16, seed=5, target_shape=(40,) if broadcast else (24, 40))
    module = module_class(name)(reduction="sum", **keywords(name))
    with override.enabled(), warnings.catch_warnings():
        warnings.simplefilter("ignore")  # PyTorch's warning that the target's size differs from the input's
        loss = module(x, y)
        loss.backward()
    package_keywords = {p.python_name: v for p in OPERATORS[name].parameters
                        for k, v in keywords(name).items() if p.aten_name == k}
    expected = getattr(aclnn_cpu, name)(x.detach(), y.detach(), reduction="sum", **package_keywords)
    assert storage_bytes(loss) == storage_bytes(expected)
    expected_gradient = getattr(aclnn_cpu, name + "_backward")(torch.ones((), dtype=torch.float16), x.detach(),
                                                               y.detach(), reduction="sum", **package_keywords)
    assert storage_bytes(x.grad) == storage_bytes(expected_gradient)
    if y.requires_grad:  # autograd sums target's gradient over the broadcast dim
        assert y.grad.shape == y.shape
        assert torch.allclose(y.grad.float(), -expected_gradient.float().sum(0), rtol=1e-2, atol=0.1)


@pytest.mark.parametrize("name", LOSSES)
def test_inference_mode_and_no_grad_run_canns_arithmetic(name):
    """Calls that skip autograd reach the override too (aten::l1_loss, which PyTorch decomposes, included)."""
    x, y = loss_inputs(name, torch.bfloat16, seed=7)
    expected = getattr(aclnn_cpu, name)(x.detach(), y.detach(), reduction="sum")
    with override.enabled():
        with torch.inference_mode():
            in_inference = loss_function(name)(x, y, reduction="sum")
        with torch.no_grad():
            without_grad = loss_function(name)(x, y, reduction="sum")
    assert storage_bytes(in_inference) == storage_bytes(expected) == storage_bytes(without_grad)


OUT_LOSSES = [name for name in LOSSES if "out" in getattr(torch.ops.aten, OPERATORS[name].aten_name).overloads()]


@pytest.mark.parametrize("name", OUT_LOSSES)
def test_out_forms_write_into_the_given_tensor(name):
    x, y = loss_inputs(name, torch.float32, seed=9)
    info = OPERATORS[name]
    parameters = [1 if p.type == "reduction" else PARAMETERS.get(p.python_name, p.python_default())
                  for p in info.parameters]
    # A narrower out than the inputs where CANN takes one (it casts); where CANN ties out's dtype to an input's,
    # that dtype (PyTorch refuses any other too).
    out_type = torch.float16 if info.out_dtype_input < 0 else torch.float32
    with override.enabled():
        out = torch.empty(0, dtype=out_type)
        returned = getattr(torch.ops.aten, info.aten_name).out(
            x.detach(), y.detach(), **{p.aten_name: v for p, v in zip(info.parameters, parameters)}, out=out)
        assert returned is out and out.shape == ()
    expected = getattr(aclnn_cpu, name)(x.detach(), y.detach(), out_dtype=out_type,
                                        **{p.python_name: v for p, v in zip(info.parameters[1:], parameters[1:])})
    assert storage_bytes(out) == storage_bytes(expected)


@pytest.mark.parametrize("name", LOSSES)
def test_float64_runs_pytorchs_own_kernel(name):
    x, y = loss_inputs(name, torch.float64, seed=11)
    own = loss_function(name)(x, y, **keywords(name))
    own_gradient, = torch.autograd.grad(own, x)
    with override.enabled():
        loss = loss_function(name)(x, y, **keywords(name))
        gradient, = torch.autograd.grad(loss, x)
    assert storage_bytes(loss) == storage_bytes(own) and storage_bytes(gradient) == storage_bytes(own_gradient)


PARAMETERS_WITH_A_MINIMUM = [(name, p.aten_name, p.minimum) for name in LOSSES for p in OPERATORS[name].parameters
                             if p.type != "reduction" and np.isfinite(p.minimum)]


@pytest.mark.parametrize("name, parameter, minimum", PARAMETERS_WITH_A_MINIMUM)
def test_a_parameter_cann_does_not_take_runs_pytorchs_kernel(name, parameter, minimum):
    """Never a silently changed argument: the call PyTorch's kernel gets is the one made, with PyTorch's answer
    (here its own error), not CANN's."""
    x, y = loss_inputs(name, torch.float32, seed=13)
    outside = {parameter: minimum - 1.0}
    with pytest.raises(RuntimeError) as own:
        loss_function(name)(x, y, **outside)
    with override.enabled():
        with pytest.raises(RuntimeError) as error:
            loss_function(name)(x, y, **outside)
    assert not isinstance(error.value, aclnn_cpu.AclnnError)
    assert str(error.value) == str(own.value)


def test_every_overload_of_the_tables_aten_losses_is_registered():
    override.enable()
    assert override.unregistered == {}
    for name in LOSSES:
        assert torch._C._dispatch_has_kernel_for_dispatch_key(f"aten::{OPERATORS[name].aten_name}", "BackendSelect") \
            or torch._C._dispatch_has_kernel_for_dispatch_key(f"aten::{OPERATORS[name].aten_name}", "AutogradCPU")


REGRESSION_LOSSES = [name for name in LOSSES if OPERATORS[name].inputs[1].domain == "real"]


def fit(model, loss_module, inputs, targets, lr, steps=200):
    """Trains model by SGD on fixed data; returns its final parameters and the losses of every step."""
    optimizer = torch.optim.SGD(model.parameters(), lr=lr)
    losses = []
    for _ in range(steps):
        optimizer.zero_grad()
        loss = loss_module(model(inputs), targets)
        loss.backward()
        optimizer.step()
        losses.append(loss.item())
    return torch.cat([p.detach().reshape(-1) for p in model.parameters()]), losses


def train(loss_module):
    """A small regression MLP on fixed data."""
    torch.manual_seed(0)
    inputs = torch.randn(64, 8)
    targets = (inputs @ torch.randn(8, 1)).tanh() * 3 + 0.1 * torch.randn(64, 1)
    model = torch.nn.Sequential(torch.nn.Linear(8, 16), torch.nn.Tanh(), torch.nn.Linear(16, 1))
    return fit(model, loss_module, inputs, targets, lr=0.05)


@pytest.mark.parametrize("name", REGRESSION_LOSSES)
def test_a_regression_model_trains_the_same_with_and_without_the_override(name):
    module = module_class(name)()
    own_parameters, own_losses = train(module)
    with override.enabled():
        parameters, losses = train(module)
    assert losses[-1] < 0.5 * losses[0], "the model learns"
    assert torch.allclose(parameters, own_parameters, rtol=1e-4, atol=1e-5)
    assert np.allclose(losses, own_losses, rtol=1e-4, atol=1e-6)


# The losses of a probability target: on probabilities (BCELoss) or on logits (BCEWithLogitsLoss).
CLASSIFICATION_LOSSES = [name for name in LOSSES if OPERATORS[name].inputs[1].domain == "probability"]


def train_classifier(loss_module, on_logits):
    """Logistic regression (a linear layer, then a sigmoid unless the loss takes logits) on fixed, nearly
    separable data."""
    torch.manual_seed(0)
    inputs = torch.randn(128, 6)
    labels = ((inputs @ torch.randn(6, 1)) + 0.3 * torch.randn(128, 1) > 0).float()
    model = torch.nn.Sequential(torch.nn.Linear(6, 1), torch.nn.Identity() if on_logits else torch.nn.Sigmoid())
    return fit(model, loss_module, inputs, labels, lr=0.5)


@pytest.mark.parametrize("name", CLASSIFICATION_LOSSES)
def test_a_logistic_regression_trains_the_same_with_and_without_the_override(name):
    module = module_class(name)()
    on_logits = OPERATORS[name].inputs[0].domain == "real"
    own_parameters, own_losses = train_classifier(module, on_logits)
    with override.enabled():
        parameters, losses = train_classifier(module, on_logits)
    assert losses[-1] < 0.5 * losses[0], "the model learns"
    assert torch.allclose(parameters, own_parameters, rtol=1e-4, atol=1e-5)
    assert np.allclose(losses, own_losses, rtol=1e-4, atol=1e-6)


WEIGHTED_LOSSES = [name for name in LOSSES if any(i.optional for i in OPERATORS[name].inputs)]


@pytest.mark.parametrize("reduction", REDUCTIONS)
@pytest.mark.parametrize("name", WEIGHTED_LOSSES)
def test_optional_inputs_reach_the_operator_and_its_gradient(name, reduction):
    """F.<loss>(..., weight=w): the loss and self's gradient are the package's with the weight given."""
    x, y = loss_inputs(name, torch.float32, seed=17)
    optional = {i.aten_name: values_of(i.domain, (24, 40), torch.float32, torch.Generator().manual_seed(19))
                for i in OPERATORS[name].inputs if i.optional}
    with override.enabled():
        loss = loss_function(name)(x, y, reduction=reduction, **optional)
        incoming = torch.ones(loss.shape)
        gradient, = torch.autograd.grad(loss, x, incoming)

    def package_optional(row):  # the same tensors by the row's own argument names
        return {i.python_name: optional[i.aten_name] for i in OPERATORS[row].inputs if i.optional}

    expected = getattr(aclnn_cpu, name)(x.detach(), y, reduction=reduction, **package_optional(name))
    assert storage_bytes(loss) == storage_bytes(expected)
    expected_gradient = getattr(aclnn_cpu, name + "_backward")(incoming, x.detach(), y, reduction=reduction,
                                                               **package_optional(name + "_backward"))
    assert storage_bytes(gradient) == storage_bytes(expected_gradient)
    # And the weight counts: the same call without it differs.
    with override.enabled():
        assert not torch.equal(loss_function(name)(x, y, reduction=reduction), loss)


@pytest.mark.parametrize("name", CLASSIFICATION_LOSSES)
def test_a_target_that_needs_a_gradient_gets_pytorchs(name):
    """The table gives self's gradient only: a probability target that requires one gets PyTorch's derivative,
    never a missing or made-up one."""
    x, y = loss_inputs(name, torch.float32, seed=23)
    y.requires_grad_()
    own = torch.autograd.grad(loss_function(name)(x, y), [x, y])
    with override.enabled():
        gradients = torch.autograd.grad(loss_function(name)(x, y), [x, y])
    for got, expected in zip(gradients, own):
        assert got is not None and torch.allclose(got, expected, rtol=1e-5, atol=1e-7)
