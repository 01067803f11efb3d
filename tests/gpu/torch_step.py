# SPDX-License-Identifier: MIT
"""A small PyTorch training step for the GPU checks (tests/gpu/run_gpu_checks.sh).

    python3 torch_step.py gapscope            the steps, each in an NVTX range "step" (recorded by GapScope
                                              through the collector's environment variables)
    python3 torch_step.py profiler TRACE      the same steps traced by torch.profiler, each in a
                                              record_function("step"), exported to TRACE (Chrome JSON)
    python3 torch_step.py both TRACE          torch.profiler active while GapScope records (the second CUPTI
                                              client): more steps, so that the profiler holds CUPTI for > 3 s

The model, its sizes and the seed are fixed, so that every mode launches the same kernels per step:
GapScope's kernels of the counted steps must equal torch.profiler's (names, counts, durations).
Prints one JSON line: the mode, the steps, the torch and CUDA versions, the wall time of the counted steps.
"""
import json
import sys
import time

import torch

WARMUP = 5
STEPS = 10
BOTH_SECONDS = 3.5


def make_model():
    torch.manual_seed(0)
    model = torch.nn.Sequential(
        torch.nn.Conv2d(3, 16, 3, padding=1), torch.nn.ReLU(), torch.nn.MaxPool2d(2),
        torch.nn.Conv2d(16, 32, 3, padding=1), torch.nn.ReLU(), torch.nn.AdaptiveAvgPool2d(4),
        torch.nn.Flatten(), torch.nn.Linear(32 * 16, 64), torch.nn.ReLU(), torch.nn.Linear(64, 10),
    ).cuda()
    optimizer = torch.optim.SGD(model.parameters(), lr=0.01, momentum=0.9)
    data = torch.randn(32, 3, 32, 32, device="cuda")
    target = torch.randint(0, 10, (32,), device="cuda")
    return model, optimizer, data, target


def step(model, optimizer, data, target):
    optimizer.zero_grad(set_to_none=True)
    loss = torch.nn.functional.cross_entropy(model(data), target)
    loss.backward()
    optimizer.step()


def main():
    mode = sys.argv[1] if len(sys.argv) > 1 else "gapscope"
    trace = sys.argv[2] if len(sys.argv) > 2 else None
    model, optimizer, data, target = make_model()
    for _ in range(WARMUP):
        step(model, optimizer, data, target)
    torch.cuda.synchronize()
    steps = 0
    start = time.perf_counter()
    if mode == "gapscope":
        for _ in range(STEPS):
            torch.cuda.nvtx.range_push("step")
            step(model, optimizer, data, target)
            torch.cuda.synchronize()
            torch.cuda.nvtx.range_pop()
            steps += 1
    elif mode in ("profiler", "both"):
        activities = [torch.profiler.ProfilerActivity.CPU, torch.profiler.ProfilerActivity.CUDA]
        with torch.profiler.profile(activities=activities) as prof:
            while True:
                with torch.profiler.record_function("step"):
                    step(model, optimizer, data, target)
                    torch.cuda.synchronize()
                steps += 1
                if mode == "profiler" and steps == STEPS:
                    break
                if mode == "both" and time.perf_counter() - start >= BOTH_SECONDS:
                    break
        prof.export_chrome_trace(trace)
        # And after the profiler: GapScope's recording goes on (or says why it cannot).
        for _ in range(STEPS):
            step(model, optimizer, data, target)
        torch.cuda.synchronize()
    else:
        print("usage: torch_step.py gapscope | profiler TRACE | both TRACE", file=sys.stderr)
        return 2
    seconds = time.perf_counter() - start
    print(json.dumps({"mode": mode, "steps": steps, "torch": torch.__version__, "cuda": torch.version.cuda,
                      "device": torch.cuda.get_device_name(0), "seconds": round(seconds, 6)}))
    return 0


if __name__ == "__main__":
    sys.exit(main())
