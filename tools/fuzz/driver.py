"""The translation unit of a batch of cases, with both drivers.

Built as C with Capsule, the driver of each case prints, as exact hex
floats:
  P name value            the primal's result (the plain call);
  G name mode i value     the gradient, mode p (plain __capsule_autodiff) or
                          k (__capsule_autodiff_checkpointed), i an index of
                          x or `a` for the scalar argument's adjoint;
  T name value            the tangent of the result (__capsule_fwddiff)
                          along the direction direction(i) for x[i] and
                          direction(N) for the scalar argument when active;
  V name v0 v1 v2         the tangents of a vector-mode call of width 3
                          along that direction, -2 times it, and zero: T,
                          -2 T and 0 (scaling by 2 is exact);
  R name k i value        a reverse vector-mode call of width 3 (not with
                          -DFUZZ_NO_REVERSE_LANES): lane k's adjoint of
                          x[i] (or of the scalar, i = a), x's shadows
                          starting as zero, the direction and -2 times it
                          (the seeds of what f leaves in x), the result
                          seeded with 1 in each lane;
  I name bad              how many interrupted-and-resumed runs of the
                          primal (each resumed twice) did not end with the
                          first one's result and memory bit for bit, or
                          that one not with the plain call's to a relative
                          1e-12 (contraction may fuse differently there).
Built as C++ with -DFUZZ_ORACLE, it prints P and
  D name i value          the dual-number derivatives.
Built as C with Capsule and -DFUZZ_NESTED, it prints instead
  H name mode i value     the Hessian-vector product along the tangent's
                          direction: forward mode over the plain (mode p)
                          or checkpointed (mode k, not with
                          -DFUZZ_NESTED_NO_K) gradient, the tangent of x's
                          shadow and of the scalar's adjoint (i = a), and
                          reverse mode over the plain gradient (mode r, not
                          with -DFUZZ_NESTED_NO_R): the gradient of the
                          gradient's dot product with the direction; and
                          vector forward mode of width 3 over the plain
                          gradient (not with -DFUZZ_NESTED_NO_B), lanes
                          along the direction, -2 times it and zero: mode b
                          is lane 0, c lane 1 divided by -2 and z lane 0
                          plus lane 2 (scaling by 2 is exact);
  S name                  the case has no nested calls (x is a global that
                          the code names, which a nested call refuses at
                          run time);
and as C++ with -DFUZZ_ORACLE -DFUZZ_SECOND_ORDER, P and H with mode o: the
second-order dual numbers' products.
Each case runs between `B name` and `E name`, so a crash names its case;
the program runs only the cases named on its command line, if any.
"""
import zlib

from generate import PRELUDE


def hexes(values):
    return ", ".join(float(v).hex() for v in values)


def marker_arguments(case):
    """The arguments after the function, Enzyme's way, with the activity
    markers sometimes spelled out and sometimes left to the defaults."""
    bits = zlib.crc32(case.name.encode())
    args = ["capsule_dup, X, dx", "X, dx"][bits & 1]
    args += [", capsule_const, N", ", N"][bits >> 1 & 1]
    args += ", capsule_const, c"
    if case.a_active:
        args += [", capsule_out, A", ", A"][bits >> 2 & 1]
    else:
        args += ", capsule_const, A"
    return args


def tangent_arguments(case):
    """The forward-mode marker's arguments: each active value followed by
    its tangent, markers spelled out or left to the defaults."""
    bits = zlib.crc32(case.name.encode()) >> 3
    args = ["capsule_dup, X, dx", "X, dx"][bits & 1]
    args += [", capsule_const, N", ", N"][bits >> 1 & 1]
    args += ", capsule_const, c"
    if case.a_active:
        args += [", capsule_dup, A, fuzz_direction(N)",
                 ", A, fuzz_direction(N)"][bits >> 2 & 1]
    else:
        args += ", capsule_const, A"
    return args


def lane_arguments(case):
    """The vector-mode marker's arguments (width 3, lanes d, -2 d, 0): x's
    shadows a stride apart or one by one, the scalar's three tangents."""
    bits = zlib.crc32((case.name + " lanes").encode())
    args = "capsule_width, 3, "
    args += ["capsule_dupv, sizeof lanes[0], X, lanes[0]",
             "capsule_dup, X, lanes[0], lanes[1], lanes[2]"][bits & 1]
    args += ", capsule_const, N, capsule_const, c"
    if case.a_active:
        args += ", A, fuzz_direction(N), -2 * fuzz_direction(N), 0.0"
    else:
        args += ", capsule_const, A"
    return args


def reverse_lane_arguments(case):
    """The reverse vector-mode marker's arguments (width 3): x's shadows a
    stride apart or one by one, the scalar's three adjoints."""
    bits = zlib.crc32((case.name + " reverse lanes").encode())
    args = "capsule_width, 3, "
    args += ["capsule_dupv, sizeof rl[0], X, rl[0]",
             "capsule_dup, X, rl[0], rl[1], rl[2]"][bits & 1]
    args += ", capsule_const, N, capsule_const, c"
    args += ", capsule_out, A" if case.a_active else ", capsule_const, A"
    return args


def direction(i):
    """The direction of the tangent, component i (fuzz_direction in C)."""
    return ((i * 7 + 3) % 11 - 5) * 0.25 + 0.125


def case_fields(case):
    """What both drivers' templates fill in from the case: its name, the
    inputs as exact hex floats, and where x lives (the case's global array,
    or a local xs)."""
    return dict(name=case.name, n=len(case.x), nc=len(case.c),
                x0=hexes(case.x), c=hexes(case.c), a=float(case.a).hex(),
                x="%s_g" % case.name if case.x_is_global else "xs",
                active=int(case.a_active))


def capsule_driver(case):
    marker_result = "da = " if case.a_active else ""
    void = "" if case.a_active else "_void"
    lines = """static void run_{name}(void) {{
  static const double x0[{n}] = {{{x0}}};
  static const double c[{nc}] = {{{c}}};
  const int N = {n};
  const double A = {a};
  double xs[{n}], dx[{n}], xr[{n}], da = 0.0;
  double *X = {x};
  {name}_setup(X);
  memcpy(X, x0, sizeof x0);
  double r = {name}_f(X, N, c, A);
  memcpy(xr, X, sizeof xr);
  printf("P {name} %a\\n", r);
  for (int mode = 0; mode < 2; mode++) {{
    {name}_setup(X);
    memcpy(X, x0, sizeof x0);
    memset(dx, 0, sizeof dx);
    if (mode == 0)
      {result}__capsule_autodiff{void}((void *){name}_f, {args});
    else
      {result}__capsule_autodiff_checkpointed{void}((void *){name}_f, {args});
    for (int i = 0; i < N; i++)
      printf("G {name} %c %d %a\\n", "pk"[mode], i, dx[i]);
    if ({active})
      printf("G {name} %c a %a\\n", "pk"[mode], da);
  }}
  {name}_setup(X);
  memcpy(X, x0, sizeof x0);
  for (int i = 0; i < N; i++)
    dx[i] = fuzz_direction(i);
  double t = __capsule_fwddiff((void *){name}_f, {targs});
  printf("T {name} %a\\n", t);
  {name}_setup(X);
  memcpy(X, x0, sizeof x0);
  double lanes[3][{n}];
  for (int i = 0; i < N; i++) {{
    lanes[0][i] = fuzz_direction(i);
    lanes[1][i] = -2 * fuzz_direction(i);
    lanes[2][i] = 0.0;
  }}
  fuzz_lanes v = __capsule_fwddiff_lanes((void *){name}_f, {largs});
  printf("V {name} %a %a %a\\n", v.d[0], v.d[1], v.d[2]);
#ifndef FUZZ_NO_REVERSE_LANES
  {name}_setup(X);
  memcpy(X, x0, sizeof x0);
  double rl[3][{n}];
  for (int i = 0; i < N; i++) {{
    rl[0][i] = 0.0;
    rl[1][i] = fuzz_direction(i);
    rl[2][i] = -2 * fuzz_direction(i);
  }}
  fuzz_lanes ra = {{{{0.0, 0.0, 0.0}}}};
  {rlresult}__capsule_autodiff{rlvoid}((void *){name}_f, {rlargs});
  for (int k = 0; k < 3; k++) {{
    for (int i = 0; i < N; i++)
      printf("R {name} %d %d %a\\n", k, i, rl[k][i]);
    if ({active})
      printf("R {name} %d a %a\\n", k, ra.d[k]);
  }}
#endif
  {name}_setup(X);
  memcpy(X, x0, sizeof x0);
  uint64_t steps = __capsule_primops((void *){name}_f, X, N, c, A);
  /* The first resumed run is the reference of the others, bit for bit:
   * the same instrumented code. It matches the plain call to a relative
   * 1e-12: with contraction on (clang's default), the plain call may fuse
   * or fold a multiply-add the instrumented code does not. */
  int bad = 0, have_ref = 0;
  double ref = 0.0, xref[{n}];
  for (uint64_t l = 1; l < steps; l += steps / 4 + 1) {{
    {name}_setup(X);
    memcpy(X, x0, sizeof x0);
    capsule_t *cap = __capsule_interrupt((void *){name}_f, l, X, N, c, A);
    if (!cap) /* no yield point after l steps */
      continue;
    double r1, r2, x1[{n}];
    capsule_resume(cap, &r1);
    memcpy(x1, X, sizeof x1);
    capsule_resume(cap, &r2);
    capsule_release(cap);
    if (!have_ref) {{
      have_ref = 1;
      ref = r1;
      memcpy(xref, x1, sizeof xref);
      bad += !(fabs(ref - r) <= 1e-12 * fabs(r));
      for (int i = 0; i < N; i++)
        bad += !(fabs(xref[i] - xr[i]) <= 1e-12 * fabs(xr[i]));
    }}
    bad += memcmp(&r1, &ref, sizeof r) != 0 || memcmp(&r2, &ref, sizeof r) != 0 ||
           memcmp(x1, xref, sizeof xr) != 0 || memcmp(X, xref, sizeof xr) != 0;
  }}
  printf("I {name} %d\\n", bad);
}}""".format(result=marker_result, void=void, args=marker_arguments(case),
             targs=tangent_arguments(case), largs=lane_arguments(case),
             rlargs=reverse_lane_arguments(case),
             rlresult="ra = " if case.a_active else "",
             rlvoid="_lanes" if case.a_active else "_void",
             **case_fields(case))
    return lines.splitlines()


def nested_driver(case):
    """The Hessian-vector product along the tangent's direction: forward
    mode over the plain and the checkpointed gradient, and reverse mode
    over the plain gradient (of the gradient's dot product with the
    direction)."""
    if case.x_is_global:
        return ("static void run_{name}(void) {{ printf(\"S {name}\\n\"); }}"
                .format(**case_fields(case))).splitlines()
    a_tangent = ("A, fuzz_direction(N)" if case.a_active
                 else "capsule_const, A")
    a_lanes = ("A, fuzz_direction(N), -2 * fuzz_direction(N), 0.0"
               if case.a_active else "capsule_const, A")
    lines = """static double nest_{name}_p(double *X, double *dx, int N,
                             const double *c, double A) {{
  double da = 0.0;
  {result}__capsule_autodiff{void}((void *){name}_f, {args});
  return da;
}}
#ifndef FUZZ_NESTED_NO_K
static double nest_{name}_k(double *X, double *dx, int N,
                             const double *c, double A) {{
  double da = 0.0;
  {result}__capsule_autodiff_checkpointed{void}((void *){name}_f, {args});
  return da;
}}
#endif
#ifndef FUZZ_NESTED_NO_R
static double nest_{name}_r(double *X, const double *v, int N,
                             const double *c, double A) {{
  double dx[{n}];
  for (int i = 0; i < N; i++)
    dx[i] = 0.0;
  double da = nest_{name}_p(X, dx, N, c, A);
  double s = {active} ? da * fuzz_direction(N) : 0.0;
  for (int i = 0; i < N; i++)
    s += dx[i] * v[i];
  return s;
}}
#endif
static void run_{name}(void) {{
  static const double x0[{n}] = {{{x0}}};
  static const double c[{nc}] = {{{c}}};
  const int N = {n};
  const double A = {a};
  double xs[{n}], v[{n}], dx[{n}], hv[{n}];
  double *X = xs;
  for (const char *mode = FUZZ_NESTED_MODES; *mode; mode++) {{
    {name}_setup(X);
    memcpy(X, x0, sizeof x0);
    for (int i = 0; i < N; i++) {{
      v[i] = fuzz_direction(i);
      dx[i] = hv[i] = 0.0;
    }}
    double tda = 0.0;
    if (*mode == 'p')
      tda = __capsule_fwddiff((void *)nest_{name}_p, capsule_dup, X, v,
                              capsule_dup, dx, hv, capsule_const, N,
                              capsule_const, c, {a_tangent});
#ifndef FUZZ_NESTED_NO_K
    if (*mode == 'k')
      tda = __capsule_fwddiff((void *)nest_{name}_k, capsule_dup, X, v,
                              capsule_dup, dx, hv, capsule_const, N,
                              capsule_const, c, {a_tangent});
#endif
#ifndef FUZZ_NESTED_NO_R
    if (*mode == 'r')
      {rresult}__capsule_autodiff{void}((void *)nest_{name}_r, capsule_dup, X,
                                        hv, capsule_const, v, capsule_const,
                                        N, capsule_const, c, {a_adjoint});
#endif
#ifndef FUZZ_NESTED_NO_B
    if (*mode == 'b') {{
      double V[3][{n}], HV[3][{n}];
      for (int i = 0; i < N; i++) {{
        V[0][i] = v[i];
        V[1][i] = -2 * v[i];
        V[2][i] = HV[0][i] = HV[1][i] = HV[2][i] = 0.0;
      }}
      fuzz_lanes t = __capsule_fwddiff_lanes(
          (void *)nest_{name}_p, capsule_width, 3, capsule_dupv, sizeof V[0],
          X, V[0], capsule_dupv, sizeof HV[0], dx, HV[0], capsule_const, N,
          capsule_const, c, {a_lanes});
      for (int i = 0; i < N; i++) {{
        printf("H {name} b %d %a\\n", i, HV[0][i]);
        printf("H {name} c %d %a\\n", i, HV[1][i] / -2);
        printf("H {name} z %d %a\\n", i, HV[0][i] + HV[2][i]);
      }}
      if ({active}) {{
        printf("H {name} b a %a\\n", t.d[0]);
        printf("H {name} c a %a\\n", t.d[1] / -2);
        printf("H {name} z a %a\\n", t.d[0] + t.d[2]);
      }}
      continue;
    }}
#endif
    for (int i = 0; i < N; i++)
      printf("H {name} %c %d %a\\n", *mode, i, hv[i]);
    if ({active})
      printf("H {name} %c a %a\\n", *mode, tda);
  }}
}}""".format(result="da = " if case.a_active else "",
             rresult="tda = " if case.a_active else "",
             void="" if case.a_active else "_void",
             args=marker_arguments(case), a_tangent=a_tangent,
             a_lanes=a_lanes,
             a_adjoint="capsule_out, A" if case.a_active else "capsule_const, A",
             **case_fields(case))
    return lines.splitlines()


def oracle_driver(case, second_order=False):
    """The dual-number build's driver: P and D lines; with \p second_order,
    P and H lines (mode o), x and the active scalar dual numbers along
    fuzz_direction as well (driver.py's header)."""
    if second_order:
        seed = "Dual::seeded(fuzz_along({v}, fuzz_direction({i})), {i})"
        show = 'printf("H {name} o {label} %a\\n", {arg}r.d[{i}].d[0]);'
    else:
        seed = "Dual::seeded({v}, {i})"
        show = 'printf("D {name} {label} %a\\n", {arg}r.d[{i}]);'
    fields = case_fields(case)
    seed_a = seed.format(v="A0", i="N") if case.a_active else "Dual(A0)"
    lines = """static void run_{name}(void) {{
  static const double x0[{n}] = {{{x0}}};
  static const double c[{nc}] = {{{c}}};
  const int N = {n};
  const double A0 = {a};
  real xs[{n}];
  real *X = {x};
  {name}_setup(X);
  for (int i = 0; i < N; i++)
    X[i] = {seed_x};
  real r = {name}_f(X, N, c, {seed_a});
  printf("P {name} %a\\n", fuzz::value(r));
  for (int i = 0; i < N; i++)
    {show_x}
  if ({active})
    {show_a}
}}""".format(seed_x=seed.format(v="x0[i]", i="i"), seed_a=seed_a,
             show_x=show.format(label="%d", arg="i, ", i="i", **fields),
             show_a=show.format(label="a", arg="", i="N", **fields),
             **fields)
    return lines.splitlines()


DIRECTION = """static double fuzz_direction(int i) {
  return ((i * 7 + 3) % 11 - 5) * 0.25 + 0.125;
}"""

# The nested modes a build runs: p and k, forward mode over the plain and
# the checkpointed gradient, r, reverse mode over the plain gradient, b,
# vector forward mode over the plain gradient;
# FUZZ_NESTED_NO_K and FUZZ_NESTED_NO_R leave out those Capsule refused.
NESTED_MODES = """#ifdef FUZZ_NESTED_NO_K
#define FUZZ_NESTED_K ""
#else
#define FUZZ_NESTED_K "k"
#endif
#ifdef FUZZ_NESTED_NO_R
#define FUZZ_NESTED_R ""
#else
#define FUZZ_NESTED_R "r"
#endif
#ifdef FUZZ_NESTED_NO_B
#define FUZZ_NESTED_B ""
#else
#define FUZZ_NESTED_B "b"
#endif
#define FUZZ_NESTED_MODES ("p" FUZZ_NESTED_K FUZZ_NESTED_R FUZZ_NESTED_B)"""

MARKERS = """void __capsule_autodiff_void(void *, ...);
void __capsule_autodiff_checkpointed_void(void *, ...);
typedef struct { double d[3]; } fuzz_lanes;
fuzz_lanes __capsule_fwddiff_lanes(void *, ...);
fuzz_lanes __capsule_autodiff_lanes(void *, ...);"""

# The value x with derivative t along the second order's direction.
ALONG = """static fuzz::DualT<double, 1> fuzz_along(double x, double t) {
  fuzz::DualT<double, 1> r(x);
  r.d[0] = t;
  return r;
}"""


def translation_unit(cases):
    out = PRELUDE.splitlines()
    for case in cases:
        out.extend(case.render())
    out.extend(DIRECTION.splitlines())
    out.append("#if defined(FUZZ_ORACLE) && defined(FUZZ_SECOND_ORDER)")
    out.extend(ALONG.splitlines())
    for case in cases:
        out.extend(oracle_driver(case, second_order=True))
    out.append("#elif defined(FUZZ_ORACLE)")
    for case in cases:
        out.extend(oracle_driver(case))
    out.append("#elif defined(FUZZ_NESTED)")
    out.extend(MARKERS.splitlines())
    out.extend(NESTED_MODES.splitlines())
    for case in cases:
        out.extend(nested_driver(case))
    out.append("#else")
    out.extend(MARKERS.splitlines())
    for case in cases:
        out.extend(capsule_driver(case))
    out.append("#endif")
    out.append("int main(int argc, char **argv) {")
    for case in cases:
        out.append('  if (argc < 2 || strstr(argv[1], ",%s,")) {' % case.name)
        out.append('    printf("B %s\\n");' % case.name)
        out.append("    fflush(stdout);")
        out.append("    run_%s();" % case.name)
        out.append('    printf("E %s\\n");' % case.name)
        out.append("    fflush(stdout);")
        out.append("  }")
    out.append("  return 0;")
    out.append("}")
    return "\n".join(out) + "\n"
