#!/usr/bin/env python3
"""Draws the checkpoint schedule of one checkpointed gradient call as an SVG,
after Siskind & Pearlmutter 2018, Fig. 2.

The input is the trace CAPSULE_TRACE=FILE makes the runtime write (format:
runtime/Trace.h, docs/schedule-trace.md). Steps run left to right, time
(the order of the trace's records) top to bottom: each untaped run is a
green segment, each stage a red segment (taped forward sweep, left to right)
and a blue one (reverse sweep, right to left) below it, the memory probe of
CAPSULE_MEMORY_LIMIT a light red one, and each capsule a
vertical line at its step from its capture to its release (gold for the
start capsule, pink for the others, brown for one released before anything
ran from it).

A schedule of more than MAX_ROWS runs is summarised: consecutive runs are
merged into ROW_BINS rows, each showing per colour the steps its runs
covered, and snapshot lifetimes are merged per pixel column; the caption
says so.

usage: draw-schedule.py TRACE -o OUT.svg [--call K]

K counts the file's gradient calls from 1 (the default). Errors (a missing
file, a malformed line, a call the file does not hold) are reported with
exit status 2.
"""
import argparse
import sys
import textwrap
from xml.sax.saxutils import escape

RUNS = ("primal", "forward", "reverse", "probe")
COLOURS = {
    "primal": "#2ca02c",
    "forward": "#d62728",
    "probe": "#ff9896",
    "reverse": "#1f77b4",
    "start": "#d4a017",
    "snapshot": "#e377c2",
    "dropped": "#8c564b",
}

# Runs drawn one per row up to MAX_ROWS; beyond, ROW_BINS rows.
MAX_ROWS = 240
ROW_BINS = 160
PLOT_WIDTH = 720
# Runs shorter than this many pixels get no arrowhead.
ARROW_MIN = 24
# What fits across the picture in the caption's font.
CAPTION_COLUMNS = 110
LEFT, RIGHT, TOP = 56, 40, 64


class TraceError(Exception):
    pass


class Call:
    """One gradient call's trace: its header and its records."""

    def __init__(self, fields):
        self.fields = fields
        self.n = fields["n"]
        self.runs = []  # (kind, from, to)
        # id -> [step, capture time, release time or None]; a time is the
        # number of runs before the event.
        self.capsules = {}
        self.live = []
        self.peak_live = 0
        self.complete = False


def fail(message):
    sys.stderr.write("draw-schedule.py: error: %s\n" % message)
    sys.exit(2)


def number(text, what=""):
    if not (text.isascii() and text.isdigit()):
        raise TraceError("%s'%s' is not a non-negative integer"
                         % (what and what + " ", text))
    return int(text)


def parse_header(rest):
    """`n=N unit=U strategy=S split=P d=D t=T alpha=A root=NAME`; NAME
    takes the rest of the line."""
    head, sep, root = rest.partition(" root=")
    if not sep:
        raise TraceError("the gradient line has no root= field")
    fields = {"root": root}
    for key, value in (f.partition("=")[::2] for f in head.split(" ")):
        fields[key] = value
    missing = [k for k in ("n", "unit", "strategy", "split", "d", "t",
                           "alpha")
               if k not in fields]
    if missing:
        raise TraceError("the gradient line lacks %s" % ", ".join(missing))
    for key in ("n", "d", "t", "alpha"):
        fields[key] = number(fields[key], key)
    if fields["unit"] not in ("steps", "iterations"):
        raise TraceError("unit=%s is neither steps nor iterations"
                         % fields["unit"])
    return fields


def parse_record(call, fields):
    kind = fields[0]
    if call is None or call.complete:
        raise TraceError("'%s' outside a gradient call (no gradient line "
                         "before it, or after its end line)" % kind)
    arity = {"primal": 2, "forward": 2, "reverse": 2, "probe": 2,
             "snapshot": 2, "release": 1, "end": 0}
    if kind not in arity:
        raise TraceError("unknown record '%s'" % kind)
    if len(fields) - 1 != arity[kind]:
        raise TraceError("'%s' takes %d fields, not %d"
                         % (kind, arity[kind], len(fields) - 1))
    if kind == "end":
        call.complete = True
        return
    args = [number(f) for f in fields[1:]]
    time = len(call.runs)
    if kind in RUNS:
        start, stop = args
        if not start <= stop <= call.n:
            raise TraceError("%s %d %d is not a span of [0, %d]"
                             % (kind, start, stop, call.n))
        call.runs.append((kind, start, stop))
    elif kind == "snapshot":
        ident, step = args
        if ident in call.capsules:
            raise TraceError("capsule %d is captured twice" % ident)
        if step > call.n:
            raise TraceError("capsule %d at step %d, past n = %d"
                             % (ident, step, call.n))
        call.capsules[ident] = [step, time, None]
        call.live.append(ident)
        call.peak_live = max(call.peak_live, len(call.live))
    else:
        (ident,) = args
        if ident not in call.live:
            raise TraceError("capsule %d is released but not live" % ident)
        call.live.remove(ident)
        call.capsules[ident][2] = time


def parse(path):
    try:
        with open(path, encoding="utf-8") as f:
            lines = f.read().split("\n")
    except OSError as e:
        fail("cannot read %s: %s" % (path, e.strerror))
    except UnicodeDecodeError as e:
        fail("cannot read %s: %s" % (path, e))
    if lines and lines[-1] == "":
        lines.pop()
    calls, call = [], None
    for lineno, line in enumerate(lines, 1):
        try:
            kind, _, rest = line.partition(" ")
            if kind == "gradient":
                call = Call(parse_header(rest))
                calls.append(call)
            else:
                parse_record(call, line.split(" "))
        except TraceError as e:
            fail("%s:%d: malformed line '%s': %s" % (path, lineno, line, e))
    return calls


def merge(intervals):
    """The union of [a, b] intervals, as sorted disjoint ones."""
    out = []
    for a, b in sorted(intervals):
        if out and a <= out[-1][1]:
            out[-1][1] = max(out[-1][1], b)
        else:
            out.append([a, b])
    return out


class Picture:
    def __init__(self, width, height):
        self.width, self.height = width, height
        self.body = []

    def add(self, element):
        self.body.append(element)

    def text(self, x, y, text, anchor="start", size=12, extra=""):
        self.add('<text x="%.1f" y="%.1f" font-size="%d" text-anchor="%s"%s>'
                 "%s</text>" % (x, y, size, anchor, extra, escape(text)))

    def svg(self):
        head = ('<svg xmlns="http://www.w3.org/2000/svg" width="%d" '
                'height="%d" viewBox="0 0 %d %d" font-family="sans-serif">'
                % (self.width, self.height, self.width, self.height))
        defs = ["<defs>"]
        for kind in RUNS:
            defs.append('<marker id="arrow-%s" viewBox="0 0 6 6" refX="6" '
                        'refY="3" markerWidth="3" markerHeight="3" '
                        'orient="auto"><path d="M0,0 L6,3 L0,6 z" '
                        'fill="%s"/></marker>' % (kind, COLOURS[kind]))
        defs.append("</defs>")
        background = ('<rect width="100%" height="100%" fill="white"/>')
        return "\n".join([head, *defs, background, *self.body, "</svg>"]) + "\n"


def first_run(primal, n):
    """How many of the leading green runs make the first run from 0 to n:
    PRIMOPS, or the online schedule's chunks, each from where the last
    stopped."""
    reached = 0
    for count, (_, a, b) in enumerate(primal, 1):
        if a != reached:
            return count - 1
        reached = b
        if reached == n:
            return count
    return len(primal)


def statistics(call):
    primal = [r for r in call.runs if r[0] == "primal"]
    # The first run counts the steps and, in a complete call, the last green
    # run leaves memory as the computation leaves it; the others are the
    # schedule's recomputation.
    first = first_run(primal, call.n)
    interrupts = primal[first:-1] if call.complete else primal[first:]
    return {
        "stages": sum(1 for r in call.runs if r[0] == "forward"),
        "recomputed": sum(b - a for _, a, b in interrupts),
        "taped": sum(b - a for k, a, b in call.runs if k == "forward"),
        "snapshots": max(len(call.capsules) - 1, 0),
        "peak": call.peak_live,
    }


def draw(call, index, count):
    f = call.fields
    n = max(call.n, 1)
    rows = len(call.runs)
    summarised = rows > MAX_ROWS
    if summarised:
        pitch = 9.0
        height_rows = ROW_BINS
    else:
        pitch = 12.0 if rows <= 120 else 8.0
        height_rows = max(rows, 1)
    plot_height = height_rows * pitch
    # A time (runs before an event) as a y coordinate, continuous so that
    # snapshot lines keep their place when runs are binned.
    def y_of(time):
        return TOP + time * plot_height / max(rows, 1)

    def x_of(step):
        return LEFT + step * PLOT_WIDTH / n

    stats = statistics(call)
    caption = [
        "%s: n = %d steps, %s-%s, d = %d, t = %d, \u03b1 = %d"
        % (f["root"], call.n, f["strategy"], f["split"], f["d"], f["t"],
           f["alpha"]),
        "%d stages (%d steps taped), %d steps recomputed untaped, "
        "%d snapshots taken, peak %d live (start capsule included)"
        % (stats["stages"], stats["taped"], stats["recomputed"],
           stats["snapshots"], stats["peak"]),
    ]
    legend_y = TOP + plot_height + 28
    notes = []
    if summarised:
        per_bin = -(-rows // ROW_BINS)
        notes.append("Summarised: %d runs in %d rows of up to %d "
                     "consecutive runs; a row shows, per colour, the steps "
                     "its runs covered (green, red, blue, light red lanes)."
                     % (rows, ROW_BINS, per_bin))
    if not call.complete:
        notes.append("Incomplete: the trace stops before this call's end "
                     "line (the program stopped inside it).")
    pic = Picture(LEFT + PLOT_WIDTH + RIGHT, 0)
    pic.text(LEFT, 22, "Checkpoint schedule of %s (gradient call %d of %d)"
             % (f["root"], index, count), size=15, extra=' font-weight="bold"')

    # The step axis on top, time down the left.
    axis_y = TOP - 12
    pic.add('<line x1="%.1f" y1="%.1f" x2="%.1f" y2="%.1f" stroke="#555"/>'
            % (x_of(0), axis_y, x_of(n), axis_y))
    ticks = sorted({0, call.n // 4, call.n // 2, 3 * call.n // 4, call.n})
    for step in ticks:
        x = x_of(step)
        pic.add('<line x1="%.1f" y1="%.1f" x2="%.1f" y2="%.1f" stroke="#555"/>'
                % (x, axis_y - 4, x, axis_y))
        pic.text(x, axis_y - 7, str(step), anchor="middle", size=10)
    unit = "iteration" if f["unit"] == "iterations" else "step"
    pic.text(x_of(n), axis_y - 20, unit + " \u2192", anchor="end", size=11)
    pic.text(LEFT - 30, TOP + 10, "time \u2193", anchor="middle", size=11,
             extra=' transform="rotate(-90 %.1f %.1f)"'
             % (LEFT - 30, TOP + 10))

    snapshot_lines = draw_snapshots(pic, call, y_of, x_of, summarised, pitch)
    if summarised:
        draw_bins(pic, call, x_of, pitch)
    else:
        for row, (kind, a, b) in enumerate(call.runs):
            y = TOP + (row + 0.5) * pitch
            start, stop = (b, a) if kind == "reverse" else (a, b)
            x1, x2 = x_of(start), x_of(stop)
            if abs(x2 - x1) < 1:
                x2 = x1 + (1 if x2 >= x1 else -1)
            # An arrowhead would hide a short run; its colour says its
            # direction anyway.
            arrow = (' marker-end="url(#arrow-%s)"' % kind
                     if abs(x2 - x1) >= ARROW_MIN else "")
            pic.add('<line class="%s" x1="%.1f" y1="%.1f" x2="%.1f" '
                    'y2="%.1f" stroke="%s" stroke-width="3"%s><title>%s %d '
                    "%d</title></line>" % (kind, x1, y, x2, y, COLOURS[kind],
                                           arrow, kind, a, b))
    if summarised:
        notes.append("Snapshot lifetimes merged per pixel column: %d "
                     "capsules drawn as %d lines."
                     % (len(call.capsules), snapshot_lines))

    legend = [[("primal", "untaped run"),
               ("forward", "taped forward sweep"),
               ("reverse", "reverse sweep")],
              [("probe", "memory probe (taped, not reversed)")],
              [("start", "start capsule"),
               ("snapshot", "capsule, from capture to release"),
               ("dropped", "capsule released unused")]]
    for line, entries in enumerate(legend):
        y = legend_y + 18 * line
        for column, (key, label) in enumerate(entries):
            x = LEFT + 240 * column
            pic.add('<line x1="%.1f" y1="%.1f" x2="%.1f" y2="%.1f" '
                    'stroke="%s" stroke-width="3"/>'
                    % (x, y - 4, x + 18, y - 4, COLOURS[key]))
            pic.text(x + 24, y, label, size=11)
    caption_y = legend_y + 18 * len(legend) + 12
    lines = [wrapped for line in caption + notes
             for wrapped in textwrap.wrap(line, CAPTION_COLUMNS)]
    for i, line in enumerate(lines):
        pic.text(LEFT, caption_y + 18 * i, line, size=12,
                 extra=' class="caption"')
    pic.height = int(caption_y + 18 * len(lines))
    return pic.svg()


def draw_snapshots(pic, call, y_of, x_of, summarised, pitch):
    """Draws the capsules' lifetimes; returns how many lines it drew."""
    end = len(call.runs)
    lines = {}  # (colour, pixel column) -> [[y0, y1], ...]
    for ident, (step, captured, released) in sorted(call.capsules.items()):
        if released is None:
            released = end
        colour = ("start" if ident == 0 else
                  "dropped" if released == captured else "snapshot")
        y0, y1 = y_of(captured), y_of(released)
        if y1 - y0 < pitch / 2:
            y0, y1 = y0 - pitch / 4, y0 + pitch / 4
        x = x_of(step)
        if summarised:
            colour = "start" if ident == 0 else "snapshot"
            x = round(x)
        lines.setdefault((colour, x), []).append((y0, y1))
    count = 0
    for (colour, x), spans in sorted(lines.items()):
        for y0, y1 in merge(spans) if summarised else spans:
            pic.add('<line class="capsule" x1="%.1f" y1="%.1f" x2="%.1f" '
                    'y2="%.1f" stroke="%s" stroke-width="2" '
                    'stroke-opacity="0.8"/>' % (x, y0, x, y1,
                                                COLOURS[colour]))
            count += 1
    return count


def draw_bins(pic, call, x_of, pitch):
    """Merges the runs into ROW_BINS rows, one lane per kind of run."""
    rows = len(call.runs)
    bins = {}
    for row, (kind, a, b) in enumerate(call.runs):
        key = (row * ROW_BINS // rows, kind)
        # Whole pixel columns, so that runs closer than a pixel merge.
        bins.setdefault(key, []).append((int(x_of(a)), int(x_of(b)) + 1))
    lane = {kind: i for i, kind in enumerate(RUNS)}
    for (row, kind), spans in sorted(bins.items()):
        y = TOP + row * pitch + lane[kind] * pitch / len(RUNS)
        for x0, x1 in merge(spans):
            pic.add('<rect class="%s-bin" x="%d" y="%.1f" width="%d" '
                    'height="%.1f" fill="%s"/>'
                    % (kind, x0, y, x1 - x0, pitch / len(RUNS),
                       COLOURS[kind]))


def main():
    parser = argparse.ArgumentParser(
        description="Draws a CAPSULE_TRACE checkpoint schedule as an SVG.")
    parser.add_argument("trace", metavar="TRACE")
    parser.add_argument("-o", dest="output", metavar="OUT.svg", required=True)
    parser.add_argument("--call", type=int, default=1, metavar="K",
                        help="which gradient call of the file, from 1")
    args = parser.parse_args()
    calls = parse(args.trace)
    if not calls:
        fail("%s holds no gradient call" % args.trace)
    if not 1 <= args.call <= len(calls):
        fail("%s holds %d gradient call%s; there is no call %d"
             % (args.trace, len(calls), "" if len(calls) == 1 else "s",
                args.call))
    svg = draw(calls[args.call - 1], args.call, len(calls))
    try:
        with open(args.output, "w", encoding="utf-8") as f:
            f.write(svg)
    except OSError as e:
        fail("cannot write %s: %s" % (args.output, e.strerror))


if __name__ == "__main__":
    main()
