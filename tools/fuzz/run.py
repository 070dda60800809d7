"""Building, running and judging one batch of cases.

A batch is one translation unit built three times: with Capsule at -O0 and
at -O2, and as the dual-number oracle. Each case is judged on its own:
  - its gradients, plain and checkpointed, at both levels, against the
    oracle's derivatives (RTOL, ATOL: the two differ only by rounding, since
    both follow the same path through the program);
  - the checkpointed gradient against the plain one of the same build, to
    CHECKPOINTED_RTOL: bit for bit but where an adjoint is summed across a
    split point in another order (docs/checkpointing.md);
  - every interrupted-and-resumed primal against the uninterrupted one, bit
    for bit (result and memory);
  - its forward-mode tangent along a fixed direction, at both levels,
    against the oracle's derivatives dotted with the direction (RTOL of the
    sum of the terms' magnitudes: the two sum in different orders);
  - a vector-mode call's three lanes (that direction, -2 times it, zero)
    against that tangent: T, -2 T and 0, to a relative 1e-12;
  - a reverse vector-mode call's three lanes (x's shadows starting as
    zero, the direction and -2 times it): the first against the plain
    gradient to a relative 1e-12, the others linear in their seeds (the
    third's part beyond the gradient -2 times the second's), so that no
    lane reads another's shadows or adjoints; a program whose reverse
    vector-mode call Capsule refuses is counted with the refusals and
    checked without it;
  - the primal of the Capsule build against the oracle's value, which checks
    the oracle itself: a difference there is reported as such;
  - with a fourth build (-DFUZZ_NESTED, at -O2) and a second-order oracle,
    the Hessian-vector products of forward mode over the plain and over
    the checkpointed gradient, and of reverse mode over the plain gradient,
    against the oracle's (HVP_RTOL of the case's largest component: they
    sum many terms in different orders). A program whose nested calls
    Capsule refuses is counted with the refusals but still passes on the
    rest, and its other nested modes are checked.
A crash, a hang, a non-finite result where the oracle is finite and a build
that fails without Capsule's clear refusal (function, construct, file:line)
are failures too. A clear refusal is the promise's other half: it is counted
and its reason reported, not failed, since the generator writes some code
Capsule is known to refuse (docs/limitations.md). A case whose oracle result is not finite (the
generator keeps values bounded, but not provably) is skipped and counted.
"""
import math
import os
import re
import subprocess

from driver import direction

RTOL = 1e-8
ATOL = 1e-10
CHECKPOINTED_RTOL = 1e-12
CHECKPOINTED_ATOL = 1e-15
HVP_RTOL = 1e-7
HVP_ATOL = 1e-9
NESTED_LEVEL = "O2"
RUN_TIMEOUT = 120
OPT_LEVELS = ["O0", "O2"]

STRATEGIES = ["binary", "treeverse"]
SPLITS = ["bisection", "binomial"]
CRITERIA = ["space", "time", "log"]
LEAF_STEPS = ["1", "3", "10", "40"]


class Toolchain:
    def __init__(self, capsule_config, llvm_bin, broken_oracle=False):
        self.broken_oracle = broken_oracle
        def ask(option):
            return subprocess.run([capsule_config, option], check=True,
                                  capture_output=True, text=True).stdout.split()
        self.plugin = ask("--plugin")[0]
        self.cflags = ask("--cflags")
        self.ldflags = ask("--ldflags")
        self.clang = os.path.join(llvm_bin, "clang")
        self.clangxx = os.path.join(llvm_bin, "clang++")
        self.fuzz_dir = os.path.dirname(os.path.abspath(__file__))


def schedule(seed):
    """The checkpoint schedule and loop atomicity a batch runs with: spread
    over all of them by seed, always with small leaves so that checkpointed
    gradients really split."""
    k = seed * 2654435761 % 2 ** 32
    return {
        "run": {"CAPSULE_STRATEGY": STRATEGIES[k % 2],
                "CAPSULE_SPLIT": SPLITS[k // 2 % 2],
                "CAPSULE_CRITERION": CRITERIA[k // 4 % 3],
                "CAPSULE_LEAF_STEPS": LEAF_STEPS[k // 12 % 4]},
        "build": {"CAPSULE_ATOMIC_LOOPS": "0"} if k // 48 % 2 else {},
    }


def clean_env(extra):
    env = {k: v for k, v in os.environ.items() if not k.startswith("CAPSULE_")}
    env.update(extra)
    return env


def build(tc, source, output, level, settings, defines=()):
    """Builds with Capsule (-D each of \p defines: FUZZ_NESTED for the
    nested calls' drivers); returns None or the compiler's complaint."""
    command = [tc.clang, "-" + level, "-g", "-w", "-fpass-plugin=" + tc.plugin,
               *tc.cflags, *("-D" + d for d in defines), source, "-o", output,
               *tc.ldflags]
    return compile_command(command, clean_env(settings))


def build_oracle(tc, source, output, second_order=False):
    flags = ["-DFUZZ_BROKEN_ORACLE"] if tc.broken_oracle else []
    if second_order:
        flags.append("-DFUZZ_SECOND_ORDER")
    command = [tc.clangxx, "-O0", "-w", "-DFUZZ_ORACLE", *flags,
               "-I" + tc.fuzz_dir, "-x", "c++", source, "-o", output]
    return compile_command(command, clean_env({}))


def compile_command(command, env):
    try:
        result = subprocess.run(command, env=env, capture_output=True,
                                text=True, timeout=600)
    except subprocess.TimeoutExpired:
        return "compiler timed out"
    if result.returncode == 0:
        return None
    return result.stderr.strip() or "compiler exited with %d" % (
        result.returncode)


class Outcome:
    """What one build printed for one case."""

    def __init__(self):
        self.primal = None
        self.grad = {}      # (mode, index) -> value
        self.tangent = None
        self.lanes = None   # a vector-mode call's tangents (driver.py V)
        self.rlanes = {}    # (lane, index) -> adjoint (driver.py R)
        self.deriv = {}     # index -> value (oracle)
        self.hvp = {}       # (mode, index) -> value (driver.py H)
        self.no_nested = False  # the case has no nested calls (driver.py S)
        # Nested modes Capsule refused (driver.py: k, r), each with the
        # compiler's complaint; the build runs the others.
        self.refused_modes = {}
        self.interrupt_bad = None
        self.crash = None   # why the case did not finish


def parse(line, outcomes):
    words = line.split()
    if len(words) < 2 or words[1] not in outcomes:
        return
    o = outcomes[words[1]]
    if words[0] == "P":
        o.primal = float.fromhex(words[2])
    elif words[0] == "G":
        o.grad[(words[2], words[3])] = float.fromhex(words[4])
    elif words[0] == "D":
        o.deriv[words[2]] = float.fromhex(words[3])
    elif words[0] == "T":
        o.tangent = float.fromhex(words[2])
    elif words[0] == "V":
        o.lanes = [float.fromhex(w) for w in words[2:5]]
    elif words[0] == "R":
        o.rlanes[(words[2], words[3])] = float.fromhex(words[4])
    elif words[0] == "I":
        o.interrupt_bad = int(words[2])
    elif words[0] == "H":
        o.hvp[(words[2], words[3])] = float.fromhex(words[4])
    elif words[0] == "S":
        o.no_nested = True


def run_cases(binary, names, settings):
    """Runs the cases, again past any that crashes; returns name -> Outcome."""
    outcomes = {name: Outcome() for name in names}
    remaining = list(names)
    while remaining:
        arg = "," + ",".join(remaining) + ","
        try:
            result = subprocess.run([binary, arg], env=clean_env(settings),
                                    capture_output=True, text=True,
                                    timeout=RUN_TIMEOUT, errors="replace")
            stdout, stderr, code = result.stdout, result.stderr, \
                result.returncode
        except subprocess.TimeoutExpired as e:
            stdout = (e.stdout or b"").decode(errors="replace") \
                if isinstance(e.stdout, bytes) else (e.stdout or "")
            stderr, code = "", "timeout after %d s" % RUN_TIMEOUT
        begun, ended = None, set()
        for line in stdout.splitlines():
            parse(line, outcomes)
            if line.startswith("B "):
                begun = line[2:]
            elif line.startswith("E "):
                ended.add(line[2:])
        if code == 0:
            break
        # The case that began and did not end is the one that failed.
        culprit = begun if begun and begun not in ended else remaining[0]
        tail = "\n".join(stderr.strip().splitlines()[-6:])
        outcomes[culprit].crash = "exit %s%s" % (code, tail and ": " + tail)
        remaining = remaining[remaining.index(culprit) + 1:]
    return outcomes


def finite(values):
    return all(math.isfinite(v) for v in values)


def close(got, want):
    return abs(got - want) <= ATOL + RTOL * abs(want)


CLEAR_REFUSAL = re.compile(r"error: capsule: cannot differentiate function "
                           r"'[^']*'(?: \([^)]*\))?: (.*)")


def refusal(complaint):
    """The reason of a clear compile-time refusal, the promise's other half
    (a correct derivative or a clear error); None for anything else."""
    if "PLEASE submit a bug report" in complaint or "Stack dump" in complaint:
        return None
    match = CLEAR_REFUSAL.search(complaint)
    return match.group(1) if match else None


def is_refusal(kind):
    return kind.startswith("refused")


def is_nested_refusal(kind):
    return kind.startswith("refused nested calls")


def is_nested_failure(kind):
    """Whether judge_nested names this kind of failure."""
    return "nested" in kind or "Hessian-vector product" in kind


def same_sum(checkpointed, plain):
    return abs(checkpointed - plain) <= CHECKPOINTED_ATOL + \
        CHECKPOINTED_RTOL * abs(plain)


def tangent_failure(oracle, o):
    """Why the forward-mode tangent is wrong, or None."""
    n = len(oracle.deriv) - ("a" in oracle.deriv)
    terms = [d * direction(n if i == "a" else int(i))
             for i, d in oracle.deriv.items()]
    want = sum(terms)
    scale = sum(abs(t) for t in terms)
    got = o.tangent
    if got is not None and abs(got - want) <= ATOL + RTOL * scale:
        return None
    return "got %r, want %r" % (got, want)


def lanes_failure(o):
    """Why the vector-mode call's lanes are not T, -2 T and 0, or None: the
    lanes compute what one tangent computes, scaled by 1, -2 and 0, which
    is exact, up to a multiply-add fused differently."""
    if o.tangent is None or o.lanes is None:
        return "missing: tangent %r, lanes %r" % (o.tangent, o.lanes)
    t = o.tangent
    want = [t, -2 * t, 0.0]
    if all(abs(g - w) <= 1e-300 + 1e-12 * abs(w)
           for g, w in zip(o.lanes, want)):
        return None
    return "got %r, want %r" % (o.lanes, want)


def reverse_lanes_failure(o):
    """Why a reverse vector-mode call's lanes are wrong, or None: lane 0
    (shadows starting as zero) is the plain gradient G; lanes 1 and 2 add
    what their seeds d and -2 d contribute, L and -2 L."""
    for (lane, index), got in sorted(o.rlanes.items()):
        g = o.grad.get(("p", index))
        if g is None:
            return "lane %s of %s without a plain gradient" % (lane, index)
        if lane == "0" and not abs(got - g) <= 1e-300 + 1e-12 * abs(g):
            return "lane 0 of %s: got %r, want the gradient %r" % (
                index, got, g)
        if lane == "2":
            one = o.rlanes.get(("1", index))
            if one is None or not abs((got - g) + 2 * (one - g)) <= ATOL + \
                    RTOL * (abs(g) + abs(one) + abs(got)):
                return ("lanes 1 and 2 of %s not linear in their seeds: %r "
                        "and %r beside the gradient %r" % (index, one, got, g))
    return None


def judge(oracle, builds):
    """Failures of one case: (kind, detail) pairs; None if skipped."""
    if oracle.crash or oracle.primal is None or not finite(
            [oracle.primal, *oracle.deriv.values()]):
        return None
    failures = []
    for level, o in builds.items():
        if isinstance(o, str):
            reason = refusal(o)
            failures.append(("refused at -%s: %s" % (level, reason) if reason
                             else "build failed at -%s" % level, o))
            continue
        if o.crash:
            failures.append(("crash at -%s" % level, o.crash))
            continue
        if o.primal is None or not close(o.primal, oracle.primal):
            failures.append(("primal differs from the oracle at -%s" % level,
                             "%r vs %r" % (o.primal, oracle.primal)))
            continue
        wrong = False
        for mode, what in (("p", "plain"), ("k", "checkpointed")):
            for index, want in oracle.deriv.items():
                got = o.grad.get((mode, index))
                if got is None or not close(got, want):
                    failures.append(("wrong %s gradient at -%s" % (what, level),
                                     "d/d%s: got %r, want %r" % (
                                         "a" if index == "a" else
                                         "x[%s]" % index, got, want)))
                    wrong = True
                    break
        if not wrong:
            differing = [i for i in oracle.deriv
                         if not same_sum(o.grad[("k", i)], o.grad[("p", i)])]
            if differing:
                i = differing[0]
                failures.append((
                    "checkpointed differs from plain at -%s" % level,
                    "d/d%s: %r vs %r" % (i, o.grad.get(("k", i)),
                                         o.grad.get(("p", i)))))
        tangent = tangent_failure(oracle, o)
        if tangent:
            failures.append(("wrong tangent at -%s" % level, tangent))
        lanes = lanes_failure(o)
        if lanes:
            failures.append(("wrong vector-mode lanes at -%s" % level, lanes))
        if "v" in o.refused_modes:
            complaint = o.refused_modes["v"]
            reason = refusal(complaint)
            failures.append(("refused reverse vector mode at -%s: %s"
                             % (level, reason) if reason
                             else "build failed at -%s" % level, complaint))
        elif not wrong:
            reverse = reverse_lanes_failure(o)
            if reverse:
                failures.append(("wrong reverse vector-mode lanes at -%s"
                                 % level, reverse))
        if o.interrupt_bad:
            failures.append(("interrupted run differs at -%s" % level,
                             "%d of the resumed runs" % o.interrupt_bad))
    return failures


def judge_nested(oracle, o):
    """Failures of one case's nested calls against the second-order oracle
    \p oracle; None if skipped (the oracle's products are not finite)."""
    wants = {index: value for (mode, index), value in oracle.hvp.items()}
    if oracle.crash or not wants or not finite(wants.values()):
        return None
    level = NESTED_LEVEL
    if isinstance(o, str):
        reason = refusal(o)
        return [("refused nested calls at -%s: %s" % (level, reason)
                 if reason else "nested build failed at -%s" % level, o)]
    if o.no_nested:
        return []
    if o.crash:
        return [("nested calls crash at -%s" % level, o.crash)]
    scale = max(abs(w) for w in wants.values())
    failures = []
    modes = [("p", "forward mode over the plain gradient"),
             ("k", "forward mode over the checkpointed gradient"),
             ("r", "reverse mode over the plain gradient"),
             ("b", "vector forward mode over the plain gradient")]
    for mode, what in modes:
        if mode in o.refused_modes:
            reason = refusal(o.refused_modes[mode])
            failures.append(("refused nested calls (%s) at -%s: %s"
                             % (what, level, reason) if reason
                             else "nested build failed at -%s" % level,
                             o.refused_modes[mode]))
    modes = [m for m in modes if m[0] not in o.refused_modes]
    if "b" not in o.refused_modes:
        # Lanes 1 and 2 of the vector call, brought back to lane 0's
        # product (driver.py).
        modes += [("c", "vector forward mode over the plain gradient, "
                   "lane 1 (-2 times the direction)"),
                  ("z", "vector forward mode over the plain gradient, "
                   "lane 2 (zero) added to lane 0")]
    for mode, what in modes:
        for index, want in sorted(wants.items()):
            got = o.hvp.get((mode, index))
            if got is None or not abs(got - want) <= HVP_ATOL + \
                    HVP_RTOL * scale:
                failures.append((
                    "wrong Hessian-vector product by %s at -%s"
                    % (what, level), "(Hv)[%s]: got %r, want %r" % (
                        index, got, want)))
                break
    return failures
