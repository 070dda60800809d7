#!/usr/bin/env python3
"""Checks that an end-to-end program's checkpointed gradients equal its plain
ones.

The program is built with -DCHECK_VERBOSE (check.h then prints every
gradient value it checks, to 17 significant digits, which is exact for
doubles): as written, and with CAPSULE_CHECKPOINT_ALL=1 in the compiler's
environment, which compiles every __capsule_autodiff call as
__capsule_autodiff_checkpointed, once as usual and once with
CAPSULE_ATOMIC_LOOPS=0, which makes every loop header a place where the
computation can be split. The checkpointed builds run under several
schedules (strategy x split x criterion, a small leaf size so that the
checkpoint trees are deep); each run must pass the program's own checks
(finite differences, closed forms) and print the same values as the plain
build, to a relative difference of at most 1e-12.

Which schedules a program gets is a function of its name, so that the suite
covers every combination without running all eighteen for every program
(each program gets the three strategies with one split and criterion).

usage: checkpointed.py COMPILER SOURCE OUTPUT_PREFIX [CFLAG...] -- [LDFLAG...]
"""
import itertools
import os
import re
import subprocess
import sys
import zlib

STRATEGIES = ["binary", "treeverse", "online"]
SPLITS = ["bisection", "binomial"]
CRITERIA = ["space", "time", "log"]
SCHEDULES = list(itertools.product(STRATEGIES, SPLITS, CRITERIA))
SCHEDULES_PER_PROGRAM = 3
LEAF_STEPS = ["1", "7", "40"]
RTOL = 1e-12

VALUE = re.compile(r"^ok (.*): got (\S+) want")
STAGES = re.compile(r"; (\d+) stages,")


def build(compiler, source, output, cflags, ldflags, settings):
    env = dict(os.environ)
    env.pop("CAPSULE_CHECKPOINT_ALL", None)
    env.pop("CAPSULE_ATOMIC_LOOPS", None)
    env.update(settings)
    command = [compiler, "-DCHECK_VERBOSE", *cflags, source, "-o", output,
               *ldflags]
    result = subprocess.run(command, env=env, capture_output=True, text=True)
    if result.returncode != 0:
        sys.exit("build failed (%s):\n%s" % (settings, result.stderr))


def run(binary, settings, stages=None):
    env = dict(os.environ)
    env.update(settings)
    env["CAPSULE_STATS"] = "1"
    result = subprocess.run([binary], env=env, capture_output=True, text=True)
    if result.returncode != 0:
        sys.exit("%s failed with %s:\n%s%s" % (
            binary, settings, result.stdout, result.stderr))
    values = [(m.group(1), float(m.group(2)))
              for m in map(VALUE.match, result.stdout.splitlines()) if m]
    if not values:
        sys.exit("%s printed no checked values" % binary)
    if stages is not None:
        stages.extend(int(n) for n in STAGES.findall(result.stderr))
    return values


def schedules_for(source):
    """SCHEDULES_PER_PROGRAM schedules spread over the eighteen, chosen by the
    program's name, each with its own leaf size."""
    first = zlib.crc32(os.path.basename(source).encode()) % len(SCHEDULES)
    stride = len(SCHEDULES) // SCHEDULES_PER_PROGRAM
    for k in range(SCHEDULES_PER_PROGRAM):
        strategy, split, criterion = SCHEDULES[(first + k * stride) %
                                               len(SCHEDULES)]
        yield {"CAPSULE_STRATEGY": strategy, "CAPSULE_SPLIT": split,
               "CAPSULE_CRITERION": criterion,
               "CAPSULE_LEAF_STEPS": LEAF_STEPS[k % len(LEAF_STEPS)]}


def main():
    args = sys.argv[1:]
    split = args.index("--")
    compiler, source, prefix = args[:3]
    cflags, ldflags = args[3:split], args[split + 1:]
    builds = {".plain": {}, ".ckpt": {"CAPSULE_CHECKPOINT_ALL": "1"},
              ".ckpt-yield": {"CAPSULE_CHECKPOINT_ALL": "1",
                              "CAPSULE_ATOMIC_LOOPS": "0"}}
    for suffix, settings in builds.items():
        build(compiler, source, prefix + suffix, cflags, ldflags, settings)
    plain = run(prefix + ".plain", {})
    identical = 0
    stages = []
    for k, settings in enumerate(schedules_for(source)):
        binary = prefix + (".ckpt" if k == 0 else ".ckpt-yield")
        checkpointed = run(binary, settings, stages)
        if [name for name, _ in checkpointed] != [name for name, _ in plain]:
            sys.exit("the checkpointed build checked other values under %s"
                     % settings)
        for (name, want), (_, got) in zip(plain, checkpointed):
            if abs(got - want) > RTOL * max(abs(got), abs(want)):
                sys.exit("%s under %s: checkpointed %r, plain %r" % (
                    name, settings, got, want))
            identical += got == want
    if not stages:
        sys.exit("the checkpointed build computed no checkpointed gradient")
    print("checkpointed gradients: %d of %d values bit-identical to the "
          "plain ones; up to %d stages per gradient" % (
              identical, len(plain) * SCHEDULES_PER_PROGRAM, max(stages)))


if __name__ == "__main__":
    main()
