"""aclnn-cpu from Python: CANN's SoftMarginLoss operators as a CPU golden, and CANN's precision check.

    import numpy as np, aclnn_cpu
    x = np.random.randn(8, 1024).astype(np.float16); y = np.sign(np.random.randn(1024)).astype(np.float16)
    loss = aclnn_cpu.soft_margin_loss(x, y, reduction="none")
    print(aclnn_cpu.compare(npu_output, loss))

Inputs are numpy arrays (float32, float16; ``Bfloat16`` for raw bfloat16 bits) or objects with
``__dlpack__`` (torch tensors, bfloat16 included), with any strides and broadcasting. The calls run the C API
(phase 1, phase 2, stream sync) on the caller's buffers: the same code path, the same bits as a C++ caller.
"""
from ._compare import CompareResult, compare
from ._dtypes import Bfloat16
from ._errors import AclnnError
from ._operators import soft_margin_loss, soft_margin_loss_backward

__all__ = ["AclnnError", "Bfloat16", "CompareResult", "compare", "soft_margin_loss", "soft_margin_loss_backward"]
