#!/usr/bin/env python3
"""PyTorch with and without aclnn_cpu.torch, paired in one run: a training step (nn.SoftMarginLoss mean
forward + backward) on 16M float32 elements at 1 and 2 threads, and the per-call time on a 4-element tensor.

Each round times PyTorch's own kernels and the override back to back (alternating which goes first), and the
ratios are taken per round, so a noisy neighbour slows both sides of a pair. Prints the median ratio and the
range over rounds. Run by scripts/run_torch_bench.sh (add --quick for fewer rounds).
"""
import argparse
import os
import platform
import statistics
import time

import torch

import aclnn_cpu.torch as override

F = torch.nn.functional


def cpu_description():
    model = platform.processor() or platform.machine()
    try:
        with open("/proc/cpuinfo") as cpuinfo:
            for line in cpuinfo:
                if line.startswith("model name"):
                    model = line.split(":", 1)[1].strip()
                    break
    except OSError:
        pass
    return f"{model}, {os.cpu_count()} CPUs, {platform.machine()}"


def training_step(x, y):
    x.grad = None
    loss = F.soft_margin_loss(x, y)  # mean
    loss.backward()
    return loss


def best_time(function, repeats):
    best = float("inf")
    for _ in range(repeats):
        start = time.perf_counter()
        function()
        best = min(best, time.perf_counter() - start)
    return best


def paired(function, rounds, repeats):
    """Per round: (PyTorch's own seconds, the override's seconds), the order alternating between rounds."""
    pairs = []
    for round_index in range(rounds):
        times = {}
        for state in ((False, True) if round_index % 2 == 0 else (True, False)):
            with override.enabled(state):
                function()  # warm-up: first-touch of results, the dispatcher's cache
                times[state] = best_time(function, repeats)
        pairs.append((times[False], times[True]))
    return pairs


def summary(values):
    return f"{statistics.median(values):.2f} (range {min(values):.2f}-{max(values):.2f})"


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--quick", action="store_true", help="3 rounds instead of 7")
    args = parser.parse_args()
    rounds = 3 if args.quick else 7
    print(f"CPU: {cpu_description()}; torch {torch.__version__}; "
          f"ACLNN_CPU_NUM_THREADS={os.environ.get('ACLNN_CPU_NUM_THREADS', '(unset)')}")
    generator = torch.Generator().manual_seed(0)
    count = 16 * 1024 * 1024
    x = (torch.rand(count, generator=generator) * 8 - 4).requires_grad_()
    y = torch.where(torch.rand(count, generator=generator) < 0.5, -1.0, 1.0)
    print("| comparison | threads | PyTorch's own | aclnn_cpu.torch | ratio (own / override), median and range |")
    print("|---|---|---|---|---|")
    previous = torch.get_num_threads()
    for threads in (1, 2):
        torch.set_num_threads(threads)
        pairs = paired(lambda: training_step(x, y), rounds, repeats=3)
        own = statistics.median(p[0] for p in pairs)
        ours = statistics.median(p[1] for p in pairs)
        print(f"| training step, 16M float32 (mean + backward) | {threads} | {own * 1e3:.1f} ms | "
              f"{ours * 1e3:.1f} ms | {summary([p[0] / p[1] for p in pairs])} |")
    torch.set_num_threads(previous)
    small_x, small_y = torch.randn(4), torch.ones(4)
    calls = 20000

    def many_calls():
        for _ in range(calls):
            F.soft_margin_loss(small_x, small_y)

    pairs = [(own / calls * 1e6, ours / calls * 1e6) for own, ours in paired(many_calls, rounds, repeats=3)]
    print(f"| one call, 4 float32 elements (mean) | {torch.get_num_threads()} | "
          f"{statistics.median(p[0] for p in pairs):.2f} us | {statistics.median(p[1] for p in pairs):.2f} us | "
          f"+{summary([p[1] - p[0] for p in pairs])} us per call |")


if __name__ == "__main__":
    main()
