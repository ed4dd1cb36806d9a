"""Time a command with its worker processes: wall time, and processor time (user + system) of the
command and of every process it starts, which ``/usr/bin/time`` misses when the workers come from
a fork server (they are not its children to wait for).

    python scripts/time_command.py [--runs N] -- halfsuit report sample_logs/simulated-game.fish --out /tmp/r

The workers' processor time is read from ``/proc`` every 20 ms while the command runs (Linux only),
so the last few milliseconds of a worker may go uncounted. Prints one line per run and the load.
"""

from __future__ import annotations

import argparse
import os
import resource
import subprocess
import time


def _descendants(root: int) -> dict[int, float]:
    """Processor seconds of every process under ``root``, by pid."""
    tick = os.sysconf("SC_CLK_TCK")
    children: dict[int, list[tuple[int, float]]] = {}
    for entry in os.listdir("/proc"):
        if not entry.isdigit():
            continue
        try:
            with open(f"/proc/{entry}/stat", encoding="ascii", errors="replace") as f:
                fields = f.read().rsplit(")", 1)[1].split()
        except OSError:
            continue  # ended meanwhile
        parent, used = int(fields[1]), (int(fields[11]) + int(fields[12])) / tick
        children.setdefault(parent, []).append((int(entry), used))
    found: dict[int, float] = {}
    todo = [root]
    while todo:
        for pid, used in children.get(todo.pop(), []):
            found[pid] = used
            todo.append(pid)
    return found


def run(command: list[str]) -> tuple[float, float, float]:
    """Wall seconds, the command's own processor seconds and its workers'."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    start = time.perf_counter()
    child = subprocess.Popen(command, stdout=subprocess.DEVNULL)
    seen: dict[int, float] = {}
    while child.poll() is None:
        seen.update(_descendants(os.getpid()))
        time.sleep(0.02)
    wall = time.perf_counter() - start
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    own = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
    return wall, own, sum(used for pid, used in seen.items() if pid != child.pid)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--runs", type=int, default=1)
    parser.add_argument("command", nargs=argparse.REMAINDER)
    args = parser.parse_args()
    command = args.command[1:] if args.command[:1] == ["--"] else args.command
    for _ in range(args.runs):
        load = os.getloadavg()[0]
        wall, own, workers = run(command)
        print(
            f"wall {wall:.2f} s  processor {own + workers:.2f} s (command {own:.2f}, workers {workers:.2f})  "
            f"load {load:.1f}"
        )


if __name__ == "__main__":
    main()
