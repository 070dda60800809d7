// Error: an inner derivative call (nested differentiation) whose dup argument points into a global that the inner function also names stops the program with a message naming the global, instead of splitting the global's derivative between two shadows (at -O0 and -O2).
// RUN: %clang -O0 -g %capsule_cflags %s -o %t0 %capsule_ldflags && not %t0 2>&1 | FileCheck %s
// RUN: %clang -O2 -g %capsule_cflags %s -o %t2 %capsule_ldflags && not %t2 2>&1 | FileCheck %s
// CHECK: capsule: dup argument 1 of a derivative call inside differentiated code (nested differentiation) points into the global 'state', which the differentiated code also uses by name
int enzyme_dup;
void __enzyme_autodiff(void *, ...);
void __enzyme_fwddiff(void *, ...);

double state[3] = {0.5, 1.5, -1.0};

static double energy(const double *x) {
  return x[0] * x[1] + state[2] * state[2] * x[2];
}

static void gradient_of_state(double *g) {
  __enzyme_autodiff((void *)energy, enzyme_dup, state, g);
}

int main(void) {
  double g[3] = {0}, dg[3] = {0};
  __enzyme_fwddiff((void *)gradient_of_state, enzyme_dup, g, dg);
  return 0;
}
