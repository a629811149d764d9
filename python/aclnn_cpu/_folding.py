"""How a compare and its report see an output of any rank: folded to 2-D, leading dims x last dim."""
import numpy as np


def folded_shape(shape):
    """The 2-D view a report draws: leading dims x last dim (a 1-D output is one row, a 0-d one element)."""
    if len(shape) == 0:
        return 1, 1
    return int(np.prod(shape[:-1], dtype=np.int64)), int(shape[-1])
