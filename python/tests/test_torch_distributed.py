"""DistributedDataParallel over gloo, two processes on 127.0.0.1, with the override in every rank: the example
examples/torch_ddp/train_ddp.py, run and checked."""
import os
import sys

import pytest

torch = pytest.importorskip("torch", reason="PyTorch (python3-torch) is not installed")

EXAMPLE_DIR = os.path.join(os.path.dirname(__file__), "..", "..", "examples", "torch_ddp")
sys.path.insert(0, os.path.abspath(EXAMPLE_DIR))  # spawned ranks inherit sys.path and import it by name
import train_ddp  # noqa: E402


def test_ddp_ranks_end_identical_and_equal_one_process_on_the_whole_batch():
    rank_parameters, rank_losses, single_parameters, single_losses, overridden = train_ddp.run(steps=12)
    assert overridden, "every rank trained with aclnn_cpu.torch enabled"
    for a, b in zip(rank_parameters[0], rank_parameters[1]):
        assert torch.equal(a, b), "DDP ranks must end with identical parameters"
    for a, b in zip(rank_parameters[0], single_parameters):
        assert torch.allclose(a, b, rtol=1e-5, atol=1e-6)
    assert single_losses[-1] < single_losses[0] and rank_losses[0][-1] < rank_losses[0][0]
    # The mean of the two halves' losses is the whole batch's loss at the first step (same parameters).
    assert abs((rank_losses[0][0] + rank_losses[1][0]) / 2 - single_losses[0]) < 1e-6
