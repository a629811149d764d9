"""Element types: aclDataType values, their names, numpy storage, and bfloat16 as raw bits.

numpy has no bfloat16, so a bfloat16 tensor held in numpy is a ``Bfloat16``: a uint16 array of the raw bits,
exactly what a CANN sample's ``.bin`` file holds.
"""
import numpy as np

# aclDataType values (acl_base.h).
ACL_FLOAT = 0
ACL_FLOAT16 = 1
ACL_INT8 = 2
ACL_INT32 = 3
ACL_UINT8 = 4
ACL_INT16 = 6
ACL_UINT16 = 7
ACL_UINT32 = 8
ACL_INT64 = 9
ACL_UINT64 = 10
ACL_DOUBLE = 11
ACL_BOOL = 12
ACL_BF16 = 27

NAMES = {ACL_FLOAT: "float32", ACL_FLOAT16: "float16", ACL_BF16: "bfloat16"}
ALIASES = {"float32": ACL_FLOAT, "float": ACL_FLOAT, "fp32": ACL_FLOAT, "float16": ACL_FLOAT16,
           "half": ACL_FLOAT16, "fp16": ACL_FLOAT16, "bfloat16": ACL_BF16, "bf16": ACL_BF16}
# Storage of each supported type in numpy (bfloat16: raw bits).
STORAGE = {ACL_FLOAT: np.dtype(np.float32), ACL_FLOAT16: np.dtype(np.float16), ACL_BF16: np.dtype(np.uint16)}
# numpy dtypes passed through to the C API as they are, so that its own check names them (161002).
_NUMPY_TO_ACL = {np.dtype(np.float32): ACL_FLOAT, np.dtype(np.float16): ACL_FLOAT16,
                 np.dtype(np.float64): ACL_DOUBLE, np.dtype(np.int8): ACL_INT8, np.dtype(np.int16): ACL_INT16,
                 np.dtype(np.int32): ACL_INT32, np.dtype(np.int64): ACL_INT64, np.dtype(np.uint8): ACL_UINT8,
                 np.dtype(np.uint32): ACL_UINT32, np.dtype(np.uint64): ACL_UINT64,
                 np.dtype(np.bool_): ACL_BOOL}


# The integer types the operators read, by PyTorch's (and CANN's) order of promotion; UINT8 and INT8 share a rank.
_INTEGER_RANK = {ACL_BOOL: 0, ACL_UINT8: 1, ACL_INT8: 1, ACL_INT16: 2, ACL_INT32: 3, ACL_INT64: 4}
INTEGER_TYPES = tuple(_INTEGER_RANK)
INTEGER_STORAGE = {ACL_INT64: np.dtype(np.int64)}  # the integer results aclnn-cpu writes


def promote_types(a, b):
    """CANN's PromoteType: a floating type over an integer one, FLOAT16 with BFLOAT16 gives FLOAT, the wider
    integer (UINT8 with INT8 gives INT16)."""
    if a == b:
        return a
    if a in _INTEGER_RANK and b in _INTEGER_RANK:
        if {a, b} == {ACL_UINT8, ACL_INT8}:
            return ACL_INT16
        return a if _INTEGER_RANK[a] >= _INTEGER_RANK[b] else b
    if a in _INTEGER_RANK:
        return b
    if b in _INTEGER_RANK:
        return a
    return ACL_FLOAT if a in NAMES and b in NAMES else a


class Bfloat16:
    """A bfloat16 tensor in numpy: ``bits`` is a uint16 array of the raw bfloat16 bit patterns."""

    def __init__(self, bits):
        bits = np.asarray(bits)
        if bits.dtype != np.uint16:
            raise TypeError(f"Bfloat16 holds uint16 raw bits, not {bits.dtype}; use Bfloat16.from_float32")
        self.bits = bits

    @property
    def shape(self):
        return self.bits.shape

    @staticmethod
    def from_float32(values):
        """Rounds float32 values to bfloat16, to nearest even (NaN stays a quiet NaN of the same sign)."""
        values = np.ascontiguousarray(values, dtype=np.float32)
        bits = values.view(np.uint32).astype(np.uint64)
        rounded = ((bits + 0x7FFF + ((bits >> 16) & 1)) >> 16).astype(np.uint16)
        nan = np.isnan(values)
        rounded[nan] = ((bits[nan] >> 16) | 0x0040).astype(np.uint16)
        return Bfloat16(rounded)

    def to_float32(self):
        return (self.bits.astype(np.uint32) << 16).view(np.float32)

    def __repr__(self):
        return f"Bfloat16({self.to_float32()!r})"


def acl_type_of_numpy(dtype):
    dtype = np.dtype(dtype)
    if dtype not in _NUMPY_TO_ACL:
        raise TypeError(f"numpy dtype {dtype} has no aclDataType here (use float32, float16, or Bfloat16)")
    return _NUMPY_TO_ACL[dtype]


def parse_dtype(dtype):
    """An aclDataType from a name ("float16", "bf16", ...), a numpy dtype, a torch dtype or an aclDataType."""
    if isinstance(dtype, int) and not isinstance(dtype, bool):
        if dtype in NAMES:
            return dtype
        raise ValueError(f"aclDataType {dtype} is not one of FLOAT (0), FLOAT16 (1), BFLOAT16 (27)")
    if isinstance(dtype, str):
        key = dtype.lower().replace("torch.", "").replace("numpy.", "")
        if key in ALIASES:
            return ALIASES[key]
        raise ValueError(f"unknown dtype {dtype!r}; expected float32, float16 or bfloat16")
    text = str(dtype)
    if text.startswith("torch."):
        return parse_dtype(text)
    try:
        return parse_dtype(np.dtype(dtype).name)
    except TypeError:
        raise ValueError(f"unknown dtype {dtype!r}; expected float32, float16 or bfloat16") from None


def from_float64(values, acl_type):
    """float64 values rounded to acl_type's storage (bfloat16 through float32, then to nearest even)."""
    values = np.asarray(values, dtype=np.float64)
    if acl_type == ACL_BF16:
        return Bfloat16.from_float32(values.astype(np.float32)).bits
    return values.astype(STORAGE[acl_type])
