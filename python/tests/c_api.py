"""The operators called through the C API with ctypes, as a C program calls them: aclrtMalloc'd device
buffers, aclrtMemcpy in and out, aclCreateTensor with explicit strides, both phases, stream sync. The
independent path the Python package's results must match bit for bit."""
import ctypes
import os

import numpy as np

_BUILD = os.environ["ACLNN_CPU_BUILD_DIR"]
_acl = ctypes.CDLL(os.path.join(_BUILD, "libascendcl.so"), mode=ctypes.RTLD_GLOBAL)
_base = ctypes.CDLL(os.path.join(_BUILD, "libnnopbase.so"), mode=ctypes.RTLD_GLOBAL)
_ops = ctypes.CDLL(os.path.join(_BUILD, "libopapi_nn.so"))
_p, _i64, _u64 = ctypes.c_void_p, ctypes.c_int64, ctypes.c_uint64
_acl.aclrtMalloc.argtypes = [ctypes.POINTER(_p), ctypes.c_size_t, ctypes.c_int]
_acl.aclrtFree.argtypes = [_p]
_acl.aclrtMemcpy.argtypes = [_p, ctypes.c_size_t, _p, ctypes.c_size_t, ctypes.c_int]
_acl.aclrtSynchronizeStream.argtypes = [_p]
_acl.aclGetRecentErrMsg.restype = ctypes.c_char_p
_acl.aclrtHostRegister.argtypes = [_p, _u64, ctypes.c_int, ctypes.POINTER(_p)]
_acl.aclrtHostUnregister.argtypes = [_p]
_base.aclCreateTensor.restype = _p
_base.aclCreateTensor.argtypes = [ctypes.POINTER(_i64), _u64, ctypes.c_int, ctypes.POINTER(_i64), _i64,
                                  ctypes.c_int, ctypes.POINTER(_i64), _u64, _p]
_base.aclDestroyTensor.argtypes = [_p]
_acl.aclrtSetDevice(0)

# The C types of the table's parameter types.
_PARAMETER_TYPES = {"int64": _i64, "reduction": _i64, "dim": _i64, "float": ctypes.c_float, "double": ctypes.c_double,
                    "bool": ctypes.c_bool}


def _phases(info):
    """An operator's two C functions, with their prototypes built from its row: its inputs, its parameters, out,
    workspaceSize, executor."""
    phase1 = getattr(_ops, info.api_name + "GetWorkspaceSize")
    phase1.argtypes = ([_p] * len(info.inputs) + [_PARAMETER_TYPES[p.type] for p in info.parameters] +
                       [_p, ctypes.POINTER(_u64), ctypes.POINTER(_p)])
    phase2 = getattr(_ops, info.api_name)
    phase2.argtypes = [_p, _u64, _p, _p]
    return phase1, phase2

H2D, D2H = 1, 2


def _int64s(values):
    return (_i64 * max(len(values), 1))(*values)


class _DeviceTensor:
    """storage (a numpy array of raw elements) copied into an aclrtMalloc block, viewed with shape/strides."""

    def __init__(self, storage, acl_type, shape, strides):
        self.storage = np.ascontiguousarray(storage)
        self.block = _p()
        assert _acl.aclrtMalloc(ctypes.byref(self.block), max(self.storage.nbytes, 1), 0) == 0
        if self.storage.nbytes:
            assert _acl.aclrtMemcpy(self.block, self.storage.nbytes, self.storage.ctypes.data,
                                    self.storage.nbytes, H2D) == 0
        storage_dims = [self.storage.size]
        self.tensor = _base.aclCreateTensor(_int64s(shape), len(shape), acl_type, _int64s(strides), 0, 2,
                                            _int64s(storage_dims), 1, self.block)
        assert self.tensor

    def read(self):
        back = np.empty_like(self.storage)
        if back.nbytes:
            assert _acl.aclrtMemcpy(back.ctypes.data, back.nbytes, self.block, back.nbytes, D2H) == 0
        return back

    def close(self):
        _base.aclDestroyTensor(self.tensor)
        _acl.aclrtFree(self.block)


def run(info, inputs, out, parameters):
    """info: the operator's row (aclnn_cpu._operators.OperatorInfo); inputs: (storage, acl_type, shape, element
    strides) each, None for an absent optional one; out: the same (its storage's values are overwritten);
    parameters: the row's, in order. Returns out's storage after the call."""
    tensors = [None if spec is None else _DeviceTensor(*spec) for spec in inputs] + [_DeviceTensor(*out)]
    try:
        size, executor = _u64(), _p()
        handles = [None if t is None else t.tensor for t in tensors]
        phase1, phase2 = _phases(info)
        status = phase1(*handles[:-1], *parameters, handles[-1], ctypes.byref(size), ctypes.byref(executor))
        assert status == 0, _acl.aclGetRecentErrMsg()
        workspace = _p()
        if size.value:
            assert _acl.aclrtMalloc(ctypes.byref(workspace), size.value, 0) == 0
        assert phase2(workspace, size.value, executor, None) == 0
        assert _acl.aclrtSynchronizeStream(None) == 0
        if size.value:
            _acl.aclrtFree(workspace)
        return tensors[-1].read()
    finally:
        for t in tensors:
            if t is not None:
                t.close()
