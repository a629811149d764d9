"""The Python operators against the C API called with ctypes (c_api.py): the same bits for every operator of the
table, dtype combination, reduction, parameter, layout and broadcast; the errors; the buffers passed without a
copy."""
import itertools
import threading

import numpy as np
import pytest

import aclnn_cpu
import c_api
from aclnn_cpu import _core, _operators

FLOAT, FLOAT16, BF16 = 0, 1, 27
TYPES = (FLOAT, FLOAT16, BF16)
STORAGE = {FLOAT: np.float32, FLOAT16: np.float16, BF16: np.uint16}
# Every row of the table whose inputs share the element-wise or along-dim shapes, with its Python function and its
# number of inputs (the NLL losses: test_nll_loss.py; the fused cross-entropy: test_cross_entropy_loss.py).
OPERATORS = {name: (getattr(aclnn_cpu, name), len(info.inputs)) for name, info in _operators.OPERATORS.items()
             if not info.class_indexed}
# A parameter other than reduction, set to a value that is not its default where the row has one.
PARAMETERS = {"beta": 0.7}


def random_storage(rng, acl_type, shape):
    """Raw elements: products up to about +-100 (past exp's overflow), some zeros."""
    values = rng.uniform(-10.0, 10.0, shape).astype(np.float32)
    values[rng.random(shape) < 0.05] = 0.0
    if acl_type == BF16:
        return aclnn_cpu.Bfloat16.from_float32(values).bits
    return values.astype(STORAGE[acl_type])


def has_reduction(name):
    return any(p.type == "reduction" for p in _operators.OPERATORS[name].parameters)


def as_python(storage, acl_type):
    return aclnn_cpu.Bfloat16(storage) if acl_type == BF16 else storage


def result_bits(result):
    storage = result.bits if isinstance(result, aclnn_cpu.Bfloat16) else np.asarray(result)
    return np.ascontiguousarray(storage).view(np.uint8)


def view_spec(base, view, acl_type):
    """The C API's description of a numpy view that starts where its base starts."""
    assert view.__array_interface__["data"][0] == base.__array_interface__["data"][0]
    return (base, acl_type, list(view.shape), [s // view.itemsize for s in view.strides])


def promoted(types):
    return types[0] if len(set(types)) == 1 else FLOAT


def usable_types(name, types, out_type=None):
    """types, made one dtype where the row requires its inputs to share one (self's), and with out's dtype
    (when given) on the input whose dtype the row ties out's to."""
    info = _operators.OPERATORS[name]
    types = tuple(types)
    if out_type is not None and info.out_dtype_input >= 0:
        types = types[:info.out_dtype_input] + (out_type,) + types[info.out_dtype_input + 1:]
    return (types[info.self_input],) * len(types) if info.inputs_share_dtype else types


def result_type_of(name, types):
    """The dtype the Python function returns by default: the tied input's, or the promoted one."""
    info = _operators.OPERATORS[name]
    return types[info.out_dtype_input] if info.out_dtype_input >= 0 else promoted(types)


def usable_layout(name, layout, full=(24, 40)):
    """layout, with a whole-shape view for self and each input the row ties to self's exact shape."""
    info = _operators.OPERATORS[name]
    tied = [k == info.self_input or i.shape == "same_as_self" for k, i in enumerate(info.inputs)]
    if any(i.shape == "to_broadcast" for i in info.inputs):  # the last input gives the shape the others reach
        tied = [k == len(info.inputs) - 1 for k in range(len(info.inputs))]
    if not any(i.shape != "broadcast" for i in info.inputs):
        return layout
    same = lambda b: b  # noqa: E731
    return [entry if not tie or entry[1](np.empty(entry[0])).shape == full else (full, same)
            for entry, tie in zip(layout, tied)]


def expect_same_bits(name, bases, views, types, reduction, out_type=None):
    function, _ = OPERATORS[name]
    info = _operators.OPERATORS[name]
    keywords = {p.python_name: PARAMETERS[p.python_name] for p in info.parameters if p.python_name in PARAMETERS}
    if has_reduction(name):
        keywords["reduction"] = reduction
    got = function(*(as_python(v, t) for v, t in zip(views, types)), out_dtype=out_type, **keywords)
    shape = info.result_shape([v.shape for v in views], reduction, views[info.self_input].shape)
    result_type = result_type_of(name, types) if out_type is None else out_type
    out = np.zeros(shape, dtype=STORAGE[result_type])
    parameters = [reduction if p.type == "reduction" else keywords.get(p.python_name, p.python_default())
                  for p in info.parameters]
    expected = c_api.run(info, [view_spec(b, v, t) for b, v, t in zip(bases, views, types)],
                         (out, result_type, list(shape), [s // out.itemsize for s in out.strides]), parameters)
    assert result_bits(got).tobytes() == expected.view(np.uint8).tobytes(), (name, types, reduction)
    return got


@pytest.mark.parametrize("name", sorted(OPERATORS))
def test_every_dtype_combination_and_reduction_matches_the_c_api(name):
    rng = np.random.default_rng(1)
    arity = OPERATORS[name][1]
    reductions = (0, 1, 2) if has_reduction(name) else (0,)
    for types in sorted({usable_types(name, t) for t in itertools.product(TYPES, repeat=arity)}):
        for reduction in reductions:
            storages = [random_storage(rng, t, (5, 37)) for t in types]
            expect_same_bits(name, storages, storages, types, reduction)


@pytest.mark.parametrize("name", sorted(OPERATORS))
@pytest.mark.parametrize("out_type", TYPES)
def test_out_dtype_matches_the_c_api(name, out_type):
    rng = np.random.default_rng(2)
    types = usable_types(name, ((FLOAT16, BF16, FLOAT) * 2)[-OPERATORS[name][1]:], out_type)
    storages = [random_storage(rng, t, (3, 41)) for t in types]
    got = expect_same_bits(name, storages, storages, types, 0, out_type)
    assert isinstance(got, aclnn_cpu.Bfloat16) == (out_type == BF16)


@pytest.mark.parametrize("name", sorted(OPERATORS))
def test_strided_and_broadcast_inputs_match_the_c_api(name):
    rng = np.random.default_rng(3)
    arity = OPERATORS[name][1]
    same = lambda b: b  # noqa: E731
    transposed = lambda b: b.T  # noqa: E731
    every_other_column = lambda b: b[:, ::2]  # noqa: E731
    # Per input: (shape of its storage, the view passed). All views broadcast to [24, 40].
    layouts = [
        [((40, 24), transposed)] * arity,
        [((24, 40), same)] * (arity - 2) + [((40, 24), transposed), ((24, 40), same)],
        [((24, 80), every_other_column)] * arity,
        [((24, 40), same)] * (arity - 1) + [((40,), same)],
        [((24, 1), same)] + [((24, 40), same)] * (arity - 1),
        [((24, 80), every_other_column)] + [((1, 40), same)] * (arity - 1),
    ]
    for types in [(FLOAT,) * arity, (FLOAT16,) * arity, (BF16,) * arity,
                  usable_types(name, ((BF16, FLOAT16, FLOAT) * 2)[-arity:])]:
        for layout in (usable_layout(name, layout) for layout in layouts):
            bases = [random_storage(rng, t, shape) for t, (shape, _) in zip(types, layout)]
            views = [make_view(b) for b, (_, make_view) in zip(bases, layout)]
            for reduction in (0, 1) if has_reduction(name) else (0,):
                expect_same_bits(name, bases, views, types, reduction)


def test_stride_zero_and_0d_inputs():
    rng = np.random.default_rng(4)
    row = random_storage(rng, FLOAT, (64,))
    expanded = np.broadcast_to(row, (16, 64))  # stride 0 along rows, no copy
    self_ = random_storage(rng, FLOAT, (16, 64))
    grad = np.asarray(np.float32(0.5))
    got = aclnn_cpu.soft_margin_loss_backward(grad, self_, expanded, reduction="none")
    again = aclnn_cpu.soft_margin_loss_backward(np.full((16, 64), 0.5, np.float32), self_,
                                                np.ascontiguousarray(expanded), reduction="none")
    assert got.tobytes() == again.tobytes()


def test_regression_losses_against_float64():
    """A sanity check of the formulas (the ulp bounds are tested in C++ on every SIMD target), and CANN's example
    programs' numbers (ops-nn loss/*/examples)."""
    rng = np.random.default_rng(8)
    x = rng.uniform(-4, 4, 4096).astype(np.float32)
    y = rng.uniform(-4, 4, 4096).astype(np.float32)
    d = x.astype(np.float64) - y
    np.testing.assert_allclose(aclnn_cpu.mse_loss(x, y, reduction="none"), d * d, rtol=2.0 ** -22)
    np.testing.assert_allclose(aclnn_cpu.l1_loss(x, y, reduction="none"), np.abs(d), rtol=2.0 ** -23)
    beta = 1.5
    smooth = np.where(np.abs(d) < beta, 0.5 * d * d / beta, np.abs(d) - 0.5 * beta)
    np.testing.assert_allclose(aclnn_cpu.smooth_l1_loss(x, y, reduction="none", beta=beta), smooth, rtol=2.0 ** -21)
    np.testing.assert_allclose(aclnn_cpu.mse_loss_backward(np.float32(1), x, y, reduction="mean"), 2 * d / d.size,
                               rtol=2.0 ** -21)
    self_ = np.array([[0, 1], [2, 3]], np.float32)
    ones = np.ones((2, 2), np.float32)
    assert aclnn_cpu.mse_loss(self_, ones) == np.float32(1.5)
    assert aclnn_cpu.mse_loss_out(self_, ones).tolist() == [1.0, 2.0]
    assert aclnn_cpu.l1_loss(self_, ones) == np.float32(1.0)
    assert aclnn_cpu.l1_loss_backward(self_, self_, ones).ravel().tolist() == [0.0, 0.0, 0.5, 0.75]
    assert np.signbit(aclnn_cpu.mse_loss_backward(self_, self_, ones)[0, 0])  # -1 * 0.5 * 0: -0.0, as CANN's
    gradient = aclnn_cpu.smooth_l1_loss_backward(np.ones((4, 2), np.float32), np.arange(8, dtype=np.float32).reshape(4, 2),
                                                 np.ones((4, 2), np.float32), reduction="none", beta=1.0)
    assert gradient.ravel().tolist() == [-1, 0, 1, 1, 1, 1, 1, 1]


def test_parameters_have_the_rows_defaults_and_ranges():
    x = np.linspace(-3, 3, 12, dtype=np.float32)
    y = np.zeros(12, np.float32)
    assert aclnn_cpu.smooth_l1_loss(x, y).tobytes() == aclnn_cpu.smooth_l1_loss(x, y, beta=1.0).tobytes()
    assert aclnn_cpu.smooth_l1_loss(x, y, beta=0.0).tobytes() == aclnn_cpu.l1_loss(x, y).tobytes()
    with pytest.raises(aclnn_cpu.AclnnError) as error:
        aclnn_cpu.smooth_l1_loss(x, y, beta=-0.5)
    assert error.value.status == 161002 and "beta should be greater than or equal to 0" in error.value.message
    with pytest.raises(TypeError, match="no parameter"):
        aclnn_cpu.mse_loss(x, y, beta=1.0)
    assert "beta=1.0" in aclnn_cpu.smooth_l1_loss.__doc__ and "aclnnSmoothL1Loss" in aclnn_cpu.smooth_l1_loss.__doc__


def test_against_a_float64_reference():
    """A sanity check of the formula; the ulp bounds of docs/contract.md are tested in C++ on every SIMD target."""
    rng = np.random.default_rng(5)
    x = rng.uniform(-20, 20, 4096).astype(np.float32)
    y = rng.choice([-1.0, 1.0], 4096).astype(np.float32)
    t = -(x.astype(np.float64) * y)
    loss = aclnn_cpu.soft_margin_loss(x, y, reduction="none")
    np.testing.assert_allclose(loss, np.log1p(np.exp(t)), rtol=4 * 2.0 ** -23, atol=0)
    grad = aclnn_cpu.soft_margin_loss_backward(np.float32(1), x, y, reduction="none")
    np.testing.assert_allclose(grad, -y * np.exp(t) / (1 + np.exp(t)), rtol=8 * 2.0 ** -23, atol=1e-38)
    assert np.asarray(aclnn_cpu.soft_margin_loss(x, y)).shape == ()


def test_reductions_by_name_and_by_cann_integer():
    x = np.linspace(-3, 3, 10, dtype=np.float32)
    y = np.ones(10, np.float32)
    for name, number in (("none", 0), ("mean", 1), ("sum", 2)):
        a = aclnn_cpu.soft_margin_loss(x, y, reduction=name)
        b = aclnn_cpu.soft_margin_loss(x, y, reduction=number)
        assert a.tobytes() == b.tobytes()
    # CANN: any value other than 0 and 1 is a sum.
    assert aclnn_cpu.soft_margin_loss(x, y, reduction=7).tobytes() == aclnn_cpu.soft_margin_loss(
        x, y, reduction="sum").tobytes()


def test_errors_carry_the_status_and_the_message():
    x = np.zeros((3, 4), np.float32)
    with pytest.raises(aclnn_cpu.AclnnError) as error:
        aclnn_cpu.soft_margin_loss(x, np.zeros(5, np.float32))
    assert error.value.status == 161002
    assert "must match the size" in error.value.message and "target" in error.value.message
    with pytest.raises(aclnn_cpu.AclnnError) as error:
        aclnn_cpu.soft_margin_loss_backward(x, x.astype(np.float64), x)
    assert error.value.status == 161002 and "DOUBLE" in error.value.message and "self" in error.value.message
    with pytest.raises(aclnn_cpu.AclnnError) as error:
        aclnn_cpu.soft_margin_loss(np.zeros([1] * 9, np.float32), np.zeros(1, np.float32))
    assert error.value.status == 161002 and "cannot be larger than 8 dimensions" in error.value.message
    with pytest.raises(ValueError, match="reduction"):
        aclnn_cpu.soft_margin_loss(x, x, reduction="avg")
    with pytest.raises(ValueError, match="dtype"):
        aclnn_cpu.soft_margin_loss(x, x, out_dtype="float8")


def test_a_failed_call_leaves_nothing_registered():
    """After a rejected call, the caller's buffers are no longer device memory (aclrtHostUnregister ran)."""
    x = np.zeros((3, 4), np.float32)
    with pytest.raises(aclnn_cpu.AclnnError):
        aclnn_cpu.soft_margin_loss(x, np.zeros(5, np.float32))
    # Registering the same range again and unregistering it once leaves it unregistered: a leftover
    # registration from the failed call would keep it registered, which a second unregister would reveal.
    import ctypes
    acl = c_api._acl
    mapped = ctypes.c_void_p()
    assert acl.aclrtHostRegister(x.ctypes.data, x.nbytes, 0, ctypes.byref(mapped)) == 0
    assert acl.aclrtHostUnregister(x.ctypes.data) == 0
    assert acl.aclrtHostUnregister(x.ctypes.data) != 0


def test_contiguous_inputs_are_passed_without_a_copy(monkeypatch):
    seen = {}
    real_run = _core.run

    def spy(name, inputs, out, parameters, regions):
        seen["addresses"] = [spec[0] for spec in inputs]
        return real_run(name, inputs, out, parameters, regions)

    monkeypatch.setattr(_core, "run", spy)
    x = np.ones((8, 16), np.float32)
    y = np.ones((8, 16), np.float16)[:, ::2]  # strided: also passed in place
    aclnn_cpu.soft_margin_loss(x[:, :8], y, reduction="none")
    assert seen["addresses"] == [x.ctypes.data, y.__array_interface__["data"][0]]


def test_threads_run_concurrently_and_agree():
    rng = np.random.default_rng(6)
    x = rng.uniform(-5, 5, (256, 1024)).astype(np.float32)
    y = np.sign(rng.uniform(-1, 1, 1024)).astype(np.float32)
    expected = aclnn_cpu.soft_margin_loss(x, y, reduction="none").tobytes()
    results, errors = [], []

    def work():
        try:
            for _ in range(5):
                results.append(aclnn_cpu.soft_margin_loss(x, y, reduction="none").tobytes())
        except Exception as error:  # noqa: BLE001 -- reported below
            errors.append(error)

    threads = [threading.Thread(target=work) for _ in range(4)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert not errors
    assert len(results) == 20 and all(r == expected for r in results)


def test_negative_strides_are_copied_and_give_the_same_bits():
    rng = np.random.default_rng(7)
    x = rng.uniform(-5, 5, (16, 32)).astype(np.float32)
    y = np.sign(rng.uniform(-1, 1, (16, 32))).astype(np.float32)
    reversed_view = x[::-1, ::-1]
    got = aclnn_cpu.soft_margin_loss(reversed_view, y, reduction="none")
    expected = aclnn_cpu.soft_margin_loss(np.ascontiguousarray(reversed_view), y, reduction="none")
    assert got.tobytes() == expected.tobytes()


@pytest.mark.parametrize("name", sorted(n for n, i in _operators.OPERATORS.items() if i.result == "loss_over_first_dim"))
def test_an_empty_first_dim_gives_zeros_not_leftovers(name):
    """CANN's operator writes nothing for an empty input; the Python result is then zeros, in either kind."""
    function, arity = OPERATORS[name]
    for reduction in ("mean", "sum"):
        got = function(*[np.ones((0, 5), np.float32)] * arity, reduction=reduction)
        assert got.shape == (5,) and not np.any(np.asarray(got))


@pytest.mark.parametrize("log_target", [False, True])
def test_kl_div_backward_sums_a_larger_target_back_to_self(log_target):
    """A target that enlarges self's shape: CANN computes the gradient over the broadcast shape and ReduceSums it
    back to self's; each element rounded to fp32 first, the sum rounded once."""
    rng = np.random.default_rng(12)
    grad = rng.uniform(-2, 2, (5, 1, 7)).astype(np.float32)
    self_ = np.zeros((3, 1), np.float32)  # only its shape is read
    target = rng.uniform(0, 1, (5, 3, 7)).astype(np.float32)
    for reduction, scale in (("none", 1.0), ("mean", np.float32(1.0 / target.size))):
        got = aclnn_cpu.kl_div_backward(grad, self_, target, reduction=reduction, log_target=log_target)
        assert got.shape == (3, 1) and got.dtype == np.float32
        t = np.exp(target.astype(np.float64)) if log_target else target.astype(np.float64)
        elements = (-(t * grad) * np.float64(scale)).astype(np.float32).astype(np.float64)
        expected = elements.sum(axis=(0, 2)).reshape(3, 1).astype(np.float32)
        # Each fp32 element within an ulp or two of the float64 one (CANN's exp, the mean's scale).
        bound = 2.0 ** -22 * np.abs(elements).sum(axis=(0, 2)).reshape(3, 1)
        assert np.all(np.abs(got - expected) <= bound), (got, expected)


def test_l1_loss_computes_integers_in_int64_and_promotes_mixed_calls():
    """CANN's int64 path (Sub, Abs, ReduceSum): exact far past 2^53, wrapping as numpy's int64 does; the result
    is INT64. An integer beside a floating input is read in the floating type."""
    rng = np.random.default_rng(21)
    x = rng.integers(-2**63, 2**63 - 1, 1000, dtype=np.int64, endpoint=True)
    y = rng.integers(-2**31, 2**31, 1000).astype(np.int32)
    with np.errstate(over="ignore"):
        expected = np.abs(x - y.astype(np.int64))
    got = aclnn_cpu.l1_loss(x, y, reduction="none")
    assert got.dtype == np.int64 and np.array_equal(got, expected)
    total = aclnn_cpu.l1_loss(x, y, reduction="sum")
    assert total.dtype == np.int64 and int(total) == int(expected.sum(dtype=np.int64))
    small = rng.integers(-300, 300, 64).astype(np.int32)
    half = rng.uniform(-300, 300, 64).astype(np.float16)
    mixed = aclnn_cpu.l1_loss(half, small, reduction="none")
    assert mixed.dtype == np.float16
    assert mixed.tobytes() == aclnn_cpu.l1_loss(half, small.astype(np.float16), reduction="none").tobytes()
    with pytest.raises(aclnn_cpu.AclnnError, match="floating point") as error:
        aclnn_cpu.l1_loss(x, x, reduction="mean")
    assert error.value.status == 161002
