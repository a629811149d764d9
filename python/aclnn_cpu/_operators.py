"""The operators, called as from C: phase 1, workspace, phase 2, stream sync (in _core.run, GIL released)."""
import numpy as np

from . import _core
from ._dtypes import ACL_BF16, ACL_FLOAT, NAMES, STORAGE, Bfloat16, parse_dtype
from ._operands import Operand, from_numpy, host_regions, operand

_REDUCTIONS = {"none": 0, "mean": 1, "sum": 2}


def parse_reduction(reduction):
    """'none' | 'mean' | 'sum', or CANN's integer (0 none, 1 mean, any other value sum)."""
    if isinstance(reduction, str):
        if reduction.lower() in _REDUCTIONS:
            return _REDUCTIONS[reduction.lower()]
        raise ValueError(f"reduction {reduction!r} is not 'none', 'mean' or 'sum' (or CANN's integer)")
    if isinstance(reduction, (int, np.integer)) and not isinstance(reduction, bool):
        return int(reduction)
    raise TypeError(f"reduction must be a string or an integer, not {type(reduction).__name__}")


def _result_shape(inputs, reduced):
    if reduced:
        return ()
    try:
        return tuple(np.broadcast_shapes(*(op.shape for op in inputs)))
    except ValueError:
        # Shapes that do not broadcast: the C API names them (161002); out takes the first input's shape.
        return inputs[0].shape


def _promoted_type(inputs):
    types = {op.acl_type for op in inputs}
    return types.pop() if len(types) == 1 and next(iter(types)) in NAMES else ACL_FLOAT


def _allocate_result(kind, shape, acl_type):
    """The result array, in the caller's kind: torch for torch inputs, numpy (Bfloat16 for bfloat16) else."""
    if kind == "torch":
        import torch
        torch_type = {0: torch.float32, 1: torch.float16, 27: torch.bfloat16}[acl_type]
        result = torch.empty(shape, dtype=torch_type)
        strides = list(result.stride())
        item = result.element_size()
        return result, Operand("out", result.data_ptr(), acl_type, shape, strides, item, kind, result)
    storage = np.empty(shape, dtype=STORAGE[acl_type])
    return (Bfloat16(storage) if acl_type == ACL_BF16 else storage), from_numpy("out", storage, acl_type)


def run_operator(name, named_inputs, reduction, out_dtype, reduces):
    """reduces: whether a reduction other than none gives a 0-d result (the forward) or not (the gradient)."""
    reduction = parse_reduction(reduction)
    inputs = [operand(input_name, value) for input_name, value in named_inputs]
    acl_type = _promoted_type(inputs) if out_dtype is None else parse_dtype(out_dtype)
    kind = "torch" if any(op.kind == "torch" for op in inputs) else "numpy"
    result, out = _allocate_result(kind, _result_shape(inputs, reduces and reduction != 0), acl_type)
    _core.run(name, [op.spec() for op in inputs], out.spec(), reduction, host_regions(inputs + [out]))
    return result


def soft_margin_loss_backward(grad_output, self, target, reduction="mean", out_dtype=None):
    """aclnnSoftMarginLossBackward: gradInput = -target * exp(-target*self) / (1 + exp(-target*self)) *
    gradOutput (/ N for mean), for any strides and broadcasting. Returns the caller's kind of array
    (numpy -- a Bfloat16 for bfloat16 -- or torch) of the promoted dtype unless out_dtype says otherwise."""
    return run_operator("soft_margin_loss_backward",
                        [("gradOutput", grad_output), ("self", self), ("target", target)], reduction, out_dtype,
                        reduces=False)


def soft_margin_loss(self, target, reduction="mean", out_dtype=None):
    """aclnnSoftMarginLoss: log(1 + exp(-target*self)) per element ('none') or its mean or sum (0-d)."""
    return run_operator("soft_margin_loss", [("self", self), ("target", target)], reduction, out_dtype,
                        reduces=True)
