#!/usr/bin/env python3
"""Builds and runs the GradBench task suite and prints one table.

Each task (bench/gradbench/<task>.c, see gradbench.h) is compiled by clang-19
at -O2 with Capsule's plugin and, when the environment names an Enzyme build
in ENZYME_PLUGIN, a second time with that plugin instead (ENZYME_CFLAGS adds
flags to that build). The same source serves both: the tasks call Enzyme's
markers, which Capsule accepts. Every binary checks its derivative before it
times anything; a failed check, build or run is a cell of the table, not a
number. Both sides link Capsule's runtime (the harness reads its
statistics; Enzyme's code never calls it).

    python3 bench/gradbench/run.py [--build DIR] [--tasks gmm,ba,...]
                                   [--seconds S] [--svg FILE] [--out DIR]

or `cmake --build build --target gradbench`. The table gives, per task,
the primal's median time, derivative/primal (median of the per-run
ratios, bench_util.h) and the peak RSS of a process that set up the inputs
and computed the derivative once. --svg draws the ratios as a bar chart.
"""
import argparse
import os
import re
import subprocess
import sys

TASKS = ["gmm", "ba", "ht", "lstm", "ode", "llsq", "lse", "det", "kmeans"]
HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(HERE))
LINE = re.compile(r"^gradbench (.*)$", re.M)


def fail(message):
    print("run.py: error: " + message, file=sys.stderr)
    sys.exit(2)


def parse_args():
    p = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    p.add_argument("--build", default=os.path.join(ROOT, "build"),
                   help="Capsule's build directory (default: build)")
    p.add_argument("--tasks", default=",".join(TASKS),
                   help="comma-separated tasks (default: all nine)")
    p.add_argument("--seconds", default="1",
                   help="timing budget per task and tool (BENCH_SECONDS)")
    p.add_argument("--svg", help="also draw the ratios into this SVG file")
    p.add_argument("--out", help="where the binaries go (default: "
                   "BUILD/bin/gradbench)")
    args = p.parse_args()
    args.tasks = [t for t in args.tasks.split(",") if t]
    unknown = [t for t in args.tasks if t not in TASKS]
    if unknown:
        fail("unknown task%s %s; the tasks are %s"
             % ("s" if len(unknown) > 1 else "", ", ".join(unknown),
                ", ".join(TASKS)))
    return args


def tools(build):
    """(name, plugin, extra flags) of each tool the table compares."""
    plugin = os.path.join(build, "lib", "CapsulePlugin.so")
    runtime = os.path.join(build, "lib", "libcapsule_rt.a")
    for path in (plugin, runtime):
        if not os.path.exists(path):
            fail("%s does not exist: build Capsule first (scripts/build.sh)"
                 % path)
    found = [("Capsule", plugin, [])]
    enzyme = os.environ.get("ENZYME_PLUGIN")
    if enzyme:
        if not os.path.exists(enzyme):
            fail("ENZYME_PLUGIN names %s, which does not exist" % enzyme)
        found.append(("Enzyme", enzyme,
                      os.environ.get("ENZYME_CFLAGS", "").split()))
    return found, runtime


def build_task(task, tool, runtime, outdir):
    """The binary's path, or an error text."""
    name, plugin, extra = tool
    out = os.path.join(outdir, "%s-%s" % (name.lower(), task))
    command = ["clang-19", "-std=c11", "-O2", "-Wall", "-Wextra",
               "-fpass-plugin=" + plugin, *extra,
               "-I" + os.path.join(ROOT, "include"),
               "-I" + os.path.join(ROOT, "bench"),
               os.path.join(HERE, task + ".c"), runtime, "-lm", "-o", out]
    r = subprocess.run(command, capture_output=True, text=True)
    if r.returncode != 0:
        sys.stderr.write(r.stdout + r.stderr)
        return None, "build failed"
    return out, None


def run_task(binary, seconds):
    """The fields of the binary's gradbench line, or an error text."""
    env = dict(os.environ, BENCH_SECONDS=seconds)
    r = subprocess.run([binary], capture_output=True, text=True, env=env)
    m = LINE.search(r.stdout)
    if r.returncode != 0 or not m:
        sys.stderr.write(r.stdout[-2000:] + r.stderr[-2000:])
        return None, ("check failed" if "FAILED" in r.stdout
                      else "run failed (status %d)" % r.returncode)
    return dict(f.split("=", 1) for f in m.group(1).split()), None


def measure(args):
    found, runtime = tools(args.build)
    outdir = args.out or os.path.join(args.build, "bin", "gradbench")
    os.makedirs(outdir, exist_ok=True)
    results = {}
    for task in args.tasks:
        for tool in found:
            print("gradbench: %s with %s ..." % (task, tool[0]),
                  file=sys.stderr, flush=True)
            binary, error = build_task(task, tool, runtime, outdir)
            fields = None
            if binary:
                fields, error = run_task(binary, args.seconds)
            results[task, tool[0]] = fields if fields else error
    return [t[0] for t in found], results


def table(names, tasks, results):
    head = ["task", "size", "derivative", "primal ms"]
    for n in names:
        head += ["%s ratio" % n, "%s RSS MiB" % n]
    rows = [head, ["---"] * len(head)]
    for task in tasks:
        first = next((results[task, n] for n in names
                      if isinstance(results[task, n], dict)), None)
        row = [task, first["size"] if first else "-",
               first["derivative"] if first else "-",
               "%.3f" % float(first["primal_ms"]) if first else "-"]
        for n in names:
            cell = results[task, n]
            if isinstance(cell, dict):
                row += ["%.2f" % float(cell["ratio"]),
                        "%s (primal %s)" % (cell["derivative_rss_mib"],
                                            cell["primal_rss_mib"])]
            else:
                row += [cell, "-"]
        rows.append(row)
    return "\n".join("| " + " | ".join(r) + " |" for r in rows)


def svg(names, tasks, results):
    """Horizontal bars of derivative/primal, one group per task."""
    colours = ["#1565c0", "#ef6c00"]
    bar, gap, left, width = 14, 10, 70, 420
    ratios = [float(results[t, n]["ratio"]) for t in tasks for n in names
              if isinstance(results[t, n], dict)]
    top = max(ratios + [1.0])
    height = 40 + len(tasks) * (len(names) * bar + gap) + 20 * len(names)
    out = ['<svg xmlns="http://www.w3.org/2000/svg" width="%d" height="%d" '
           'font-family="sans-serif" font-size="12">'
           % (left + width + 60, height),
           '<rect width="100%" height="100%" fill="white"/>',
           '<text x="%d" y="18">derivative / primal (median), GradBench '
           'tasks</text>' % left]
    y = 30
    for task in tasks:
        out.append('<text x="%d" y="%d" text-anchor="end">%s</text>'
                   % (left - 6, y + len(names) * bar / 2 + 4, task))
        for i, n in enumerate(names):
            cell = results[task, n]
            if isinstance(cell, dict):
                r = float(cell["ratio"])
                w = width * r / top
                out.append('<rect x="%d" y="%d" width="%.1f" height="%d" '
                           'fill="%s"/>' % (left, y, w, bar - 2, colours[i]))
                out.append('<text x="%.1f" y="%d">%.2f</text>'
                           % (left + w + 4, y + bar - 4, r))
            else:
                out.append('<text x="%d" y="%d">%s</text>'
                           % (left + 4, y + bar - 4, cell))
            y += bar
        y += gap
    for i, n in enumerate(names):
        out.append('<rect x="%d" y="%d" width="12" height="12" fill="%s"/>'
                   '<text x="%d" y="%d">%s</text>'
                   % (left, y + 20 * i, colours[i], left + 18,
                      y + 20 * i + 10, n))
    out.append("</svg>")
    return "\n".join(out) + "\n"


def main():
    args = parse_args()
    names, results = measure(args)
    print(table(names, args.tasks, results))
    if args.svg:
        with open(args.svg, "w", encoding="utf-8") as f:
            f.write(svg(names, args.tasks, results))
    failed = [k for k, v in results.items() if not isinstance(v, dict)]
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
