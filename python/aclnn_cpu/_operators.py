"""The operators, called as from C: phase 1, workspace, phase 2, stream sync (in _core.run, GIL released).

One Python function per row of the C++ operator table (ops/operator_table.h), made from the row: its inputs in
order (optional ones default to None), then its parameters as keywords with the row's defaults, then out_dtype.
"""
import functools
import re

import numpy as np

from . import _core
from ._dtypes import (ACL_BF16, ACL_FLOAT, ACL_INT64, INTEGER_STORAGE, INTEGER_TYPES, NAMES, STORAGE, Bfloat16,
                      parse_dtype, promote_types)
from ._operands import Operand, from_numpy, host_regions, operand

_REDUCTIONS = {"none": 0, "mean": 1, "sum": 2}
_REDUCTION_NAMES = {0: "none", 1: "mean", 2: "sum"}


def python_name(name):
    """CANN's camelCase name as Python (and PyTorch) spell it: gradOutput -> grad_output, logTarget -> log_target."""
    return re.sub(r"(?<!^)([A-Z])", r"_\1", name).lower()


class InputInfo:
    def __init__(self, name, aten_name, optional, domain, shape, role):
        self.name = name  # CANN's: gradOutput, self, target
        self.python_name = python_name(name)
        self.aten_name = aten_name
        self.optional = bool(optional)
        self.domain = _core.VALUE_DOMAINS[domain]  # "real", "sign_label", "gradient", "probability", "weight"
        # "broadcast" (with the others), "same_as_self" (exactly self's shape), "to_self" (to self's, no larger),
        # "to_broadcast" (to the others' broadcast shape, no larger)
        self.shape = shape
        self.role = role  # "incoming_gradient", "self", "target", "weight"


class ParameterInfo:
    def __init__(self, name, aten_name, type, default, minimum, maximum):  # noqa: A002 -- the row's field
        self.name = name
        self.python_name = python_name(name)
        self.aten_name = aten_name
        # "int64", "float", "double", "bool", "reduction" (an int64 naming none, mean, sum), "dim" (an int64 dim of
        # the input, negative ones counted from the end), "ignore_index" (an int64 class index that counts for
        # nothing)
        self.type = type
        self.default = default
        self.minimum = minimum
        self.maximum = maximum

    def python_default(self):
        if self.type == "reduction":
            return _REDUCTION_NAMES.get(int(self.default), int(self.default))
        return {"int64": int, "dim": int, "ignore_index": int, "float": float, "double": float,
                "bool": bool}[self.type](self.default)

    def to_double(self, value):
        """The value as the C table's adapters take it (a double)."""
        if self.type == "reduction":
            return float(parse_reduction(value))
        if self.type == "bool":
            return 1.0 if value else 0.0
        if self.type in ("int64", "dim", "ignore_index"):
            return float(int(value))
        return float(value)


class OperatorInfo:
    """One row of the C++ operator table, which the CLI and the torch layer also read."""

    def __init__(self, row):
        self.name = row["name"]
        self.api_name = row["api_name"]
        self.summary = row["summary"]
        self.inputs = tuple(InputInfo(**i) for i in row["inputs"])
        self.self_input = row["self_input"]
        self.parameters = tuple(ParameterInfo(**p) for p in row["parameters"])
        # "loss", "gradient", "loss_over_first_dim", "gradient_of_self", "elementwise"
        self.result = row["result"]
        self.inputs_share_dtype = row["inputs_share_dtype"]  # CANN requires one dtype for the inputs
        self.aten_name = row["aten_name"]
        self.out_dtype_input = row["out_dtype_input"]  # out's dtype must be this input's (CANN), or -1
        # "elementwise", "along_dim" (each result from its row along dim), "class_index" (each sample's class)
        self.iteration = row["iteration"]
        # The outputs after out: (CANN's name, "one_element" | "self" | "unwritten"), e.g. aclnnNLLLoss's
        # ("totalWeightOut", "one_element")
        self.more_outs = tuple(tuple(o) for o in row["more_outs"])
        self.self_ranks = tuple(row["self_ranks"])  # the ranks of self the op_api takes (min, max)

    @property
    def output_count(self):
        return 1 + len(self.more_outs)

    @property
    def class_indexed(self):
        """Whether the targets are class indices: the NLL losses and the fused cross-entropy."""
        return self.iteration in ("class_index", "class_rows")

    @property
    def returned_outs(self):
        """The names of the outputs a Python call returns after out (those the operator writes)."""
        return tuple(name for name, shape in self.more_outs if shape != "unwritten")

    @property
    def input_names(self):
        return tuple(i.name for i in self.inputs)

    @property
    def python_names(self):
        """The inputs as Python (and PyTorch) spell them: gradOutput -> grad_output."""
        return tuple(i.python_name for i in self.inputs)

    def result_shape(self, input_shapes, reduction, self_shape=None):
        """out's shape for these input shapes (all inputs, in order) and reduction value (self_shape: self's,
        where out may take it)."""
        if self.result == "gradient_of_self" and self_shape is not None:
            return tuple(self_shape)  # the gradient over the broadcast shape, summed back to self's
        if self.class_indexed:
            if self.result == "gradient":
                return tuple(self_shape)
            per_sample = next(s for i, s in zip(self.inputs, input_shapes) if i.shape == "per_sample")
            return tuple(per_sample) if reduction == 0 else ()
        try:
            shape = tuple(np.broadcast_shapes(*input_shapes))
        except ValueError:
            # Shapes that do not broadcast: the C API names them (161002); out takes the first input's shape.
            return tuple(input_shapes[0])
        if self.result in ("gradient", "gradient_of_self", "elementwise") or reduction == 0:
            return shape
        if self.result == "loss":
            return ()
        return shape[1:]  # loss_over_first_dim


OPERATORS = {row["name"]: OperatorInfo(row) for row in _core.operators()}


def parse_reduction(reduction):
    """'none' | 'mean' | 'sum', or CANN's integer."""
    if isinstance(reduction, str):
        if reduction.lower() in _REDUCTIONS:
            return _REDUCTIONS[reduction.lower()]
        raise ValueError(f"reduction {reduction!r} is not 'none', 'mean' or 'sum' (or CANN's integer)")
    if isinstance(reduction, (int, np.integer)) and not isinstance(reduction, bool):
        return int(reduction)
    raise TypeError(f"reduction must be a string or an integer, not {type(reduction).__name__}")


def _promoted_type(inputs):
    """The inputs' promoted dtype as the result's: a floating one, or INT64 for integers (the one integer type
    aclnn-cpu writes; the C API refuses a call whose integers it does not compute, naming the dtype)."""
    promoted = functools.reduce(promote_types, [op.acl_type for op in inputs])
    if promoted in NAMES:
        return promoted
    return ACL_INT64 if promoted in INTEGER_TYPES else ACL_FLOAT


def _allocate_result(kind, shape, acl_type, zeroed):
    """The result array, in the caller's kind: torch for torch inputs, numpy (Bfloat16 for bfloat16) else;
    zero-filled where the operator may leave it unwritten."""
    if kind == "torch":
        import torch
        torch_type = {0: torch.float32, 1: torch.float16, 27: torch.bfloat16, ACL_INT64: torch.int64}[acl_type]
        result = (torch.zeros if zeroed else torch.empty)(shape, dtype=torch_type)
        strides = list(result.stride())
        item = result.element_size()
        return result, Operand("out", result.data_ptr(), acl_type, shape, strides, item, kind, result)
    storage = (np.zeros if zeroed else np.empty)(shape, dtype={**STORAGE, **INTEGER_STORAGE}[acl_type])
    return (Bfloat16(storage) if acl_type == ACL_BF16 else storage), from_numpy("out", storage, acl_type)


def run_operator(name, values, parameters=None, out_dtype=None):
    """Runs the table's operator `name` on values (its inputs in order, None for an absent optional one) with
    parameters ({name: value}; the row's defaults for the others)."""
    info = OPERATORS[name]
    parameters = parameters or {}
    unknown = set(parameters) - {p.python_name for p in info.parameters}
    if unknown:
        raise TypeError(f"{name} has no parameter {', '.join(sorted(unknown))}")
    doubles = [p.to_double(parameters.get(p.python_name, p.python_default())) for p in info.parameters]
    reduction = next((int(d) for p, d in zip(info.parameters, doubles) if p.type == "reduction"), 0)
    inputs = [None if value is None else operand(i.name, value) for i, value in zip(info.inputs, values)]
    for i, op in zip(info.inputs, inputs):
        if op is None and not i.optional:
            raise TypeError(f"{name}: {i.python_name} is required")
    present = [op for op in inputs if op is not None]
    if out_dtype is not None:
        acl_type = parse_dtype(out_dtype)
    elif info.out_dtype_input >= 0 and inputs[info.out_dtype_input] is not None:
        acl_type = inputs[info.out_dtype_input].acl_type  # CANN ties out's dtype to this input's
    elif info.class_indexed:
        acl_type = inputs[info.self_input].acl_type  # the scores' dtype (the targets are class indices)
    else:
        acl_type = _promoted_type(present)
    kind = "torch" if any(op.kind == "torch" for op in present) else "numpy"
    # An empty input can leave out unwritten (aclnnMseLossOut writes nothing then, as CANN): the result is then
    # zeros, never the allocator's leftovers.
    empty_input = any(0 in op.shape for op in present)
    self_operand = inputs[info.self_input]
    shapes = [op.shape for op in present] if not info.class_indexed else \
        [None if op is None else op.shape for op in inputs]
    shape = info.result_shape(shapes, reduction, None if self_operand is None else self_operand.shape)
    # A gradient summed back from an empty broadcast shape is zeros (written); an empty input can otherwise leave
    # out unwritten.
    result, out = _allocate_result(kind, shape, acl_type, empty_input)
    results, outs = [result], [out]
    for _, output_shape in info.more_outs:
        # A total weight: written for mean and sum; 0 for none, which CANN leaves unwritten (PyTorch's too, but for
        # a 1-D self, whose weight[t] it writes). logProb: self's shape. The z-loss outputs: never written.
        more_shape = tuple(self_operand.shape) if output_shape == "self" else \
            (1,) if output_shape == "unwritten" else ()
        more, more_out = _allocate_result(kind, more_shape, acl_type, True)
        if output_shape != "unwritten":
            results.append(more)
        outs.append(more_out)
    _core.run(name, [None if op is None else op.spec() for op in inputs], [o.spec() for o in outs], doubles,
              host_regions(present + outs))
    return results[0] if len(results) == 1 else tuple(results)


def _make_function(info):
    """The Python function of a row: inputs positionally, parameters as keywords, then out_dtype."""
    def function(*args, out_dtype=None, **kwargs):
        names = info.python_names
        if len(args) > len(names):
            raise TypeError(f"{info.name} takes at most {len(names)} inputs ({', '.join(names)})")
        values = list(args) + [None] * (len(names) - len(args))
        for index, input_name in enumerate(names):
            if input_name in kwargs:
                if index < len(args):
                    raise TypeError(f"{info.name}: {input_name} given twice")
                values[index] = kwargs.pop(input_name)
        return run_operator(info.name, values, kwargs, out_dtype)

    inputs = ", ".join(f"{i.python_name}=None" if i.optional else i.python_name for i in info.inputs)
    parameters = ", ".join(f"{p.python_name}={p.python_default()!r}" for p in info.parameters)
    function.__name__ = function.__qualname__ = info.name
    function.__doc__ = (
        f"{info.name}({inputs}, {parameters}, out_dtype=None): {info.api_name}, {info.summary}.\n\n"
        "Inputs are numpy arrays (float32, float16; aclnn_cpu.Bfloat16 for bfloat16 bits) or objects with "
        "__dlpack__ (torch tensors), with any strides and broadcasting. Returns the caller's kind of array of the "
        "inputs' promoted dtype (or the dtype CANN ties out to) unless out_dtype says otherwise; reduction is 'none', 'mean', 'sum' or CANN's "
        "integer." + (f" Returns (out, {', '.join(info.returned_outs)}); class-index targets are integer arrays."
                      if info.returned_outs else ""))
    return function


FUNCTIONS = {name: _make_function(info) for name, info in OPERATORS.items()}
globals().update(FUNCTIONS)
__all__ = sorted(FUNCTIONS)
