"""Random, well-defined C programs for the differential fuzzer.

Every program is valid C and valid C++: compiled as C with `real` = double
it is what Capsule differentiates; compiled as C++ with `real` = a dual
number (dual.hpp) it is the oracle. Values stay bounded (loop bodies damp
what they assign, divisors are kept away from zero, logarithms and roots
get positive arguments), array indices are reduced modulo the array's
length (IX), integer values stay small, so no program has undefined
behaviour and almost every one has finite derivatives.

What the programs contain: scalar, integer and array locals; loops with
constant, argument-dependent and data-dependent trip counts, break and
continue; branches, selects and early returns; calls to helpers with
scalars, arrays and structs, recursion, calls through a table of function
pointers holding helpers and libm; stack arrays (of variable size too),
heap and global arrays, a heap struct holding a heap array, a global
pointer set to the differentiated array or to a global, the differentiated
array being a global the code also names; integer/double conversions;
memcpy and memmove; libm.
"""
import random

from program import Case, Function, Stmt

PRELUDE = r"""#define _GNU_SOURCE /* exp10 */
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#ifdef FUZZ_ORACLE
#include <vector>
#include "dual.hpp"
typedef Dual real;
#define TOI(e) ((int)fuzz::value(e))
/* C++ has no arrays of variable size of a class type. */
#define FUZZ_VLA(name, m)                                                      \
  std::vector<real> name##_vla(m);                                             \
  real *name = name##_vla.data()
#else
#include <capsule/capsule.h>
typedef double real;
#define TOI(e) ((int)(e))
#define FUZZ_VLA(name, m) real name[m]
#endif
#define IX(e, m) ((int)((unsigned)(e) % (unsigned)(m)))
#define IMIN(a, b) ((a) < (b) ? (a) : (b))
static real sq(real a) { return a * a; }
static real soft(real a) { return a / (1.0 + fabs(a)); }
/* An untyped copy in a function of its own: what it moves is in the
 * callers' memory, at the offset of the member whose address they pass. */
__attribute__((noinline, unused)) static void copy_real(void *d,
                                                        const void *s) {
  memcpy(d, s, sizeof(real));
}
"""

GLOBAL_ARRAY_LEN = 5
CONST_LEN = 4
LOCAL_ARRAY_LEN = 6
HEAP_LEN = 5
HEAP_STRUCT_LEN = 4
STRUCT_ARRAY_LEN = 3


def num(rng, lo=-1.0, hi=1.0):
    return "%.3f" % rng.uniform(lo, hi)


class Array:
    def __init__(self, name, length, aliased=False, offset_ok=False):
        self.name = name
        self.length = length        # C expression
        self.aliased = aliased      # may overlap another array here
        self.offset_ok = offset_ok  # name + 1 has length - 1 >= 1 elements


class Scope:
    """What the code being generated may read, write and call."""

    def __init__(self, rng, case):
        self.rng = rng
        self.case = case
        self.reals = []         # assignable real scalars
        self.ints = []          # readable ints
        self.int_vars = []      # assignable ints
        self.arrays = []        # writable real arrays
        self.consts = []        # (name, length) of const double arrays
        self.scalar_calls = []  # (name, arity)
        self.array_calls = []   # names: void f(real *p, int m, real s)
        self.struct_calls = []  # names: real f(struct S *q, real s)
        self.recursive = []     # names: real f(real p, int d)
        self.tables = []        # (name, length) of real (*)(real) tables
        self.out_calls = []     # names: void f(real v, real *out, real *acc)
        self.byvalue_calls = [] # names: struct S f(struct S q, real s)
        self.int_arrays = []    # (name, length) of int arrays
        self.struct_var = None  # local struct's name
        self.rows = None        # a local array of 3 pointers to arrays
        self.global_pointer = None      # the case's global pointer ...
        self.pointer_targets = []       # ... and what it may point to
        self.resizable = None   # (name, length): a heap array to realloc
        self.loop_depth = 0
        self.loop_names = 0
        self.returns = True

    def pick(self, seq):
        return self.rng.choice(seq)

    def chance(self, p):
        return self.rng.random() < p

    # Expressions -----------------------------------------------------------
    def int_expr(self, depth=0):
        rng = self.rng
        k = rng.randrange(9 if depth < 2 else 3)
        if k == 0 and self.ints:
            return self.pick(self.ints)
        if k == 1:
            return str(rng.randrange(-3, 9))
        if k == 2:
            return "TOI(%s * tanh(%s))" % (num(rng, 2, 9), self.expr(depth + 1))
        if k == 3:
            return "%s + %s" % (self.int_expr(depth + 1), self.int_expr(depth + 1))
        if k == 4:
            return "%s * %d" % (self.int_expr(depth + 1), rng.randrange(2, 5))
        if k == 5:
            return "IX(%s, %d)" % (self.int_expr(depth + 1), rng.randrange(2, 9))
        if k == 6 and self.struct_var:
            return "%s.k" % self.struct_var
        if k == 7 and self.int_arrays:
            name, length = self.pick(self.int_arrays)
            return "%s[IX(%s, %d)]" % (name, self.int_expr(depth + 1), length)
        return self.pick(self.ints) if self.ints else "1"

    def index(self, array, depth):
        return "%s[IX(%s, %s)]" % (array.name, self.int_expr(depth + 1),
                                   array.length)

    def leaf(self, depth):
        rng = self.rng
        k = rng.randrange(7)
        if k == 0 and self.arrays:
            return self.index(self.pick(self.arrays), depth)
        if k == 1 and self.consts:
            name, length = self.pick(self.consts)
            return "%s[IX(%s, %d)]" % (name, self.int_expr(depth + 1), length)
        if k == 2:
            return num(rng, -2, 2)
        if k == 3:
            return "(real)(%s) * %s" % (self.int_expr(depth + 1), num(rng))
        if k == 4 and self.struct_var:
            s = self.struct_var
            return self.pick(["%s.a" % s, "%s.b[IX(%s, %d)]" % (
                s, self.int_expr(depth + 1), STRUCT_ARRAY_LEN)])
        if self.reals:
            return self.pick(self.reals)
        return num(rng)

    UNARY = ["sin(%s)", "cos(%s)", "tanh(%s)", "atan(%s)", "soft(%s)",
             "exp(sin(%s))", "exp(0.5 * tanh(%s))", "log(1.5 + sin(%s))",
             "log(1.0 + sq(%s))", "sqrt(1.0 + sq(%s))", "fabs(%s)",
             "cbrt(2.5 + sin(%s))", "pow(1.5 + sin(%s), 1.7)",
             "pow(%s, 2.0)", "sq(%s)", "floor(%s)", "-(%s)", "asinh(%s)",
             "erfc(0.5 * %s)", "atanh(0.5 * tanh(%s))", "exp10(0.2 * sin(%s))"]
    BINARY = ["(%s + %s)", "(%s - %s)", "(%s * %s)",
              "(%s / (1.5 + sq(%s)))", "(%s / (2.0 + sin(%s)))",
              "fmin(%s, %s)", "fmax(%s, %s)", "hypot(%s, 1.0 + sq(%s))",
              "atan2(%s, 1.0 + sq(%s))"]

    def expr(self, depth=0):
        rng = self.rng
        if depth >= 3 or rng.random() < 0.25 + 0.2 * depth:
            return self.leaf(depth)
        k = rng.randrange(10)
        if k < 3:
            return self.pick(self.UNARY) % self.expr(depth + 1)
        if k < 7:
            return self.pick(self.BINARY) % (self.expr(depth + 1),
                                             self.expr(depth + 1))
        if k == 7:
            return "(%s ? %s : %s)" % (self.cond(depth + 1),
                                       self.expr(depth + 1),
                                       self.expr(depth + 1))
        return self.call_expr(depth)

    def call_expr(self, depth):
        rng = self.rng
        options = []
        if self.scalar_calls:
            options.append("scalar")
        if self.recursive:
            options.append("recursive")
        if self.tables:
            options.append("table")
        if self.struct_calls and self.struct_var:
            options.append("struct")
        if not options:
            return self.leaf(depth)
        kind = self.pick(options)
        if kind == "scalar":
            name, arity = self.pick(self.scalar_calls)
            args = ", ".join(self.expr(depth + 1) for _ in range(arity))
            return "%s(%s)" % (name, args)
        if kind == "recursive":
            return "%s(%s, IX(%s, %d))" % (self.pick(self.recursive),
                                          self.expr(depth + 1),
                                          self.int_expr(depth + 1),
                                          rng.randrange(2, 6))
        if kind == "struct":
            return "%s(&%s, %s)" % (self.pick(self.struct_calls),
                                    self.struct_var, self.expr(depth + 1))
        name, length = self.pick(self.tables)
        return "%s[IX(%s, %d)](%s)" % (name, self.int_expr(depth + 1), length,
                                       self.expr(depth + 1))

    def cond(self, depth=0):
        rng = self.rng
        k = rng.randrange(5)
        if k == 0:
            return "%s < %s" % (self.expr(depth + 1), self.expr(depth + 1))
        if k == 1:
            return "%s > %s" % (self.expr(depth + 1), num(rng))
        if k == 2:
            return "IX(%s, 2) == 0" % self.int_expr(depth + 1)
        if k == 3:
            return "%s < %s" % (self.int_expr(depth + 1),
                                self.int_expr(depth + 1))
        return "(%s && %s)" % (self.cond(depth + 1), self.cond(depth + 1))

    DAMPED = ["tanh(%(v)s)", "sin(%(v)s)", "soft(%(v)s)",
              "0.5 * %(t)s + 0.25 * tanh(%(v)s)"]

    def without_calls(self, make):
        """What make() generates with no calls in it: where the order of
        evaluation is unspecified in C but not in C++ (C++17 evaluates the
        right side of an assignment first), a call that writes a global
        would make the two languages differ (seed 1277)."""
        saved = (self.scalar_calls, self.recursive, self.tables,
                 self.struct_calls)
        self.scalar_calls = self.recursive = self.tables = []
        self.struct_calls = []
        try:
            return make()
        finally:
            (self.scalar_calls, self.recursive, self.tables,
             self.struct_calls) = saved

    # Statements ------------------------------------------------------------
    def assign(self, target):
        """target = value, or target += value; in a loop, value is damped
        (bounded however often the loop runs), by a form that may read
        target. Where target is read beside value, value calls nothing."""
        op = "+=" if self.chance(0.15) else "="
        damp = self.loop_depth or self.chance(0.3)
        form = self.pick(self.DAMPED) if damp else "%(v)s"
        reads_target = op == "+=" or "%(t)s" in form
        value = self.without_calls(self.expr) if reads_target \
            else self.expr()
        value = form % {"t": target, "v": value}
        if op == "+=":
            value = "0.1 * tanh(%s)" % value
        return Stmt("%s %s %s;" % (target, op, value))

    def element(self, array):
        """An element to assign or pass by address: its index calls
        nothing."""
        return self.without_calls(lambda: self.index(array, 0))

    def statement(self, depth):
        kinds = ["assign"] * 6 + ["array"] * 3 + ["int"] + ["if"] * 2
        if depth < 2:
            kinds += ["loop"] * 2 + ["switch"]
        if self.loop_depth:
            kinds += ["break"]
        if self.returns:
            kinds += ["return"]
        if self.array_calls:
            kinds += ["array_call"]
        if self.out_calls:
            kinds += ["out_call"]
        if self.byvalue_calls and self.struct_var:
            kinds += ["byvalue_call"]
        if self.struct_var:
            kinds += ["member_copy"]
        if len(self.arrays) > 1:
            kinds += ["copy"]
        if self.reals:
            kinds += ["scratch", "vla"]
        if self.rows:
            kinds += ["permute_rows"]
        if self.pointer_targets:
            kinds += ["retarget"]
        if self.resizable and not depth:
            kinds += ["resize"]
        kind = self.pick(kinds)
        return getattr(self, kind + "_statement")(depth)

    def assign_statement(self, depth):
        if not self.reals:
            return self.array_statement(depth)
        return self.assign(self.pick(self.reals))

    def array_statement(self, depth):
        return self.assign(self.element(self.pick(self.arrays)))

    def int_statement(self, depth):
        target = self.without_calls(lambda: self.pick(self.int_vars + [
            "%s[IX(%s, %d)]" % (name, self.int_expr(1), length)
            for name, length in self.int_arrays]))
        return Stmt("%s = IX(%s, 97);" % (target, self.int_expr()))

    def if_statement(self, depth):
        then = self.block(depth + 1)
        if self.chance(0.5):
            return Stmt("if (%s) {" % self.cond(), [then], tail="}")
        return Stmt("if (%s) {" % self.cond(),
                    [then, self.block(depth + 1)], ["} else {"], "}")

    def switch_statement(self, depth):
        blocks = [self.block(depth + 1) for _ in range(3)]
        return Stmt("switch (IX(%s, 4)) { case 0: {" % self.int_expr(), blocks,
                    ["} break; case 1: case 2: {", "} break; default: {"],
                    "} }")

    def loop_statement(self, depth):
        return self.loop(depth)

    def break_statement(self, depth):
        return Stmt("if (%s) %s;" % (self.cond(),
                                     self.pick(["break", "continue"])))

    def return_statement(self, depth):
        return Stmt("if (%s) return %s;" % (self.cond(), self.expr()))

    def array_call_statement(self, depth):
        array = self.pick(self.arrays)
        name, length = array.name, array.length
        if array.offset_ok and self.chance(0.3):
            name, length = name + " + 1", length + " - 1"
        return Stmt("%s(%s, %s, %s);" % (self.pick(self.array_calls), name,
                                         length, self.expr()))

    def lvalue(self):
        """A place whose address may be taken: a scalar or an element."""
        if self.reals and self.chance(0.6):
            return self.pick(self.reals)
        return self.element(self.pick(self.arrays))

    def out_call_statement(self, depth):
        return Stmt("%s(%s, &%s, &%s);" % (self.pick(self.out_calls),
                                           self.expr(), self.lvalue(),
                                           self.lvalue()))

    def byvalue_call_statement(self, depth):
        # The struct is copied as an argument: the other argument must not
        # change it (the order of the two is unspecified, and C and C++
        # compilers differ).
        struct_calls, self.struct_calls = self.struct_calls, []
        value = self.expr()
        self.struct_calls = struct_calls
        return Stmt("%s = %s(%s, %s);" % (self.struct_var,
                                          self.pick(self.byvalue_calls),
                                          self.struct_var, value))

    def member_copy_statement(self, depth):
        """Copies a real to or from a member of the local struct (which
        starts with an int) through copy_real."""
        s = self.struct_var
        member = self.pick(["%s.a" % s, "%s.b[IX(%s, %d)]" % (
            s, self.int_expr(1), STRUCT_ARRAY_LEN)])
        other = self.pick(self.reals + ["%s.b[0]" % s])
        dst, src = (member, other) if self.chance(0.5) else (other, member)
        return Stmt("copy_real(&%s, &%s);" % (dst, src))

    def copy_statement(self, depth):
        dst, src = self.rng.sample(self.arrays, 2)
        fn = "memmove" if dst.aliased or src.aliased else "memcpy"
        return Stmt("%s(%s, %s, sizeof(real) * IMIN(%s, %s));" % (
            fn, dst.name, src.name, dst.length, src.length))

    def scratch_statement(self, depth):
        """A heap block allocated, used and freed within one statement."""
        target = self.pick(self.reals)
        return Stmt("{ real *tmp = (real *)malloc(3 * sizeof(real)); "
                    "for (int k = 0; k < 3; k++) tmp[k] = (real)k * %s; "
                    "%s = 0.5 * %s + 0.25 * tanh(tmp[IX(%s, 3)]); "
                    "free(tmp); }" % (self.expr(1), target, target,
                                      self.int_expr(1)))

    def vla_statement(self, depth):
        """A stack array of variable size within one statement (in a loop,
        given back every iteration)."""
        target = self.pick(self.reals)
        # Names of their own: the length's expression may name an `m`.
        return Stmt("{ int vla_n = 1 + IX(%s, 4); FUZZ_VLA(vla, vla_n); "
                    "for (int k = 0; k < vla_n; k++) "
                    "vla[k] = (real)(k + 1) * %s; "
                    "%s = 0.5 * %s + 0.25 * tanh(vla[IX(%s, vla_n)]); }"
                    % (self.int_expr(1), self.expr(1), target, target,
                       self.int_expr(1)))

    def permute_rows_statement(self, depth):
        """Swaps two pointers of a local array of row pointers."""
        rows = self.rows
        return Stmt("{ int k = IX(%s, 3); real *r = %s[0]; %s[0] = %s[k]; "
                    "%s[k] = r; }" % (self.int_expr(1), rows, rows, rows,
                                      rows))

    def retarget_statement(self, depth):
        """Points the global pointer at another array of at least three."""
        return Stmt("%s = %s;" % (self.global_pointer,
                                  self.pick(self.pointer_targets)))

    def resize_statement(self, depth):
        """Grows or shrinks the heap array, never below its length."""
        name, length = self.resizable
        return Stmt("%s = (real *)realloc(%s, (%s + IX(%s, 4)) * "
                    "sizeof(real));" % (name, name, length, self.int_expr(1)))

    def loop(self, depth):
        rng = self.rng
        var = "j%d" % self.loop_names
        self.loop_names += 1
        bound = self.pick([str(rng.randrange(1, 9)), "n", "IX(%s, 6) + 1" %
                           self.int_expr()]) if "n" in self.ints else \
            str(rng.randrange(1, 9))
        if self.reals and self.chance(0.25):
            bound += " && %s" % self.cond(1)
        self.ints.append(var)
        self.loop_depth += 1
        body = self.block(depth + 1)
        self.loop_depth -= 1
        self.ints.remove(var)
        return Stmt("for (int %s = 0; %s < %s; %s++) {" % (var, var, bound,
                                                           var),
                    [body], tail="}")

    def block(self, depth):
        return [self.statement(depth)
                for _ in range(self.rng.randrange(1, 4 if depth else 12))]


class CaseGenerator:
    def __init__(self, rng, name):
        self.rng = rng
        self.case = Case(name)
        self.name = name

    def scope(self):
        scope = Scope(self.rng, self.case)
        scope.reals.append("%s_gs" % self.name)
        scope.arrays.append(Array("%s_g" % self.name, str(GLOBAL_ARRAY_LEN),
                                  aliased=True, offset_ok=True))
        if self.case.global_pointer:
            # Whatever it points to has at least 3 elements.
            scope.arrays.append(Array("%s_gp" % self.name, "3",
                                      aliased=True))
            scope.global_pointer = "%s_gp" % self.name
        scope.ints.append("%s_gi" % self.name)
        scope.int_vars.append("%s_gi" % self.name)
        return scope

    def offer_helpers(self, scope):
        for kind, entry in self.helpers:
            getattr(scope, kind).append(entry)

    def generate(self):
        rng, case, name = self.rng, self.case, self.name
        case.x_is_global = rng.random() < 0.15
        n = GLOBAL_ARRAY_LEN if case.x_is_global else rng.randrange(3, 9)
        case.x = [round(rng.uniform(-1.5, 1.5), 3) for _ in range(n)]
        case.c = [round(rng.uniform(-1.0, 1.0), 3) for _ in range(CONST_LEN)]
        case.a = round(rng.uniform(-1.0, 1.0), 3)
        case.a_active = rng.random() < 0.7
        case.global_pointer = rng.choice([None, None, "x", "array"])
        self.helpers = []
        case.types.append("struct %s_s { int k; real a; real b[%d]; };" % (
            name, STRUCT_ARRAY_LEN))
        case.types.append("struct %s_h { real *p; int m; };" % name)
        case.globals += [
            "static real %s_g[%d];" % (name, GLOBAL_ARRAY_LEN),
            "static real %s_gs;" % name,
            "static int %s_gi;" % name,
        ]
        values = ", ".join(num(rng) for _ in range(GLOBAL_ARRAY_LEN))
        case.globals.append("static const double %s_g0[%d] = {%s};" % (
            name, GLOBAL_ARRAY_LEN, values))
        case.reset += [
            "for (int k = 0; k < %d; k++) %s_g[k] = %s_g0[k];" % (
                GLOBAL_ARRAY_LEN, name, name),
            "%s_gs = %s;" % (name, num(rng)),
            "%s_gi = 0;" % name,
        ]
        if case.global_pointer:
            case.globals.append("static real *%s_gp;" % name)
            target = "x" if case.global_pointer == "x" else "%s_g" % name
            case.reset.append("%s_gp = %s;" % (name, target))
        for k in range(rng.randrange(0, 5)):
            self.helper(k)
        if rng.random() < 0.5:
            self.table()
        self.entry()
        return case

    def helper(self, k):
        kind = self.rng.choice(["scalar", "scalar", "array", "recursive",
                                "struct", "byvalue", "out"])
        getattr(self, kind + "_helper")("%s_h%d" % (self.name, k))

    def body(self, scope, size):
        return [scope.statement(0) for _ in range(self.rng.randrange(1, size))]

    def scalar_helper(self, fn):
        scope = self.scope()
        self.offer_helpers(scope)
        arity = self.rng.choice([1, 1, 2])
        params = ["p", "q"][:arity]
        scope.reals += params
        prologue = ["real w0 = %s;" % scope.expr()]
        scope.reals.append("w0")
        body = self.body(scope, 6)
        self.case.helpers.append(Function(
            "static real %s(%s)" % (fn, ", ".join("real " + p
                                                  for p in params)),
            prologue, body, ["return %s;" % " + ".join(
                ["w0"] + params)]))
        self.helpers.append(("scalar_calls", (fn, arity)))

    def array_helper(self, fn):
        scope = self.scope()
        self.offer_helpers(scope)
        scope.arrays.append(Array("p", "m", aliased=True))
        scope.reals += ["s", "w0"]
        scope.ints += ["m"]
        scope.returns = False
        prologue = ["real w0 = s * %s;" % num(self.rng)]
        body = self.body(scope, 5)
        body.append(Stmt("for (int j = 0; j < m; j++) p[j] = %s;" %
                         "0.5 * p[j] + 0.25 * tanh(w0 + p[j] * s)"))
        self.case.helpers.append(Function(
            "static void %s(real *p, int m, real s)" % fn, prologue, body,
            []))
        self.helpers.append(("array_calls", fn))

    def struct_scope(self, q):
        """The scope of a helper of the case's struct, reached as q (q-> or
        q.), with the scalar parameter s."""
        scope = self.scope()
        self.offer_helpers(scope)
        scope.reals += ["s", q + "a"]
        scope.arrays.append(Array(q + "b", str(STRUCT_ARRAY_LEN)))
        scope.int_vars.append(q + "k")
        scope.ints.append(q + "k")
        return scope

    def struct_helper(self, fn):
        """Takes the struct by pointer."""
        body = self.body(self.struct_scope("q->"), 5)
        self.case.helpers.append(Function(
            "static real %s(struct %s_s *q, real s)" % (fn, self.name),
            [], body, ["return q->a * s + q->b[IX(q->k, %d)];" %
                       STRUCT_ARRAY_LEN]))
        self.helpers.append(("struct_calls", fn))

    def byvalue_helper(self, fn):
        """Takes and returns the struct by value."""
        scope = self.struct_scope("q.")
        scope.returns = False
        body = self.body(scope, 5)
        self.case.helpers.append(Function(
            "static struct %s_s %s(struct %s_s q, real s)" % (
                self.name, fn, self.name), [], body, ["return q;"]))
        self.helpers.append(("byvalue_calls", fn))

    def out_helper(self, fn):
        """Results through pointers, which may point to the same place."""
        scope = self.scope()
        self.offer_helpers(scope)
        scope.reals.append("v")
        prologue = ["real w0 = %s;" % scope.expr()]
        scope.reals.append("w0")
        scope.returns = False
        body = self.body(scope, 4)
        self.case.helpers.append(Function(
            "static void %s(real v, real *out, real *acc)" % fn, prologue,
            body, ["*out = w0 * %s + v;" % num(self.rng),
                   "*acc += tanh(w0 - *out);"]))
        self.helpers.append(("out_calls", fn))

    def recursive_helper(self, fn):
        scope = self.scope()
        self.offer_helpers(scope)
        scope.reals.append("p")
        scope.ints += ["d"]
        scope.returns = False
        prologue = ["if (d <= 0) return %s;" % scope.expr(),
                    "real w0 = %s;" % scope.expr()]
        scope.reals.append("w0")
        # The recursive call itself, at depth d - 1.
        recurse = Stmt("w0 = %s * soft(%s(%s, d - 1));" % (
            num(self.rng, 0.3, 0.9), fn, scope.expr()))
        body = self.body(scope, 4) + [recurse]
        self.case.helpers.append(Function(
            "static real %s(real p, int d)" % fn, prologue, body,
            ["return w0 + %s;" % scope.expr()]))
        self.helpers.append(("recursive", fn))

    def table(self):
        entries = self.rng.sample(["sin", "cos", "tanh", "atan", "soft"], 2)
        entries += [fn for kind, (fn, arity) in
                    ((k, e) for k, e in self.helpers if k == "scalar_calls")
                    if arity == 1]
        self.rng.shuffle(entries)
        name = "%s_t" % self.name
        const = "const " if self.rng.random() < 0.5 else ""
        self.case.tables.append("static real (*%s%s[%d])(real) = {%s};" % (
            const, name, len(entries), ", ".join(entries)))
        self.helpers.append(("tables", (name, len(entries))))

    def entry(self):
        rng, name = self.rng, self.name
        scope = self.scope()
        self.offer_helpers(scope)
        scope.arrays.append(Array("x", "n", aliased=True, offset_ok=True))
        scope.consts.append(("c", CONST_LEN))
        scope.reals += ["a", "v0", "v1", "v2", "v3"]
        scope.ints += ["n", "i0", "i1"]
        scope.int_vars += ["i0", "i1"]
        prologue = []
        for v in ["v0", "v1", "v2", "v3"]:
            prologue.append("real %s = x[IX(%d, n)] * %s + a * %s;" % (
                v, rng.randrange(8), num(rng), num(rng)))
        prologue += ["int i0 = %d, i1 = n;" % rng.randrange(5),
                     "real t[%d];" % LOCAL_ARRAY_LEN,
                     "for (int k = 0; k < %d; k++) t[k] = x[IX(k, n)] * %s "
                     "+ 0.1 * k;" % (LOCAL_ARRAY_LEN, num(rng))]
        scope.arrays.append(Array("t", str(LOCAL_ARRAY_LEN), offset_ok=True))
        epilogue = []
        if rng.random() < 0.6:
            prologue += ["struct %s_s s;" % name,
                         "s.a = v1 * %s;" % num(rng),
                         "for (int k = 0; k < %d; k++) s.b[k] = x[IX(k + 1, "
                         "n)] * %s;" % (STRUCT_ARRAY_LEN, num(rng)),
                         "s.k = %d;" % rng.randrange(4)]
            scope.struct_var = "s"
            scope.int_vars.append("s.k")
        if rng.random() < 0.5:
            prologue += ["real *h = (real *)malloc(%d * sizeof(real));" %
                         HEAP_LEN,
                         "for (int k = 0; k < %d; k++) h[k] = x[IX(k, n)] "
                         "* %s - 0.2 * k;" % (HEAP_LEN, num(rng))]
            scope.arrays.append(Array("h", str(HEAP_LEN), offset_ok=True))
            epilogue.append("free(h);")
        if rng.random() < 0.3:
            prologue += ["struct %s_h *hs = (struct %s_h *)malloc(sizeof("
                         "struct %s_h));" % (name, name, name),
                         "hs->m = %d;" % HEAP_STRUCT_LEN,
                         "hs->p = (real *)malloc(hs->m * sizeof(real));",
                         "for (int k = 0; k < hs->m; k++) hs->p[k] = v2 * "
                         "%s + k;" % num(rng)]
            scope.arrays.append(Array("hs->p", "hs->m", offset_ok=True))
            epilogue += ["free(hs->p);", "free(hs);"]
        if rng.random() < 0.4:
            prologue.append("int ia[4] = {%s};" % ", ".join(
                str(rng.randrange(-2, 9)) for _ in range(4)))
            scope.int_arrays.append(("ia", 4))
        # Arrays of at least three elements that stay where they are.
        fixed = [a.name for a in scope.arrays
                 if a.name in ("x", "t", "hs->p", "%s_g" % name)]
        if rng.random() < 0.3:
            prologue.append("real *rows[3] = {%s};" % ", ".join(
                rng.choice(fixed) for _ in range(3)))
            scope.rows = "rows"
            scope.arrays += [Array("rows[%d]" % k, "3", aliased=True)
                             for k in range(3)]
        if scope.global_pointer:
            scope.pointer_targets = fixed
        if any(a.name == "h" for a in scope.arrays):
            scope.resizable = ("h", str(HEAP_LEN))
        body = [scope.statement(0) for _ in range(rng.randrange(4, 14))]
        result = ["real r = v0 + %s * v1 + %s * v2 + %s * v3;" % (
            num(rng), num(rng), num(rng)),
            "for (int k = 0; k < n; k++) r += x[k] * (0.3 + 0.1 * k);",
            "for (int k = 0; k < %d; k++) r += t[k] * %s + %s_g[k] * %s;" % (
                min(LOCAL_ARRAY_LEN, GLOBAL_ARRAY_LEN), num(rng), name,
                num(rng)),
            "r += %s_gs * %s;" % (name, num(rng))]
        if scope.struct_var:
            result.append("r += s.a + s.b[0] * %s;" % num(rng))
        if any(a.name == "h" for a in scope.arrays):
            result.append("r += h[0] * %s + h[%d];" % (num(rng), HEAP_LEN - 1))
        if any(a.name == "hs->p" for a in scope.arrays):
            result.append("r += hs->p[1] * %s;" % num(rng))
        self.case.entry = Function(
            "real %s_f(real *x, int n, const double *c, real a)" % name,
            prologue, body, result + epilogue + ["return r;"])


def generate_case(seed, index):
    rng = random.Random("%d/%d" % (seed, index))
    return CaseGenerator(rng, "c%d_%d" % (seed, index)).generate()
