#!/usr/bin/env python3
"""Runs the paper's section 6 experiment: every mode of paper-fig8 over a
range of l, one process per run, and records time and peak RSS.

    python3 examples/paper-fig8/sweep.py [--out DIR] [--l 53,101,...]

It builds the program (cmake --build BUILD --target paper-fig8) unless
--program names one, then writes to DIR (default BUILD/paper-fig8):

    results.csv            one row per run (or per skipped run)
    stats.log              each run's CAPSULE_STATS line
    fits.md                least-squares fits of space and time against l
    space.png, time.png    all modes, log-log (the paper's Fig. 29)
    space-checkpointed.png the checkpointed modes with fits (its Fig. 30)
    snapshots.png          the checkpointed modes' peak snapshot bytes

Every gradient is compared with the plain one at the same l (or, where
plain is not run, with the first checkpointed mode that ran); a difference
beyond 1e-10 relative stops the sweep with exit status 1. A mode stops
growing l once its next run is predicted to exceed --budget seconds or
--memory-fraction of the machine's memory. --repeat K runs every cell K
times and records the medians of its times and peak RSS.
"""
import argparse
import csv
import math
import os
import re
import shutil
import statistics
import subprocess
import sys
import tempfile
import threading
import time

MODES = ["primal", "plain", "loop-binomial", "binary-bisection",
         "treeverse-binomial"]
GRADIENT_MODES = MODES[1:]
DEFAULT_L = [53, 101, 211, 401, 809, 1601, 3203, 6405, 12809, 25601, 51203,
             102407]
TOLERANCE = 1e-10
TITLES = {
    "primal": "primal",
    "plain": "plain reverse mode",
    "loop-binomial": "loop iterations, treeverse binomial, d = 40",
    "binary-bisection": "arbitrary points, binary bisection",
    "treeverse-binomial": "arbitrary points, treeverse binomial, d = 40",
}


def parse_args():
    here = os.path.dirname(os.path.abspath(__file__))
    root = os.path.dirname(os.path.dirname(here))
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--build", default=os.path.join(root, "build"),
                   help="build directory (default: build/)")
    p.add_argument("--program", help="a built paper-fig8 (skips building)")
    p.add_argument("--out", help="output directory (default BUILD/paper-fig8)")
    p.add_argument("--l", type=lambda s: [int(v) for v in s.split(",")],
                   default=DEFAULT_L, help="comma-separated outer lengths")
    p.add_argument("--n", type=int, default=1000, help="state length")
    p.add_argument("--modes", type=lambda s: s.split(","), default=MODES)
    p.add_argument("--budget", type=float, default=60.0,
                   help="seconds a single run may be predicted to take")
    p.add_argument("--memory-fraction", type=float, default=0.5,
                   help="share of physical memory a run may be predicted "
                        "to use")
    p.add_argument("--repeat", type=int, default=1,
                   help="runs per cell; times and RSS are their medians")
    p.add_argument("--no-plots", action="store_true",
                   help="write results.csv and fits.md only")
    args = p.parse_args()
    unknown = [m for m in args.modes if m not in MODES]
    if unknown:
        p.error("unknown mode(s) %s; modes: %s" % (",".join(unknown),
                                                  ",".join(MODES)))
    if any(l < 1 for l in args.l) or args.n < 2 or args.repeat < 1:
        p.error("l must be >= 1, n >= 2 and --repeat >= 1")
    args.out = args.out or os.path.join(args.build, "paper-fig8")
    return args


def build_program(args):
    if args.program:
        return args.program
    subprocess.run(["cmake", "--build", args.build, "--target", "paper-fig8"],
                   check=True, stdout=subprocess.DEVNULL)
    return os.path.join(args.build, "bin", "paper-fig8")


def physical_memory_mib():
    return os.sysconf("SC_PAGE_SIZE") * os.sysconf("SC_PHYS_PAGES") / 2**20


def run_measured(program, mode, l, n, budget):
    """One run in its own process: its output fields, CAPSULE_STATS lines,
    elapsed seconds and peak RSS in MiB (the child's VmHWM, which it prints:
    wait4's ru_maxrss would include this Python process's RSS, inherited
    through fork and exec)."""
    env = dict(os.environ, CAPSULE_STATS="1")
    with tempfile.TemporaryFile("w+") as out, \
            tempfile.TemporaryFile("w+") as err:
        start = time.monotonic()
        proc = subprocess.Popen([program, mode, str(l), str(n)], env=env,
                                stdout=out, stderr=err)
        # A run the predictor let through but that hangs is killed.
        watchdog = threading.Timer(max(10 * budget, 60), proc.kill)
        watchdog.start()
        proc.wait()
        watchdog.cancel()
        elapsed = time.monotonic() - start
        out.seek(0)
        err.seek(0)
        output, stats = out.read(), err.read().strip()
    if proc.returncode != 0:
        sys.stderr.write(stats + "\n")
        raise SystemExit("sweep: %s l=%d failed with status %d"
                         % (mode, l, proc.returncode))
    fields = dict(f.split("=", 1) for f in output.split())
    return fields, stats, elapsed, int(fields["peak_rss_kib"]) / 1024.0


def run_repeated(program, mode, l, args):
    """--repeat runs of one cell: the first run's output and statistics,
    and the medians of elapsed seconds, peak RSS and gradient seconds."""
    runs = [run_measured(program, mode, l, args.n, args.budget)
            for _ in range(args.repeat)]
    for fields, _, _, _ in runs[1:]:
        if fields["digest"] != runs[0][0]["digest"]:
            raise SystemExit("sweep: %s l=%d: two runs gave different "
                             "gradients" % (mode, l))
    fields, stats = runs[0][0], runs[0][1]
    return (fields, stats, statistics.median(r[2] for r in runs),
            statistics.median(r[3] for r in runs),
            statistics.median(float(r[0]["seconds"]) for r in runs))


SCHEDULE = re.compile(r"alpha (\d+), d (\d+), t (\d+); (\d+) stages, "
                      r"\d+ recomputed steps, peak (\d+) live snapshots")


def schedule_of(stats):
    """alpha, d, t, stages and peak live snapshots from CAPSULE_STATS."""
    m = SCHEDULE.search(stats)
    if not m:
        return {}
    return dict(zip(["alpha", "d", "t", "stages", "live_snapshots"],
                    m.groups()))


def digest(fields):
    return [float(v) for v in fields["digest"].split(",")]


def relative_difference(a, b):
    scale = max(abs(v) for v in b) or 1.0
    return max(abs(x - y) for x, y in zip(a, b)) / scale


class Predictor:
    """Whether a mode's next run fits the budget, from its last run."""

    def __init__(self, budget, memory_mib):
        self.budget, self.memory_mib = budget, memory_mib
        self.last = {}

    def reason_to_skip(self, mode, l):
        if mode not in self.last:
            return None
        last_l, seconds, rss = self.last[mode]
        growth = l / last_l
        if seconds * growth ** 1.5 > self.budget:
            return "predicted over %g s" % self.budget
        if rss * growth * 1.1 > self.memory_mib:
            return "predicted over %.0f MiB" % self.memory_mib
        return None

    def record(self, mode, l, seconds, rss):
        self.last[mode] = (l, seconds, rss)


def sweep(args, program):
    rows, stats_lines = [], []
    predictor = Predictor(args.budget,
                          args.memory_fraction * physical_memory_mib())
    stopped = {}
    # In MODES order, so that plain, when run, is the reference.
    modes = [m for m in MODES if m in args.modes]
    for l in sorted(args.l):
        reference = None
        for mode in modes:
            reason = stopped.get(mode) or predictor.reason_to_skip(mode, l)
            if reason:
                stopped[mode] = reason
                rows.append(dict(l=l, n=args.n, mode=mode,
                                 status="skipped: " + reason))
                continue
            fields, stats, elapsed, rss, seconds = run_repeated(
                program, mode, l, args)
            predictor.record(mode, l, elapsed, rss)
            row = dict(l=l, n=args.n, inner=fields["inner"], mode=mode,
                       status="ok", seconds="%.6f" % seconds,
                       process_seconds="%.3f" % elapsed,
                       peak_rss_mib="%.2f" % rss,
                       tape_mib="%.3f" % (int(fields["tape_bytes"]) / 2**20),
                       snapshot_kib="%.1f"
                       % (int(fields["snapshot_bytes"]) / 2**10),
                       **schedule_of(stats))
            if mode != "primal":
                if reference is None:
                    reference = (mode, digest(fields))
                diff = relative_difference(digest(fields), reference[1])
                row.update(reference=reference[0],
                           relative_difference="%.3g" % diff)
                if diff > TOLERANCE:
                    raise SystemExit(
                        "sweep: %s l=%d: gradient differs from %s by %.3g "
                        "(tolerance %g)" % (mode, l, reference[0], diff,
                                            TOLERANCE))
            rows.append(row)
            stats_lines += ["%s l=%d: %s" % (mode, l, line)
                            for line in stats.splitlines()]
            print("%-19s l=%-6d %10.4f s %10.1f MiB" % (mode, l, seconds, rss),
                  flush=True)
    return rows, stats_lines


COLUMNS = ["l", "n", "inner", "mode", "status", "seconds", "process_seconds",
           "peak_rss_mib", "tape_mib", "snapshot_kib", "alpha", "d", "t",
           "stages", "live_snapshots", "reference", "relative_difference"]


def write_csv(path, rows):
    with open(path, "w", newline="") as f:
        w = csv.DictWriter(f, fieldnames=COLUMNS, restval="")
        w.writeheader()
        w.writerows(rows)


def least_squares(xs, ys):
    """y = a + b x: (a, b, R^2)."""
    n = len(xs)
    mx, my = sum(xs) / n, sum(ys) / n
    sxx = sum((x - mx) ** 2 for x in xs)
    sxy = sum((x - mx) * (y - my) for x, y in zip(xs, ys))
    b = sxy / sxx if sxx else 0.0
    a = my - b * mx
    ss_tot = sum((y - my) ** 2 for y in ys)
    ss_res = sum((y - a - b * x) ** 2 for x, y in zip(xs, ys))
    return a, b, (1 - ss_res / ss_tot) if ss_tot else 1.0


FITS = [  # (name, quantity, basis)
    ("space ~ a + b lg l", "peak_rss_mib", lambda l: math.log2(l)),
    ("space ~ a + b l", "peak_rss_mib", lambda l: l),
    ("snapshots ~ a + b lg l", "snapshot_kib", lambda l: math.log2(l)),
    ("time ~ a + b l lg l", "seconds", lambda l: l * math.log2(l)),
    ("time ~ a + b l", "seconds", lambda l: l),
]


def fits_by_mode(rows):
    """{mode: [(a, b, R^2) or None per FITS entry]}; None where the
    quantity is zero throughout (no snapshots without checkpointing)."""
    result = {}
    for mode in MODES:
        ok = [r for r in rows if r["mode"] == mode and r["status"] == "ok"]
        if len(ok) < 3:
            continue
        ls = [r["l"] for r in ok]
        fits = []
        for _, quantity, basis in FITS:
            ys = [float(r[quantity]) for r in ok]
            fits.append(least_squares([basis(l) for l in ls], ys)
                        if any(ys) else None)
        result[mode] = fits
    return result


def write_fits(path, fits):
    with open(path, "w") as f:
        f.write("Least-squares fits y = a + b·x over the l swept: R² and b "
                "(space: peak RSS in MiB; snapshots: peak KiB of live "
                "snapshots; time: seconds of the gradient)\n\n")
        f.write("| mode | " + " | ".join(name for name, _, _ in FITS) +
                " |\n")
        f.write("|---" * (len(FITS) + 1) + "|\n")
        for mode, fs in fits.items():
            f.write("| %s | " % mode + " | ".join(
                "R² %.3f, b %.3g" % (fit[2], fit[1]) if fit else "—"
                for fit in fs) + " |\n")


COLOURS = {"primal": "#555555", "plain": "#2e7d32", "loop-binomial": "#c62828",
           "binary-bisection": "#1565c0", "treeverse-binomial": "#ef6c00"}


def better_space_fit(fit):
    """The gnuplot expression of the better of a mode's two space fits."""
    (a1, b1, r1), (a2, b2, r2) = fit[0], fit[1]
    if r1 >= r2:
        return "%g + %g*log(x)/log(2)" % (a1, b1)
    return "%g + %g*x" % (a2, b2)


def write_plots(out, rows, fits):
    gnuplot = shutil.which("gnuplot")
    if not gnuplot:
        raise SystemExit("sweep: gnuplot not found (apt-get install "
                         "gnuplot-nox), or pass --no-plots")
    modes = [m for m in MODES
             if any(r["mode"] == m and r["status"] == "ok" for r in rows)]
    for mode in modes:
        with open(os.path.join(out, mode + ".dat"), "w") as f:
            for r in rows:
                if r["mode"] == mode and r["status"] == "ok":
                    f.write("%d %s %s %s\n" % (r["l"], r["peak_rss_mib"],
                                               r["seconds"],
                                               r["snapshot_kib"]))

    def plot(column, selected, with_fits=False):
        curves = ["'%s.dat' using 1:%d with linespoints lc rgb '%s' "
                  "title '%s'" % (m, column, COLOURS[m], TITLES[m])
                  for m in selected]
        if with_fits:
            curves += ["%s with lines dashtype 2 lc rgb '%s' notitle"
                       % (better_space_fit(fits[m]), COLOURS[m])
                       for m in selected if m in fits]
        return ", ".join(curves)

    checkpointed = [m for m in modes if m not in ("primal", "plain")]
    script = """
set terminal pngcairo size 900,600 font ',11'
set key top left
set grid
set logscale x 2
set xlabel 'l (outer iterations)'
set output 'space.png'
set title 'Peak RSS of the process, n = {n}'
set logscale y
set ylabel 'peak RSS (MiB)'
plot {space}
set output 'time.png'
set title 'Time of the gradient (primal: of the function), n = {n}'
set ylabel 'seconds'
plot {time}
set output 'space-checkpointed.png'
set title 'Peak RSS with checkpointing, n = {n} (dashed: the better fit, a + b lg l or a + b l)'
set ylabel 'peak RSS (MiB)'
plot {ckpt}
set output 'snapshots.png'
set title 'Peak bytes of all live snapshots, n = {n}'
set key bottom right
unset logscale y
set yrange [0:*]
set ylabel 'KiB'
plot {snapshots}
""".format(n=rows[0]["n"], space=plot(2, modes), time=plot(3, modes),
           ckpt=plot(2, checkpointed, with_fits=True),
           snapshots=plot(4, checkpointed))
    with open(os.path.join(out, "plots.gp"), "w") as f:
        f.write(script)
    subprocess.run([gnuplot, "plots.gp"], cwd=out, check=True)


def main():
    args = parse_args()
    program = build_program(args)
    os.makedirs(args.out, exist_ok=True)
    rows, stats_lines = sweep(args, program)
    write_csv(os.path.join(args.out, "results.csv"), rows)
    with open(os.path.join(args.out, "stats.log"), "w") as f:
        f.write("\n".join(stats_lines) + "\n")
    fits = fits_by_mode(rows)
    write_fits(os.path.join(args.out, "fits.md"), fits)
    if not args.no_plots:
        write_plots(args.out, rows, fits)
    print("sweep: wrote %s" % args.out)


if __name__ == "__main__":
    main()
