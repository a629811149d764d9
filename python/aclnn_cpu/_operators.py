"""The operators, called as from C: phase 1, workspace, phase 2, stream sync (in _core.run, GIL released)."""
import re

import numpy as np

from . import _core
from ._dtypes import ACL_BF16, ACL_FLOAT, NAMES, STORAGE, Bfloat16, parse_dtype
from ._operands import Operand, from_numpy, host_regions, operand

_REDUCTIONS = {"none": 0, "mean": 1, "sum": 2}


class OperatorInfo:
    """One row of the C++ operator table (ops/operator_table.h), which the CLI and the torch layer also read."""

    def __init__(self, name, api_name, input_names, reduction_gives_scalar):
        self.name = name
        self.api_name = api_name
        self.input_names = tuple(input_names)  # CANN's names: gradOutput, self, target
        self.reduction_gives_scalar = bool(reduction_gives_scalar)

    @property
    def python_names(self):
        """The inputs as Python (and PyTorch) spell them: gradOutput -> grad_output."""
        return tuple(re.sub(r"(?<!^)([A-Z])", r"_\1", name).lower() for name in self.input_names)


OPERATORS = {row[0]: OperatorInfo(*row) for row in _core.operators()}


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


def run_operator(name, values, reduction, out_dtype):
    """Runs the table's operator `name` on values (in its input order)."""
    info = OPERATORS[name]
    reduction = parse_reduction(reduction)
    inputs = [operand(input_name, value) for input_name, value in zip(info.input_names, values)]
    acl_type = _promoted_type(inputs) if out_dtype is None else parse_dtype(out_dtype)
    kind = "torch" if any(op.kind == "torch" for op in inputs) else "numpy"
    result, out = _allocate_result(kind, _result_shape(inputs, info.reduction_gives_scalar and reduction != 0),
                                   acl_type)
    _core.run(name, [op.spec() for op in inputs], out.spec(), reduction, host_regions(inputs + [out]))
    return result


def soft_margin_loss_backward(grad_output, self, target, reduction="mean", out_dtype=None):
    """aclnnSoftMarginLossBackward: gradInput = -target * exp(-target*self) / (1 + exp(-target*self)) *
    gradOutput (/ N for mean), for any strides and broadcasting. Returns the caller's kind of array
    (numpy -- a Bfloat16 for bfloat16 -- or torch) of the promoted dtype unless out_dtype says otherwise."""
    return run_operator("soft_margin_loss_backward", (grad_output, self, target), reduction, out_dtype)


def soft_margin_loss(self, target, reduction="mean", out_dtype=None):
    """aclnnSoftMarginLoss: log(1 + exp(-target*self)) per element ('none') or its mean or sum (0-d)."""
    return run_operator("soft_margin_loss", (self, target), reduction, out_dtype)
