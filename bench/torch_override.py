#!/usr/bin/env python3
"""PyTorch with and without aclnn_cpu.torch, paired in one run: a training step (nn.SoftMarginLoss mean forward
+ backward) on 4M and 16M float32 elements at 1 and 2 threads, the step from 256 to 1M elements at one thread
(where the override's per-call cost and PyTorch's meet), and F.cross_entropy forward + backward over rows of a
32K vocabulary (4096 rows; 256 with --quick), float32 and bfloat16, at 1 and 2 threads: PyTorch's own, the override
(log_softmax + nll_loss, the aten calls torch_npu maps) and the override's fused opt-in.

Each round times PyTorch's own kernels and the override back to back (alternating which goes first), five
repetitions of the step each, and takes two ratios per round: of the best of the five, and of their median (what a
training loop meets on average, allocations included). Prints the median ratio and the range over rounds.
Run by scripts/run_torch_bench.sh (add --quick for fewer rounds).
"""
import argparse
import os
import platform
import statistics
import time

import torch

import aclnn_cpu.torch as override

F = torch.nn.functional
REPEATS = 5


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


def repetition_times(function, repeats, calls):
    """Seconds per call of each of `repeats` timed batches of `calls` calls."""
    times = []
    for _ in range(repeats):
        start = time.perf_counter()
        for _ in range(calls):
            function()
        times.append((time.perf_counter() - start) / calls)
    return times


def paired(function, rounds, calls=1):
    """Per round: {False: PyTorch's own times, True: the override's}, the order alternating between rounds."""
    results = []
    for round_index in range(rounds):
        times = {}
        for state in ((False, True) if round_index % 2 == 0 else (True, False)):
            with override.enabled(state):
                function()  # warm-up: the dispatcher's cache, the allocator's first blocks
                times[state] = repetition_times(function, REPEATS, calls)
        results.append(times)
    return results


def paired_modes(function, rounds, modes):
    """Per round: {mode: times}, for each mode (a name and the enabled() arguments), the order rotating."""
    results = []
    for round_index in range(rounds):
        times = {}
        order = modes[round_index % len(modes):] + modes[:round_index % len(modes)]
        for name, state, fused in order:
            with override.enabled(state, fused_cross_entropy=fused):
                function()  # warm-up
                times[name] = repetition_times(function, REPEATS, 1)
        results.append(times)
    return results


def cross_entropy_steps(rows, rounds, generator):
    """F.cross_entropy forward + backward over a 32K vocabulary, paired three ways."""
    classes = 32768
    modes = (("own", False, False), ("override", True, False), ("fused", True, True))
    print()
    print(f"| F.cross_entropy forward + backward, [{rows}, {classes}] | threads | PyTorch's own, median | "
          "override, median | fused opt-in, median | own / override: median of 5 | own / fused: median of 5 |")
    print("|---|---|---|---|---|---|---|")
    for dtype in (torch.float32, torch.bfloat16):
        x = (torch.randn((rows, classes), generator=generator) * 3).to(dtype).requires_grad_()
        target = torch.randint(0, classes, (rows,), generator=generator)

        def step():
            x.grad = None
            F.cross_entropy(x, target).backward()

        for threads in (1, 2):
            torch.set_num_threads(threads)
            results = paired_modes(step, rounds, modes)
            median = {name: statistics.median(statistics.median(r[name]) for r in results) for name, _, _ in modes}
            own_over = [statistics.median(r["own"]) / statistics.median(r["override"]) for r in results]
            own_fused = [statistics.median(r["own"]) / statistics.median(r["fused"]) for r in results]
            print(f"| {str(dtype).replace('torch.', '')} | {threads} | {median['own'] * 1e3:.1f} ms | "
                  f"{median['override'] * 1e3:.1f} ms | {median['fused'] * 1e3:.1f} ms | {summary(own_over)} | "
                  f"{summary(own_fused)} |")


def summary(values):
    return f"{statistics.median(values):.2f} ({min(values):.2f}-{max(values):.2f})"


def ratios(results, statistic):
    return [statistic(r[False]) / statistic(r[True]) for r in results]


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--quick", action="store_true", help="3 rounds instead of 7, and fewer sizes")
    parser.add_argument("--cross-entropy-only", action="store_true", help="only the F.cross_entropy table")
    parser.add_argument("--cross-entropy-rows", type=int, help="its rows (4096; 256 with --quick)")
    args = parser.parse_args()
    rounds = 3 if args.quick else 7
    print(f"CPU: {cpu_description()}; torch {torch.__version__}; "
          f"ACLNN_CPU_NUM_THREADS={os.environ.get('ACLNN_CPU_NUM_THREADS', '(unset)')}")
    generator = torch.Generator().manual_seed(0)
    previous = torch.get_num_threads()
    cross_entropy_rows = args.cross_entropy_rows or (256 if args.quick else 4096)
    if args.cross_entropy_only:
        cross_entropy_steps(cross_entropy_rows, rounds, generator)
        torch.set_num_threads(previous)
        return
    print("| training step, float32 (mean + backward) | threads | PyTorch's own, median | aclnn_cpu.torch, median "
          "| own / override: best of 5 | own / override: median of 5 |")
    print("|---|---|---|---|---|---|")
    for count in ((4 << 20,) if args.quick else (4 << 20, 16 << 20)):
        x = (torch.rand(count, generator=generator) * 8 - 4).requires_grad_()
        y = torch.where(torch.rand(count, generator=generator) < 0.5, -1.0, 1.0)
        for threads in (1, 2):
            torch.set_num_threads(threads)
            results = paired(lambda: training_step(x, y), rounds)
            own = statistics.median(statistics.median(r[False]) for r in results)
            ours = statistics.median(statistics.median(r[True]) for r in results)
            print(f"| {count >> 20}M elements | {threads} | {own * 1e3:.2f} ms | {ours * 1e3:.2f} ms | "
                  f"{summary(ratios(results, min))} | {summary(ratios(results, statistics.median))} |")
    torch.set_num_threads(1)
    print()
    print("| training step, float32, one thread | PyTorch's own, median | aclnn_cpu.torch, median | "
          "own / override: median of 5 |")
    print("|---|---|---|---|")
    sizes = (1024, 65536) if args.quick else (4, 64, 256, 1024, 4096, 16384, 65536, 262144, 1 << 20)
    for count in sizes:
        x = (torch.rand(count, generator=generator) * 8 - 4).requires_grad_()
        y = torch.where(torch.rand(count, generator=generator) < 0.5, -1.0, 1.0)
        calls = max(1, min(20000, 2000000 // count))
        results = paired(lambda: training_step(x, y), rounds, calls)
        own = statistics.median(statistics.median(r[False]) for r in results)
        ours = statistics.median(statistics.median(r[True]) for r in results)
        print(f"| {count} elements | {own * 1e6:.1f} us | {ours * 1e6:.1f} us | "
              f"{summary(ratios(results, statistics.median))} |")
    cross_entropy_steps(cross_entropy_rows, rounds, generator)
    torch.set_num_threads(previous)


if __name__ == "__main__":
    main()
