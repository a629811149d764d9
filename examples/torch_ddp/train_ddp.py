#!/usr/bin/env python3
"""Trains a small classifier with nn.SoftMarginLoss under DistributedDataParallel (gloo, two processes on
127.0.0.1), with CANN's SoftMarginLoss arithmetic in every rank (aclnn_cpu.torch), then trains the same model
in one process on the whole batch and checks that both end with the same parameters.

    source build/install/set_env.sh && python3 examples/torch_ddp/train_ddp.py
    (or: scripts/run_torch_example.sh, which builds and installs first)

The training script itself is ordinary PyTorch: the one aclnn-cpu line is aclnn_cpu.torch.enable().
"""
import argparse
import os
import socket
import sys
import tempfile

import torch
import torch.distributed as dist
import torch.multiprocessing as multiprocessing
from torch.nn.parallel import DistributedDataParallel

import aclnn_cpu.torch


def make_model():
    torch.manual_seed(0)
    return torch.nn.Sequential(torch.nn.Linear(16, 32), torch.nn.Tanh(), torch.nn.Linear(32, 1))


def make_data(samples=256):
    generator = torch.Generator().manual_seed(1)
    features = torch.randn(samples, 16, generator=generator)
    labels = torch.where(features[:, :4].sum(dim=1) > 0, 1.0, -1.0).unsqueeze(1)
    return features, labels


def train(model, features, labels, steps):
    optimizer = torch.optim.SGD(model.parameters(), lr=0.1)
    loss_function = torch.nn.SoftMarginLoss()  # mean: DDP's averaged gradients equal the whole batch's
    losses = []
    for _ in range(steps):
        optimizer.zero_grad()
        loss = loss_function(model(features), labels)
        loss.backward()
        optimizer.step()
        losses.append(loss.item())
    return losses


def rank_main(rank, world_size, port, steps, result_dir):
    aclnn_cpu.torch.enable()  # every rank is its own process: each enables the override
    torch.set_num_threads(1)
    dist.init_process_group("gloo", init_method=f"tcp://127.0.0.1:{port}", rank=rank, world_size=world_size)
    try:
        features, labels = make_data()
        shard = slice(rank * len(features) // world_size, (rank + 1) * len(features) // world_size)
        model = DistributedDataParallel(make_model())
        losses = train(model, features[shard], labels[shard], steps)
        torch.save({"parameters": [p.detach().clone() for p in model.module.parameters()], "losses": losses,
                    "overridden": aclnn_cpu.torch.is_enabled()}, os.path.join(result_dir, f"rank{rank}.pt"))
    finally:
        dist.destroy_process_group()


def free_port():
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


def run(world_size=2, steps=20):
    """Returns (per-rank parameters, per-rank losses, single-process parameters, single-process losses, whether
    every rank trained with the override on)."""
    with tempfile.TemporaryDirectory() as result_dir:
        multiprocessing.spawn(rank_main, args=(world_size, free_port(), steps, result_dir), nprocs=world_size)
        ranks = [torch.load(os.path.join(result_dir, f"rank{rank}.pt")) for rank in range(world_size)]
    with aclnn_cpu.torch.enabled():
        model = make_model()
        losses = train(model, *make_data(), steps)
    return ([r["parameters"] for r in ranks], [r["losses"] for r in ranks],
            [p.detach() for p in model.parameters()], losses, all(r["overridden"] for r in ranks))


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--steps", type=int, default=20)
    args = parser.parse_args()
    rank_parameters, rank_losses, single_parameters, single_losses, overridden = run(steps=args.steps)
    identical = all(torch.equal(a, b) for a, b in zip(rank_parameters[0], rank_parameters[1]))
    largest = max((a - b).abs().max().item() for a, b in zip(rank_parameters[0], single_parameters))
    print(f"DDP, 2 ranks (gloo): loss {rank_losses[0][0]:.6f} -> {rank_losses[0][-1]:.6f} on rank 0's half, "
          f"{rank_losses[1][0]:.6f} -> {rank_losses[1][-1]:.6f} on rank 1's")
    print(f"one process, whole batch: loss {single_losses[0]:.6f} -> {single_losses[-1]:.6f}")
    print(f"ranks' parameters identical: {identical}; largest difference from one process: {largest:.3g}")
    ok = overridden and identical and largest <= 1e-5
    print("OK" if ok else "MISMATCH")
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
