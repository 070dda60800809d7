"""The generated programs as trees the reducer can cut.

A case is one differentiated entry function with its own helpers and
globals. Every local is declared and initialised in a function's fixed
prologue, and every statement only assigns, branches, loops or calls, so any
statement can be removed and the program stays well defined: that is what
lets the reducer delete statements blindly.
"""


class Stmt:
    """A statement: its text before, between and after its blocks."""

    def __init__(self, head, blocks=(), joins=(), tail=None):
        self.head = head            # e.g. "if (v0 > 0.5) {" or "v0 = ...;"
        self.blocks = [list(b) for b in blocks]
        self.joins = list(joins)    # e.g. ["} else {"] between blocks
        self.tail = tail            # e.g. "}"

    def render(self, out, indent):
        pad = "  " * indent
        out.append(pad + self.head)
        for k, block in enumerate(self.blocks):
            if k:
                out.append(pad + self.joins[k - 1])
            for stmt in block:
                stmt.render(out, indent + 1)
        if self.tail is not None:
            out.append(pad + self.tail)

    def count(self):
        return 1 + sum(s.count() for b in self.blocks for s in b)


class Function:
    def __init__(self, signature, prologue, body, epilogue):
        self.signature = signature
        self.prologue = prologue    # lines: declarations, initialisation
        self.body = body            # list of Stmt, reducible
        self.epilogue = epilogue    # lines ending in the return

    def render(self, out):
        out.append(self.signature + " {")
        out.extend("  " + line for line in self.prologue)
        for stmt in self.body:
            stmt.render(out, 1)
        out.extend("  " + line for line in self.epilogue)
        out.append("}")

    def count(self):
        return sum(s.count() for s in self.body)


class Case:
    """One differentiated function, its helpers, its globals and the data
    the drivers call it with."""

    def __init__(self, name):
        self.name = name
        self.types = []             # struct definitions
        self.globals = []           # definitions
        self.reset = []             # statements restoring the globals
        self.helpers = []           # Function, callees first
        self.tables = []            # function-pointer tables, after helpers
        self.entry = None           # Function: real NAME(real *x, int n,
        #                             const double *c, real a)
        self.x = []                 # input values
        self.c = []                 # constant data
        self.a = 0.0                # the scalar argument
        self.a_active = True        # a is differentiated (out) or const
        self.x_is_global = False    # x is the case's global array
        self.global_pointer = None  # None, "x" or "array": what gp holds

    def functions(self):
        return self.helpers + [self.entry]

    def count(self):
        return sum(f.count() for f in self.functions())

    def render(self):
        out = ["/* case %s */" % self.name]
        out.extend(self.types)
        out.extend(self.globals)
        for helper in self.helpers:
            helper.render(out)
        out.extend(self.tables)
        self.entry.render(out)
        out.append("static void %s_setup(real *x) {" % self.name)
        out.extend("  " + line for line in self.reset)
        out.append("}")
        return out
