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
_ops.aclnnSoftMarginLossBackwardGetWorkspaceSize.argtypes = [_p, _p, _p, _i64, _p, ctypes.POINTER(_u64),
                                                            ctypes.POINTER(_p)]
_ops.aclnnSoftMarginLossGetWorkspaceSize.argtypes = [_p, _p, _i64, _p, ctypes.POINTER(_u64), ctypes.POINTER(_p)]
_ops.aclnnSoftMarginLossBackward.argtypes = [_p, _u64, _p, _p]
_ops.aclnnSoftMarginLoss.argtypes = [_p, _u64, _p, _p]
_acl.aclrtSetDevice(0)

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


def run(name, inputs, out, reduction):
    """inputs: (storage, acl_type, shape, element strides) each; out: the same (its storage's values are
    overwritten). Returns out's storage after the call."""
    tensors = [_DeviceTensor(*spec) for spec in inputs + [out]]
    try:
        size, executor = _u64(), _p()
        handles = [t.tensor for t in tensors]
        if name == "soft_margin_loss_backward":
            status = _ops.aclnnSoftMarginLossBackwardGetWorkspaceSize(*handles[:3], reduction, handles[3],
                                                                      ctypes.byref(size), ctypes.byref(executor))
        else:
            status = _ops.aclnnSoftMarginLossGetWorkspaceSize(*handles[:2], reduction, handles[2],
                                                              ctypes.byref(size), ctypes.byref(executor))
        assert status == 0, _acl.aclGetRecentErrMsg()
        workspace = _p()
        if size.value:
            assert _acl.aclrtMalloc(ctypes.byref(workspace), size.value, 0) == 0
        phase2 = _ops.aclnnSoftMarginLossBackward if name == "soft_margin_loss_backward" else _ops.aclnnSoftMarginLoss
        assert phase2(workspace, size.value, executor, None) == 0
        assert _acl.aclrtSynchronizeStream(None) == 0
        if size.value:
            _acl.aclrtFree(workspace)
        return tensors[-1].read()
    finally:
        for t in tensors:
            t.close()
