"""PyTorch on CANN's arithmetic: while enabled, the aten operators of aclnn-cpu's operator table
(aten::soft_margin_loss, mse_loss, l1_loss, smooth_l1_loss, binary_cross_entropy(_with_logits), logit, _softmax,
_log_softmax, nll_loss_forward, nll_loss2d_forward, their backward and out= forms) run aclnn-cpu's kernels on CPU
tensors, so unchanged code -- F.mse_loss, nn.SmoothL1Loss, nn.BCELoss, F.softmax, F.cross_entropy,
nn.CrossEntropyLoss, loss.backward(), torch.autograd.grad, inference mode, DistributedDataParallel -- gets the
numbers torch_npu gets from aclnnMseLoss, aclnnSmoothL1LossBackward, aclnnLogSoftmax, aclnnNLLLoss, ... on the NPU.

    import aclnn_cpu.torch
    aclnn_cpu.torch.enable()              # or: with aclnn_cpu.torch.enabled(): ...
    aclnn_cpu.torch.enable(fused_cross_entropy=True)  # opt-in: F.cross_entropy by aclnnCrossEntropyLoss(Grad)

The kernels (aclnn_cpu._torch_kernels, C++) are registered with PyTorch's dispatcher at the first enable() and
stay registered; each call reads the process-wide on/off flag, so toggling is safe from any thread at any time.
Autograd stays PyTorch's where PyTorch has a kernel of the operator (its derivative of mse_loss calls
mse_loss_backward, which is then ours too); for aten::l1_loss, which PyTorch decomposes into other operators,
and aten::binary_cross_entropy_with_logits, whose derivative PyTorch computes from other operators, the
override records aclnnL1LossBackward and aclnnBinaryCrossEntropyWithLogitsBackward as the derivatives; taken with
create_graph=True, those keep CANN's values and carry the derivative of PyTorch's own formula, so Hessians and
gradient penalties are PyTorch's. functorch's wrapped tensors reach the kernels unwrapped (docs/usage.md says which
arithmetic each transform gets). Each call goes through the C API exactly as
aclnn_cpu.mse_loss does (phase 1, workspace, phase 2, stream sync) on the tensors' own memory, into a result
from PyTorch's allocator. Integer and bool inputs are promoted as PyTorch promotes them, mixed floating dtypes
follow PyTorch's rule for each operator (refused where PyTorch refuses them); what CANN has no
kernel for (float64) or a parameter outside CANN's range (a negative beta) runs PyTorch's own kernel. Every
process (every DistributedDataParallel rank) enables its own.
"""
import contextlib
import threading

import torch

from ._errors import AclnnError
from ._operators import OPERATORS

__all__ = ["enable", "disable", "is_enabled", "enabled"]

_state_lock = threading.RLock()
_registered = False
# aten overloads the table names that stay PyTorch's, with why (an argument the operator does not take).
unregistered = {}


def _overloads():
    """(table row, aten overload) for each aten overload a row serves ("" for the default overload)."""
    for name, info in OPERATORS.items():
        packet = getattr(torch.ops.aten, info.aten_name, None) if info.aten_name else None
        if packet is None:
            continue
        for overload in packet.overloads():
            yield name, "" if overload == "default" else overload


def _register():
    """Registers the kernels with PyTorch's dispatcher, once per process (they check the flag on every call)."""
    global _registered
    if _registered:
        return
    from . import _torch_kernels

    unregistered.update(_torch_kernels.register(list(_overloads()), AclnnError))
    _registered = True


def enable(fused_cross_entropy=None):
    """Makes PyTorch's CPU kernels of the table's operators aclnn-cpu's (no effect when already enabled).
    fused_cross_entropy=True: F.cross_entropy and nn.CrossEntropyLoss run CANN's fused aclnnCrossEntropyLoss and
    aclnnCrossEntropyLossGrad where they take the call (torch_npu.npu_cross_entropy_loss's arithmetic, not
    log_softmax + nll_loss's; aclnn_cpu._fused_cross_entropy says which calls); False turns that off; None leaves
    it as it is."""
    from . import _fused_cross_entropy

    with _state_lock:
        _register()
        from . import _torch_kernels

        _torch_kernels.set_enabled(True)
        if fused_cross_entropy is not None:
            _fused_cross_entropy.set_fused(fused_cross_entropy)


def disable():
    """Gives PyTorch its own kernels back (no effect when not enabled), the fused cross-entropy's opt-in off."""
    from . import _fused_cross_entropy

    with _state_lock:
        _fused_cross_entropy.set_fused(False)
        if _registered:
            from . import _torch_kernels

            _torch_kernels.set_enabled(False)


def _thread_count():
    """The thread count a call passes on: torch.get_num_threads(), or 0 when ACLNN_CPU_NUM_THREADS is set."""
    from . import _torch_kernels

    return _torch_kernels.thread_count()


def is_enabled():
    if not _registered:
        return False
    from . import _torch_kernels

    return _torch_kernels.is_enabled()


@contextlib.contextmanager
def enabled(state=True, fused_cross_entropy=False):
    """Within the block the override is on (or off, with state=False; fused_cross_entropy as enable() has it); the
    previous state comes back after."""
    from . import _fused_cross_entropy

    with _state_lock:
        previous, previous_fused = is_enabled(), _fused_cross_entropy.is_fused()
        enable(bool(fused_cross_entropy)) if state else disable()
    try:
        yield
    finally:
        with _state_lock:
            enable(previous_fused) if previous else disable()
