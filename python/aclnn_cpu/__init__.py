"""aclnn-cpu from Python: CANN's loss operators as a CPU golden, and CANN's precision check.

    import numpy as np, aclnn_cpu
    x = np.random.randn(8, 1024).astype(np.float16); y = np.sign(np.random.randn(1024)).astype(np.float16)
    loss = aclnn_cpu.soft_margin_loss(x, y, reduction="none")
    print(aclnn_cpu.compare(npu_output, loss))

Inputs are numpy arrays (float32, float16; ``Bfloat16`` for raw bfloat16 bits) or objects with
``__dlpack__`` (torch tensors, bfloat16 included), with any strides and broadcasting. The calls run the C API
(phase 1, phase 2, stream sync) on the caller's buffers: the same code path, the same bits as a C++ caller.
"""
import sys

from ._build_info import PYTHON_EXECUTABLE, PYTHON_VERSION

if sys.version_info[:2] != PYTHON_VERSION:
    raise ImportError(
        f"aclnn_cpu was built for Python {PYTHON_VERSION[0]}.{PYTHON_VERSION[1]} ({PYTHON_EXECUTABLE}); this is "
        f"Python {sys.version_info[0]}.{sys.version_info[1]} ({sys.executable}). Run it with {PYTHON_EXECUTABLE}, "
        "or rebuild aclnn-cpu with -DPython3_EXECUTABLE=<this python> (it needs numpy).")
try:
    import numpy  # noqa: F401
except ImportError as error:
    raise ImportError(f"aclnn_cpu needs numpy, which {sys.executable} cannot import; it was built for "
                      f"{PYTHON_EXECUTABLE}, which has it") from error

from ._compare import CompareResult, compare  # noqa: E402
from ._dtypes import Bfloat16  # noqa: E402
from ._errors import AclnnError  # noqa: E402
from ._operators import FUNCTIONS as _FUNCTIONS  # noqa: E402

# One function per operator of the table (mse_loss, soft_margin_loss_backward, ...): help(aclnn_cpu.mse_loss).
globals().update(_FUNCTIONS)
__all__ = ["AclnnError", "Bfloat16", "CompareResult", "compare"] + sorted(_FUNCTIONS)
