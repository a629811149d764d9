"""aclnn_cpu.torch: PyTorch's own API (nn.SoftMarginLoss, autograd, out=) running CANN's operators."""
import os
import subprocess
import sys
import threading
import time
import warnings

import numpy as np
import pytest

import aclnn_cpu

torch = pytest.importorskip("torch", reason="PyTorch (python3-torch) is not installed")
import aclnn_cpu.torch as override  # noqa: E402
from torch_support import disabled_after, storage_bytes  # noqa: E402,F401 -- the fixture applies to every test

F = torch.nn.functional
DTYPES = {"float32": torch.float32, "float16": torch.float16, "bfloat16": torch.bfloat16}
REDUCTIONS = ["none", "mean", "sum"]
LAYOUTS = ["contiguous", "transposed", "broadcast_target", "expanded"]



def as_numpy(tensor):
    """The elements as numpy (a Bfloat16 for bfloat16), for aclnn_cpu.compare."""
    tensor = tensor.detach().contiguous()
    if tensor.dtype == torch.bfloat16:
        return aclnn_cpu.Bfloat16(tensor.view(torch.int16).numpy().view(np.uint16))
    return tensor.numpy()


def make_inputs(layout, dtype, seed):
    """(leaf, self view, target) for a layout; self's values in [-10, 10], target mostly +-1."""
    generator = torch.Generator().manual_seed(seed)

    def values(*shape):
        return (torch.rand(*shape, generator=generator) * 20 - 10).to(dtype)

    def signs(*shape):
        return torch.where(torch.rand(*shape, generator=generator) < 0.5, -1.0, 1.0).to(dtype)

    if layout == "contiguous":
        leaf = values(24, 40).requires_grad_()
        return leaf, leaf, signs(24, 40)
    if layout == "transposed":
        leaf = values(40, 24).requires_grad_()
        return leaf, leaf.t(), signs(40, 24).t()
    if layout == "broadcast_target":
        leaf = values(24, 40).requires_grad_()
        return leaf, leaf, signs(40)
    leaf = values(24, 1).requires_grad_()  # expanded: stride-0 views of both
    return leaf, leaf.expand(24, 40), signs(1, 40).expand(24, 40)


@pytest.mark.parametrize("layout", LAYOUTS)
@pytest.mark.parametrize("reduction", REDUCTIONS)
@pytest.mark.parametrize("dtype", sorted(DTYPES))
def test_module_and_autograd_equal_the_package_bit_for_bit(dtype, reduction, layout):
    torch_type = DTYPES[dtype]
    leaf, x, y = make_inputs(layout, torch_type, seed=len(layout) * 7 + REDUCTIONS.index(reduction))
    x.retain_grad()
    incoming = None
    with override.enabled():
        loss = torch.nn.SoftMarginLoss(reduction=reduction)(x, y)
        if reduction == "none":
            incoming = (torch.rand(loss.shape, generator=torch.Generator().manual_seed(3)) - 0.5).to(torch_type)
            loss.backward(incoming)
        else:
            loss.backward()  # a 0-d incoming gradient
    assert loss.dtype == torch_type and x.grad.dtype == torch_type
    expected_loss = aclnn_cpu.soft_margin_loss(x.detach(), y, reduction=reduction, out_dtype=torch_type)
    assert storage_bytes(loss) == storage_bytes(expected_loss)
    grad_output = incoming if incoming is not None else torch.ones((), dtype=torch_type)
    expected_grad = aclnn_cpu.soft_margin_loss_backward(grad_output, x.detach(), y, reduction=reduction,
                                                        out_dtype=torch_type)
    assert tuple(x.grad.shape) == tuple(expected_grad.shape)
    assert storage_bytes(x.grad) == storage_bytes(expected_grad)

    # A float64 golden, rounded once to the result's dtype (a float16 subnormal holds a few bits: the unrounded
    # value would judge the format, not the kernel), by CANN's precision standard. float64 itself runs
    # PyTorch's own kernel.
    x64, y64 = x.detach().double().requires_grad_(), y.double()
    golden_loss = F.soft_margin_loss(x64, y64, reduction=reduction)
    golden_grad, = torch.autograd.grad(golden_loss, x64, grad_output.double().expand_as(golden_loss))
    for got, golden in ((loss, golden_loss), (x.grad, golden_grad)):
        result = aclnn_cpu.compare(as_numpy(got.reshape(-1)), as_numpy(golden.reshape(-1).to(torch_type)),
                                   dtype=dtype)
        assert result.passed, result.report()


@pytest.mark.parametrize("types", [(torch.bfloat16, torch.float16), (torch.float16, torch.float32),
                                   (torch.float32, torch.bfloat16)])
def test_mixed_dtypes_follow_self_and_cann_promotion(types):
    self_type, target_type = types
    generator = torch.Generator().manual_seed(11)
    x = (torch.rand(16, 33, generator=generator) * 8 - 4).to(self_type).requires_grad_()
    y = torch.where(torch.rand(33, generator=generator) < 0.5, -1.0, 1.0).to(target_type)
    with override.enabled():
        loss = F.soft_margin_loss(x, y, reduction="sum")
        grad, = torch.autograd.grad(loss, x)
    assert loss.dtype == self_type and grad.dtype == self_type  # PyTorch's result dtypes
    assert storage_bytes(loss) == storage_bytes(
        aclnn_cpu.soft_margin_loss(x.detach(), y, reduction="sum", out_dtype=self_type))
    assert storage_bytes(grad) == storage_bytes(aclnn_cpu.soft_margin_loss_backward(
        torch.ones((), dtype=self_type), x.detach(), y, reduction="sum", out_dtype=self_type))


def test_cann_arithmetic_where_pytorch_overflows_and_has_no_float16_kernel():
    x = torch.tensor([-100.0, 100.0, 0.5])
    y = torch.ones(3)
    assert torch.isinf(F.soft_margin_loss(x, y, reduction="none")[0])  # PyTorch: log1p(exp(100)) = inf
    with pytest.raises(RuntimeError, match="Half"):
        F.soft_margin_loss(x.half(), y.half())
    with override.enabled():
        loss = F.soft_margin_loss(x, y, reduction="none")
        assert torch.isfinite(loss).all() and abs(loss[0].item() - 100.0) < 1e-4
        assert F.soft_margin_loss(x.half(), y.half()).dtype == torch.float16


def test_enable_disable_and_nesting():
    assert not override.is_enabled()
    marker = torch.tensor([-100.0])  # finite only with CANN's arithmetic

    def overridden():
        return bool(torch.isfinite(F.soft_margin_loss(marker, torch.ones(1))))

    assert not overridden()
    override.enable()
    override.enable()  # idempotent
    assert override.is_enabled() and overridden()
    with override.enabled(False):
        assert not override.is_enabled() and not overridden()
        with override.enabled():
            assert override.is_enabled() and overridden()
        assert not override.is_enabled()
    assert override.is_enabled() and overridden()
    override.disable()
    override.disable()
    assert not override.is_enabled() and not overridden()
    with pytest.raises(ZeroDivisionError):
        with override.enabled():
            raise ZeroDivisionError
    assert not override.is_enabled(), "an exception in the block still restores the state"


def test_state_is_process_wide_and_threads_may_call():
    results = {}

    def worker(index):
        results[index] = torch.isfinite(F.soft_margin_loss(torch.tensor([-100.0] * (index + 1)),
                                                           torch.ones(index + 1))).item()

    with override.enabled():
        threads = [threading.Thread(target=worker, args=(k,)) for k in range(4)]
        for thread in threads:
            thread.start()
        for thread in threads:
            thread.join()
    assert results == {0: True, 1: True, 2: True, 3: True}


def test_thread_count_follows_torch_unless_the_environment_sets_it(monkeypatch):
    generator = torch.Generator().manual_seed(5)
    x, y = torch.rand(300, 1000, generator=generator) * 6 - 3, torch.ones(1000)
    previous = torch.get_num_threads()
    monkeypatch.delenv("ACLNN_CPU_NUM_THREADS", raising=False)
    try:
        torch.set_num_threads(1)
        assert override._thread_count() == 1
        with override.enabled():
            one = F.soft_margin_loss(x, y, reduction="sum")
        torch.set_num_threads(2)
        assert override._thread_count() == 2
        with override.enabled():
            two = F.soft_margin_loss(x, y, reduction="sum")
        assert storage_bytes(one) == storage_bytes(two), "the sum's bits do not depend on the thread count"
        monkeypatch.setenv("ACLNN_CPU_NUM_THREADS", "1")
        assert override._thread_count() == 0, "the library then reads ACLNN_CPU_NUM_THREADS itself"
    finally:
        torch.set_num_threads(previous)


def test_out_variants_write_into_the_given_tensor():
    generator = torch.Generator().manual_seed(13)
    x = torch.rand(12, 20, generator=generator) * 8 - 4
    y = torch.where(torch.rand(20, generator=generator) < 0.5, -1.0, 1.0)
    g = torch.rand(12, 20, generator=generator)
    with override.enabled():
        out = torch.empty(20, 12).t()  # a strided out of the right shape: written through its strides
        address = out.data_ptr()
        returned = torch.ops.aten.soft_margin_loss.out(x, y, 0, out=out)
        assert returned is out and out.data_ptr() == address and out.stride() == (1, 12)
        assert storage_bytes(out) == storage_bytes(aclnn_cpu.soft_margin_loss(x, y, reduction="none"))

        empty = torch.empty(0)
        torch.ops.aten.soft_margin_loss.out(x, y, 1, out=empty)  # resized to 0-d, no warning
        assert empty.shape == () and storage_bytes(empty) == storage_bytes(aclnn_cpu.soft_margin_loss(x, y))

        wrong = torch.empty(7)
        with pytest.warns(UserWarning, match="resized"):  # PyTorch's resize_output, and its warning
            torch._C._nn.soft_margin_loss(x, y, 2, out=wrong)
        assert wrong.shape == ()

        as_half = torch.empty(12, 20, dtype=torch.float16)  # out's dtype is the one written
        torch.ops.aten.soft_margin_loss_backward.grad_input(g, x, y, 1, grad_input=as_half)
        assert storage_bytes(as_half) == storage_bytes(
            aclnn_cpu.soft_margin_loss_backward(g, x, y, reduction="mean", out_dtype="float16"))

        as_double = torch.empty(12, 20, dtype=torch.float64)  # no CANN kernel: PyTorch's own
        torch.ops.aten.soft_margin_loss_backward.grad_input(g, x, y, 1, grad_input=as_double)
    reference = torch.ops.aten.soft_margin_loss_backward(g.double(), x.double(), y.double(), 1)
    assert torch.allclose(as_double, reference, rtol=1e-6)


def test_float64_runs_pytorchs_own_kernel_unchanged():
    generator = torch.Generator().manual_seed(17)
    x = (torch.rand(9, 31, generator=generator) * 20 - 10).double().requires_grad_()
    y = torch.where(torch.rand(31, generator=generator) < 0.5, -1.0, 1.0).double()
    own_loss = F.soft_margin_loss(x, y)
    own_grad, = torch.autograd.grad(own_loss, x)
    with override.enabled():
        loss = F.soft_margin_loss(x, y)
        grad, = torch.autograd.grad(loss, x)
    assert storage_bytes(loss) == storage_bytes(own_loss) and storage_bytes(grad) == storage_bytes(own_grad)


def test_errors_carry_the_status_and_canns_message():
    with override.enabled():
        with pytest.raises(aclnn_cpu.AclnnError) as error:
            F.soft_margin_loss(torch.zeros(3, 4), torch.zeros(5), reduction="none")
        assert isinstance(error.value, RuntimeError) and error.value.status == 161002
        assert "aclnnSoftMarginLossGetWorkspaceSize returned 161002" in str(error.value)
        assert "must match the size" in error.value.message
        with pytest.raises(aclnn_cpu.AclnnError) as error:
            torch.ops.aten.soft_margin_loss_backward(torch.ones(2), torch.zeros(3), torch.zeros(3), 0)
        assert error.value.status == 161002


def test_the_override_never_reaches_a_process_that_did_not_enable_it():
    program = (
        "import torch, warnings, aclnn_cpu, aclnn_cpu.torch as o\n"
        "F = torch.nn.functional\n"
        "assert not o.is_enabled()\n"
        "assert not torch._C._dispatch_has_kernel_for_dispatch_key('aten::soft_margin_loss', 'BackendSelect')\n"
        "print(F.soft_margin_loss(torch.tensor([-100.0]), torch.ones(1)).item())\n"
        "with warnings.catch_warnings():\n"
        "    warnings.simplefilter('error')  # registering warns about nothing\n"
        "    o.enable()\n"
        "print(F.soft_margin_loss(torch.tensor([-100.0]), torch.ones(1)).item())\n"
        "o.disable()\n"
        "assert torch._C._dispatch_has_kernel_for_dispatch_key('aten::soft_margin_loss', 'BackendSelect')\n"
        "print(F.soft_margin_loss(torch.tensor([-100.0]), torch.ones(1)).item())\n")
    done = subprocess.run([sys.executable, "-c", program], capture_output=True, text=True, env=dict(os.environ),
                          timeout=120)
    assert done.returncode == 0, done.stderr
    # PyTorch's log1p(exp(100)) overflows; CANN's is finite; disabled, PyTorch's own kernel runs again (the
    # registration stays, the flag it reads is off).
    assert done.stdout.split() == ["inf", "100.0", "inf"]


def toggle_while_using(seconds, users):
    """Toggles the override from this thread for `seconds` while `users` threads call the loss; returns how
    many calls the users made and any exception they raised. Issue 40's reproducer, bounded."""
    x, y = torch.randn(1000), torch.ones(1000)
    stop = threading.Event()
    calls, errors = [0] * users, []

    def use(index):
        try:
            while not stop.is_set():
                F.soft_margin_loss(x, y)
                calls[index] += 1
        except Exception as error:  # noqa: BLE001 -- reported by the test
            errors.append(error)

    threads = [threading.Thread(target=use, args=(k,)) for k in range(users)]
    for thread in threads:
        thread.start()
    deadline = time.monotonic() + seconds
    toggles = 0
    try:
        while time.monotonic() < deadline:
            with override.enabled():
                pass
            toggles += 1
    finally:
        stop.set()
        for thread in threads:
            thread.join()
    return sum(calls), toggles, errors


@pytest.mark.parametrize("users", [1, 4])
def test_toggling_while_other_threads_call_the_loss(users):
    """Each toggle used to register and drop a torch.library.Library, and PyTorch 1.13 freed the Python kernel
    under a running call (SIGSEGV, or an INTERNAL ASSERT in SafePyObject). Run in a child process, so a crash
    fails this test instead of the whole suite."""
    program = (
        "import sys; sys.path[:0] = " + repr(sys.path) + "\n"
        "from test_torch_override import toggle_while_using\n"
        f"calls, toggles, errors = toggle_while_using(4.0, {users})\n"
        "assert not errors, errors\n"
        "assert calls > 100 and toggles > 100, (calls, toggles)\n"
        "print('ok', calls, toggles)\n")
    done = subprocess.run([sys.executable, "-c", program], capture_output=True, text=True, timeout=120,
                          cwd=os.path.dirname(os.path.abspath(__file__)), env=dict(os.environ))
    assert done.returncode == 0, f"exit {done.returncode}: {done.stderr[-2000:]}"
    assert done.stdout.startswith("ok")


@pytest.mark.parametrize("label_type", [torch.int64, torch.int32, torch.bool])
@pytest.mark.parametrize("dtype", sorted(DTYPES))
def test_integer_and_bool_labels_run_canns_arithmetic(dtype, label_type):
    """PyTorch promotes an integer or bool target to the input's floating type; so does the override, and then
    runs CANN's arithmetic -- the same bits as with a target of the input's type."""
    torch_type = DTYPES[dtype]
    x = (torch.rand(6, 50, generator=torch.Generator().manual_seed(23)) * 200 - 100).to(torch_type)
    labels = torch.where(torch.rand(6, 50, generator=torch.Generator().manual_seed(29)) < 0.5, -1, 1)
    if label_type == torch.bool:
        labels = labels > 0  # True/False: 1 and 0
    labels = labels.to(label_type)
    as_float = labels.to(torch_type)
    with override.enabled():
        for reduction in REDUCTIONS:
            loss = F.soft_margin_loss(x, labels, reduction=reduction)
            assert loss.dtype == torch_type
            assert storage_bytes(loss) == storage_bytes(F.soft_margin_loss(x, as_float, reduction=reduction))
        leaf = x.clone().requires_grad_()
        grad, = torch.autograd.grad(F.soft_margin_loss(leaf, labels), leaf)
        leaf_float = x.clone().requires_grad_()
        grad_float, = torch.autograd.grad(F.soft_margin_loss(leaf_float, as_float), leaf_float)
        assert storage_bytes(grad) == storage_bytes(grad_float)


def test_an_integer_label_no_longer_skips_cann():
    with override.enabled():
        # PyTorch's kernel gives inf here; CANN's arithmetic the finite 100.
        assert F.soft_margin_loss(torch.tensor([100.0]), torch.tensor([-1])).item() == 100.0
        half = F.soft_margin_loss(torch.tensor([2.0], dtype=torch.float16), torch.tensor([1]))
    assert half.dtype == torch.float16 and abs(half.item() - 0.126928) < 1e-3


@pytest.mark.parametrize("shape", [(2, 1, 3, 2, 1, 2, 3, 2, 2), (2, 2, 2, 2, 2, 2, 2, 2, 2, 3)])
def test_more_than_eight_dims_are_merged(shape):
    """The loss is elementwise: dims are merged (here to at most 8) rather than refused with 161002."""
    generator = torch.Generator().manual_seed(31)
    x = (torch.rand(*shape, generator=generator) * 8 - 4).requires_grad_()
    target_shape = shape[-3:]  # broadcast over the leading dims
    y = torch.where(torch.rand(*target_shape, generator=generator) < 0.5, -1.0, 1.0)
    with override.enabled():
        for reduction in REDUCTIONS:
            loss = F.soft_margin_loss(x, y, reduction=reduction)
            flat = aclnn_cpu.soft_margin_loss(
                x.detach().reshape(-1, *target_shape), y, reduction=reduction).reshape(loss.shape)
            assert storage_bytes(loss) == storage_bytes(flat)
        grad, = torch.autograd.grad(F.soft_margin_loss(x, y), x)
    expected = torch.ops.aten.soft_margin_loss_backward(torch.tensor(1.0, dtype=torch.float64), x.double(),
                                                        y.double(), 1)
    assert grad.shape == x.shape and torch.allclose(grad.double(), expected, rtol=1e-5, atol=1e-9)
    strided = x.detach().transpose(0, 8)  # merged where the strides allow, else PyTorch's kernel
    with override.enabled():
        got = F.soft_margin_loss(strided, torch.ones(strided.shape[-1]), reduction="none")
    reference = F.soft_margin_loss(strided.double(), torch.ones(strided.shape[-1], dtype=torch.float64),
                                   reduction="none")
    assert torch.allclose(got.double(), reference, rtol=1e-6)


@pytest.mark.parametrize("dtype", sorted(DTYPES))
def test_results_come_from_pytorchs_allocator_and_resize(dtype):
    """A result behaves as one PyTorch returns: its storage is resizable (resize_, out= of cat, x.grad)."""
    torch_type = DTYPES[dtype]
    generator = torch.Generator().manual_seed(19)
    x = (torch.rand(512, 1100, generator=generator) * 16 - 8).to(torch_type).requires_grad_()
    y = torch.where(torch.rand(1100, generator=generator) < 0.5, -1.0, 1.0).to(torch_type)
    assert x.numel() * x.element_size() >= 1 << 20
    with override.enabled():
        loss = F.soft_margin_loss(x, y, reduction="none")
        loss.sum().backward()
    assert storage_bytes(loss) == storage_bytes(
        aclnn_cpu.soft_margin_loss(x.detach(), y, reduction="none", out_dtype=torch_type))
    assert storage_bytes(x.grad) == storage_bytes(aclnn_cpu.soft_margin_loss_backward(
        torch.ones(512, 1100, dtype=torch_type), x.detach(), y, reduction="none", out_dtype=torch_type))
    kept = loss.detach().clone()
    grown = loss.detach()
    grown.resize_(2 * grown.numel())
    assert storage_bytes(grown[:kept.numel()]) == storage_bytes(kept.reshape(-1))
    torch.cat([kept, kept], out=loss.detach())
    x.grad.resize_(3, 1100)
    assert x.grad.shape == (3, 1100)


def test_a_forked_child_computes_after_a_multi_threaded_call():
    """os.fork and a DataLoader's fork workers after the parent ran an operator on two threads: each child
    computes the parent's bits and returns (OpenMP's pool does not survive fork; the library then runs the
    child's operators on its calling thread)."""
    program = (
        "import os, numpy as np, torch, aclnn_cpu, aclnn_cpu.torch as override\n"
        "x = torch.linspace(-3, 3, 1 << 21); y = torch.linspace(2, -1, 1 << 21)\n"
        "override.enable()\n"
        "parent = torch.nn.functional.mse_loss(x, y)\n"
        "direct = aclnn_cpu.soft_margin_loss(x.numpy(), np.sign(y.numpy()))\n"
        "pid = os.fork()\n"
        "if pid == 0:\n"
        "    same = torch.equal(torch.nn.functional.mse_loss(x, y), parent)\n"
        "    same = same and aclnn_cpu.soft_margin_loss(x.numpy(), np.sign(y.numpy())) == direct\n"
        "    os._exit(0 if same else 3)\n"
        "_, status = os.waitpid(pid, 0)\n"
        "assert os.WIFEXITED(status) and os.WEXITSTATUS(status) == 0, status\n"
        "class Losses(torch.utils.data.Dataset):\n"
        "    def __len__(self): return 4\n"
        "    def __getitem__(self, i): return torch.nn.functional.mse_loss(x, y + i)\n"
        "loader = torch.utils.data.DataLoader(Losses(), num_workers=2, multiprocessing_context='fork')\n"
        "got = torch.cat([batch for batch in loader])\n"
        "assert torch.equal(got, torch.stack([torch.nn.functional.mse_loss(x, y + i) for i in range(4)])), got\n"
        "print('ok')\n")
    environment = dict(os.environ, ACLNN_CPU_NUM_THREADS="2")
    done = subprocess.run([sys.executable, "-c", program], capture_output=True, text=True, timeout=120,
                          env=environment)
    assert done.returncode == 0, f"exit {done.returncode}: {done.stderr[-2000:]}"
    assert done.stdout.strip() == "ok"
