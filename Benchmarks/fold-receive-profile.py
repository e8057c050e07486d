#!/usr/bin/env python3
"""Where a receive's CPU time goes, from `perf script` of `perf record -g`: each sample is charged to the
first of these stages found in its stack (innermost first), and each stage to its hottest frames. A text
flame graph for RESULTS.md: stage, milliseconds of CPU, share, then its three hottest leaf frames.

    perf record -g -F 4000 -o receive.data -- sharing receive FILE --inbox DIR
    perf script -i receive.data | python3 Benchmarks/fold-receive-profile.py 4000
"""
import collections
import sys

# (stage, parts of frame names that mark it); the first stage with a frame in a sample's stack takes the sample.
STAGES = [
    ("BLAKE3 (user)", ("hash8", "hash_many", "compress", "blake3")),
    ("copy_file_range", ("copy_file_range",)),
    ("pread (hash's read-back)", ("pread64",)),
    ("sync_file_range (write-behind)", ("sync_file_range",)),
    ("fsync", ("fsync",)),
    ("fallocate", ("fallocate",)),
    ("page faults", ("asm_exc_page_fault",)),
    ("other system calls", ("entry_SYSCALL_64",)),
]


def samples(lines):
    stack = []
    for line in lines:
        line = line.rstrip("\n")
        if not line.strip():
            if stack:
                yield stack
            stack = []
        elif line.startswith(("\t", " ")):
            parts = line.split()
            stack.append(parts[1].split("+")[0] if len(parts) > 1 else "?")
        else:
            stack = []
    if stack:
        yield stack


def stage_of(stack):
    for name, marks in STAGES:
        if any(mark in frame for frame in stack for mark in marks):
            return name
    return "user (Swift, runtime)"


def main():
    frequency = float(sys.argv[1]) if len(sys.argv) > 1 else 4000.0
    per_stage = collections.Counter()
    leaves = collections.defaultdict(collections.Counter)
    total = 0
    for stack in samples(sys.stdin):
        stage = stage_of(stack)
        per_stage[stage] += 1
        leaves[stage][stack[0]] += 1
        total += 1
    print(f"{total} samples at {frequency:g} Hz = {1000 * total / frequency:.0f} ms of CPU")
    for stage, count in per_stage.most_common():
        hottest = ", ".join(f"{frame} {100 * n / count:.0f}%" for frame, n in leaves[stage].most_common(3))
        print(f"{stage:32} {1000 * count / frequency:7.0f} ms {100 * count / total:5.1f}%   {hottest}")


if __name__ == "__main__":
    main()
