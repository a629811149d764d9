"""PyTorch on CANN's arithmetic: while enabled, PyTorch's CPU kernels of the operators in aclnn-cpu's table
(aten::soft_margin_loss, aten::soft_margin_loss_backward and their out= forms) are aclnn-cpu's, so unchanged
code -- F.soft_margin_loss, nn.SoftMarginLoss, loss.backward(), torch.autograd.grad, DistributedDataParallel --
gets the numbers torch_npu gets from aclnnSoftMarginLoss / aclnnSoftMarginLossBackward on the NPU.

    import aclnn_cpu.torch
    aclnn_cpu.torch.enable()              # or: with aclnn_cpu.torch.enabled(): ...

The kernels are registered with PyTorch's dispatcher (torch.library) for the CPU dispatch key; autograd stays
PyTorch's (its derivative of soft_margin_loss calls soft_margin_loss_backward, which is then ours too). Each
call goes through the C API exactly as aclnn_cpu.soft_margin_loss does (phase 1, workspace, phase 2, stream
sync) on the tensors' own memory. Dtypes CANN has no kernel for (float64) run PyTorch's own kernel. The state
is process-wide, as the dispatcher is; every process (every DistributedDataParallel rank) enables its own.
"""
import contextlib
import math
import mmap
import os
import threading
import warnings

import numpy as np
import torch

from . import _core
from ._operands import byte_range, merge_ranges
from ._operators import OPERATORS

__all__ = ["enable", "disable", "is_enabled", "enabled"]

_ACL_TYPES = {torch.float32: 0, torch.float16: 1, torch.bfloat16: 27}
_FALLBACK_KEY = torch._C.DispatchKey.CompositeExplicitAutograd  # where PyTorch's own kernels live
_state_lock = threading.RLock()
_library = None  # the torch.library.Library holding our registrations, while enabled


def _spec(tensor):
    """(address, aclDataType, shape, element strides) of a CPU tensor, as _core.run takes it."""
    return (tensor.data_ptr(), _ACL_TYPES[tensor.dtype], list(tensor.shape), list(tensor.stride()))


def _regions(tensors):
    """The tensors' byte ranges, merged: each is registered once for the call."""
    return merge_ranges(byte_range(t.data_ptr(), t.shape, t.stride(), t.element_size()) for t in tensors)


def _thread_count():
    """PyTorch's intra-op thread count, unless ACLNN_CPU_NUM_THREADS says otherwise (0: the library decides)."""
    return 0 if os.environ.get("ACLNN_CPU_NUM_THREADS") else torch.get_num_threads()


# Results of this many bytes or more are mapped with MAP_POPULATE instead of torch.empty: a fresh large
# tensor from the allocator is faulted in one 4 KiB page at a time when first written, and under
# virtualization each fault is a trap -- measured on the Zen 5 guest, 64 MiB took 130-220 ms to first-touch
# and 10-15 ms to map populated. A training step allocates its gradient anew every time.
_POPULATE_BYTES = 1 << 20
_MAP_FLAGS = getattr(mmap, "MAP_PRIVATE", 0) | getattr(mmap, "MAP_ANONYMOUS", 0) | getattr(mmap, "MAP_POPULATE", 0)
_NUMPY_STORAGE = {torch.float32: np.dtype(np.float32), torch.float16: np.dtype(np.float16),
                  torch.bfloat16: np.dtype(np.int16)}


def _new_result(shape, dtype):
    bytes_needed = math.prod(shape) * _NUMPY_STORAGE[dtype].itemsize
    if bytes_needed < _POPULATE_BYTES or not hasattr(mmap, "MAP_POPULATE"):
        return torch.empty(shape, dtype=dtype)
    # The tensor holds the numpy array, which holds the mapping: it is unmapped when the tensor is freed.
    mapping = mmap.mmap(-1, bytes_needed, flags=_MAP_FLAGS)
    storage = np.frombuffer(mapping, dtype=_NUMPY_STORAGE[dtype]).reshape(shape)
    return torch.from_numpy(storage).view(dtype)


def _result_shape(info, inputs, reduction):
    if info.reduction_gives_scalar and reduction != 0:
        return ()
    # Shapes that do not broadcast keep the first input's shape: phase 1 then names them (161002).
    try:
        return tuple(torch.broadcast_shapes(*(tensor.shape for tensor in inputs)))
    except RuntimeError:
        return tuple(inputs[0].shape)


def _prepare_out(out, shape):
    """torch's out= convention (ATen's resize_output): an out of another shape is resized, with a warning
    when it had elements, since PyTorch deprecates resizing a non-empty out."""
    if tuple(out.shape) != shape:
        if out.numel() != 0:
            warnings.warn(f"out= had shape {list(out.shape)}, not the result's {list(shape)}: resized (PyTorch "
                          "deprecates resizing an out= tensor that has elements; pass one of zero elements)",
                          UserWarning, stacklevel=3)
        out.resize_(shape)
    return out


class _Kernel:
    """One aten overload of a table operator: the functional form (a new result) or the out= form."""

    def __init__(self, info, overload, out_name):
        self.info = info
        self.overload = overload  # torch.ops.aten.<name>.<overload>, for the float64 fallback
        self.out_name = out_name  # the out= argument's name, or None for the functional form

    def __call__(self, *args, **kwargs):
        count = len(self.info.input_names)
        inputs = args[:count]
        reduction = args[count] if len(args) > count else kwargs.get("reduction", 1)
        out = None
        if self.out_name is not None:
            out = kwargs[self.out_name] if self.out_name in kwargs else args[count + 1]
        if any(tensor.dtype not in _ACL_TYPES for tensor in inputs + ((out,) if out is not None else ())):
            return self.overload._op_dk(_FALLBACK_KEY, *args, **kwargs)
        shape = _result_shape(self.info, inputs, reduction)
        # PyTorch's result has self's dtype (the loss and the gradient alike); CANN's arithmetic runs in the
        # inputs' promoted type and is converted once on the way out.
        self_tensor = inputs[self.info.input_names.index("self")]
        result = _new_result(shape, self_tensor.dtype) if out is None else _prepare_out(out, shape)
        _core.run(self.info.name, [_spec(tensor) for tensor in inputs], _spec(result), int(reduction),
                  _regions(inputs + (result,)), _thread_count())
        return result


def _registrations():
    """(aten overload name, kernel) for each table operator PyTorch also has, functional and out= forms."""
    for name, info in OPERATORS.items():
        packet = getattr(torch.ops.aten, name, None)
        if packet is None:
            continue
        for overload_name in packet.overloads():
            overload = getattr(packet, overload_name)
            schema = overload._schema
            mutable = [argument.name for argument in schema.arguments
                       if argument.alias_info is not None and argument.alias_info.is_write]
            qualified = name if overload_name == "default" else f"{name}.{overload_name}"
            if not torch._C._dispatch_has_kernel_for_dispatch_key(f"aten::{qualified}", _FALLBACK_KEY):
                raise RuntimeError(f"aten::{qualified} has no {_FALLBACK_KEY.name} kernel in this PyTorch "
                                   f"({torch.__version__}); aclnn_cpu.torch needs it for float64")
            yield qualified, _Kernel(info, overload, mutable[0] if mutable else None)


def enable():
    """Makes PyTorch's CPU kernels of the table's operators aclnn-cpu's (no effect when already enabled)."""
    global _library
    with _state_lock:
        if _library is not None:
            return
        library = torch.library.Library("aten", "IMPL")
        for qualified, kernel in _registrations():
            library.impl(qualified, kernel, "CPU")
        _library = library


def disable():
    """Gives PyTorch its own kernels back (no effect when not enabled)."""
    global _library
    with _state_lock:
        library, _library = _library, None
        # Dropping the last reference deregisters the kernels (torch.library.Library's destructor).
        del library


def is_enabled():
    return _library is not None


@contextlib.contextmanager
def enabled(state=True):
    """Within the block the override is on (or off, with state=False); the previous state comes back after."""
    with _state_lock:
        previous = is_enabled()
        enable() if state else disable()
    try:
        yield
    finally:
        with _state_lock:
            enable() if previous else disable()
