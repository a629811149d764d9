"""From the caller's arrays to the C API's view of them: address, aclDataType, shape, element strides, and
the bytes each addresses (registered with aclrtHostRegister for the call), without copying.

numpy arrays are read through ``__array_interface__``; any other object with ``__dlpack__`` (PyTorch tensors,
bfloat16 included) through its DLPack capsule. The one copy: a numpy view with negative strides (``a[::-1]``)
or strides that are not whole elements, which aclCreateTensor cannot describe.
"""
import numpy as np

from . import _core
from ._dtypes import (ACL_BF16, ACL_FLOAT, ACL_FLOAT16, ACL_INT8, ACL_INT16, ACL_INT32, ACL_INT64, ACL_UINT8,
                      Bfloat16, acl_type_of_numpy)

_DLPACK_TYPES = {(_core.kDLFloat, 32): ACL_FLOAT, (_core.kDLFloat, 16): ACL_FLOAT16,
                 (_core.kDLBfloat, 16): ACL_BF16, (_core.kDLFloat, 64): 11,
                 # integers: class-index targets (torch.long), and others for the C API to name
                 (_core.kDLInt, 64): ACL_INT64, (_core.kDLInt, 32): ACL_INT32, (_core.kDLInt, 16): ACL_INT16,
                 (_core.kDLInt, 8): ACL_INT8, (_core.kDLUInt, 8): ACL_UINT8}
_ITEM_BYTES = {ACL_FLOAT: 4, ACL_FLOAT16: 2, ACL_BF16: 2, 11: 8, ACL_INT64: 8, ACL_INT32: 4, ACL_INT16: 2,
               ACL_INT8: 1, ACL_UINT8: 1}


class Operand:
    """One tensor as the C API sees it. ``keep`` holds what must stay alive while the call runs."""

    def __init__(self, name, address, acl_type, shape, strides, item_bytes, kind, keep):
        self.name = name
        self.address = address
        self.acl_type = acl_type
        self.shape = tuple(int(d) for d in shape)
        self.strides = tuple(int(s) for s in strides)
        self.kind = kind  # "numpy" or "torch" or "dlpack": the kind of array the caller passed
        self.keep = keep
        self.byte_range = byte_range(address, self.shape, self.strides, item_bytes)

    def spec(self):
        return (self.address, self.acl_type, list(self.shape), list(self.strides))


def from_numpy(name, array, acl_type=None):
    if acl_type is None:
        acl_type = acl_type_of_numpy(array.dtype)
    item = array.itemsize
    if any(s < 0 or s % item for s in array.strides):
        array = np.ascontiguousarray(array)  # aclCreateTensor takes non-negative element strides only
    address = array.__array_interface__["data"][0]
    strides = [s // item for s in array.strides]
    return Operand(name, address, acl_type, array.shape, strides, item, "numpy", array)


def _from_dlpack(name, obj):
    address, code, bits, lanes, shape, strides, device, owner = _core.read_dlpack(obj.__dlpack__())
    if device != _core.kDLCPU:
        raise ValueError(f"{name} lives on DLPack device type {device}; aclnn-cpu reads CPU memory only")
    if lanes != 1 or (code, bits) not in _DLPACK_TYPES:
        raise TypeError(f"{name} has DLPack type code {code}, {bits} bits x {lanes}; expected float32, float16, "
                        "bfloat16 or an integer type")
    acl_type = _DLPACK_TYPES[(code, bits)]
    if strides is None:  # compact row-major
        strides, running = [0] * len(shape), 1
        for d in range(len(shape) - 1, -1, -1):
            strides[d] = running
            running *= shape[d]
    kind = "torch" if type(obj).__module__.startswith("torch") else "dlpack"
    return Operand(name, address, acl_type, shape, strides, _ITEM_BYTES[acl_type], kind, (obj, owner))


def operand(name, obj):
    """Describes one input: a numpy array, a Bfloat16, or any object with __dlpack__."""
    if isinstance(obj, Bfloat16):
        return from_numpy(name, obj.bits, ACL_BF16)
    if isinstance(obj, np.ndarray):
        return from_numpy(name, obj)
    if hasattr(obj, "__dlpack__"):
        return _from_dlpack(name, obj)
    return from_numpy(name, np.asarray(obj))


def byte_range(address, shape, strides, item_bytes):
    """(begin, end) of the bytes a view addresses (strides in elements, non-negative); empty for no elements."""
    if any(size == 0 for size in shape):
        return (address, address)
    last = sum((size - 1) * stride for size, stride in zip(shape, strides))
    return (address, address + (last + 1) * item_bytes)


def merge_ranges(ranges):
    """(begin, end) byte ranges, overlapping or touching ones merged, as (address, bytes): each buffer is
    registered once for a call and unregistered by its start address."""
    merged = []
    for begin, end in sorted(r for r in ranges if r[1] > r[0]):
        if merged and begin <= merged[-1][1]:
            merged[-1][1] = max(merged[-1][1], end)
        else:
            merged.append([begin, end])
    return [(begin, end - begin) for begin, end in merged]


def host_regions(operands):
    """The byte ranges of all operands, merged (merge_ranges)."""
    return merge_ranges(op.byte_range for op in operands)
