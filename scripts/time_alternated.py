#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""Times two (or more) command lines run alternately, round after round, and prints for each the median wall
clock and CPU seconds (user + system of the command and its children) and the load average around each group.

On a shared machine the speed moves from one minute to the next; running A, B, A, B, ... puts both sides in the
same minutes, so their medians compare where two separate series would not.

    scripts/time_alternated.py [--rounds 10] [--groups 2] [--bytes-of FILE] CMD_A CMD_B [CMD_C ...]

Each command is a shell command line (run by /bin/sh; its output goes to /dev/null unless it redirects it).
--bytes-of FILE also prints each median as MB/s of FILE's size (10^6 bytes per second).
"""

import argparse
import os
import statistics
import subprocess
import sys
import time


def run_once(command):
    """Runs `command`; returns (wall seconds, CPU seconds, exit status)."""
    start = time.perf_counter()
    process = subprocess.Popen(["/bin/sh", "-c", command], stdout=subprocess.DEVNULL)
    _, status, usage = os.wait4(process.pid, 0)
    wall = time.perf_counter() - start
    return wall, usage.ru_utime + usage.ru_stime, os.waitstatus_to_exitcode(status)


def load_text():
    return " ".join(f"{value:.2f}" for value in os.getloadavg())


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--rounds", type=int, default=10, help="runs of each command per group (default 10)")
    parser.add_argument("--groups", type=int, default=1, help="groups of rounds, each reported (default 1)")
    parser.add_argument("--bytes-of", metavar="FILE", help="print MB/s of this file's size too")
    parser.add_argument("commands", nargs="+", metavar="CMD")
    args = parser.parse_args()
    if len(args.commands) < 2:
        parser.error("give at least two command lines to alternate")
    if args.rounds < 1 or args.groups < 1:
        parser.error("--rounds and --groups must be at least 1")
    size = os.path.getsize(args.bytes_of) if args.bytes_of else None

    labels = [chr(ord("A") + i) for i in range(len(args.commands))]
    for label, command in zip(labels, args.commands):
        print(f"{label}: {command}")
    failed = False
    for group in range(1, args.groups + 1):
        load_before = load_text()
        walls = [[] for _ in args.commands]
        cpus = [[] for _ in args.commands]
        for _ in range(args.rounds):
            for i, command in enumerate(args.commands):
                wall, cpu, code = run_once(command)
                if code != 0:
                    print(f"{labels[i]} exited with {code}", file=sys.stderr)
                    failed = True
                walls[i].append(wall)
                cpus[i].append(cpu)
        print(f"group {group}: {args.rounds} rounds, load average {load_before} before, {load_text()} after")
        first_wall = statistics.median(walls[0])
        first_cpu = statistics.median(cpus[0])
        for i, label in enumerate(labels):
            wall = statistics.median(walls[i])
            cpu = statistics.median(cpus[i])
            line = f"  {label}: median wall {wall:.3f} s (min {min(walls[i]):.3f}, max {max(walls[i]):.3f}), CPU {cpu:.3f} s"
            if size is not None:
                line += f", {size / wall / 1e6:.0f} MB/s wall, {size / cpu / 1e6:.0f} MB/s per CPU second"
            if i > 0:
                line += f"; against A: wall {wall / first_wall:.2f}x, CPU {cpu / first_cpu:.2f}x"
            print(line)
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
