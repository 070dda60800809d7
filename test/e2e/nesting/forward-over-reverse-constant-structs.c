// Forward over reverse (Hessian-vector products) of functions that read
// their data through a constant struct holding pointers: the reverse sweep
// reloads what it needs from that memory, which has no tangents, and the
// pointer it reloads through must not be one whose twin is read from there.
// Against closed forms and central differences of the gradient.
// RUN: %clang -O0 -g %capsule_cflags %s -o %t0 %capsule_ldflags -lm && %t0
// RUN: %clang -O2 -g %capsule_cflags %s -o %t2 %capsule_ldflags -lm && %t2
// RUN: %clang -O3 -g %capsule_cflags %s -o %t3 %capsule_ldflags -lm && %t3
#include <stddef.h>
#include <capsule/capsule.h>
#include "../include/check.h"

void __capsule_autodiff_v(void *, ...);
void __capsule_fwddiff_v(void *, ...);

typedef struct {
  double scale;
  const double *c;       // offsets
  const double *const *w; // weights, through a second pointer
} data_t;

enum { N = 5 };

// scale * sum_i w_i (y_i - c_i)^3 + y_i^2 c_i
double energy(const data_t *d, const double *y, size_t n) {
  double s = 0;
  for (size_t i = 0; i < n; ++i) {
    double e = y[i] - d->c[i];
    s += (*d->w)[i] * e * e * e + y[i] * y[i] * d->c[i];
  }
  return d->scale * s;
}

void gradient(const data_t *d, const double *y, double *g, size_t n) {
  __capsule_autodiff_v((void *)energy, capsule_const, d, capsule_dup, y, g,
                       capsule_const, n);
}

static const data_t *fd_data;
static int fd_component;
static double gradient_component(double *y, void *ctx) {
  (void)ctx;
  double g[N] = {0};
  gradient(fd_data, y, g, N);
  return g[fd_component];
}

int main(void) {
  double c[N] = {0.1, -0.2, 0.3, 0.4, -0.5}, w[N] = {1, 2, 0.5, -1, 3};
  const double *wp = w;
  data_t d = {1.5, c, &wp};
  double y[N] = {1, -0.5, 0.7, 2, 0.2}, v[N] = {0.3, 1, -1, 0.5, 2};
  double g[N] = {0}, hv[N] = {0};
  __capsule_fwddiff_v((void *)gradient, capsule_const, &d, capsule_dup, y, v,
                      capsule_dup, g, hv, capsule_const, (size_t)N);
  fd_data = &d;
  for (int i = 0; i < N; i++) {
    double e = y[i] - c[i];
    check_close("gradient", g[i],
                d.scale * (3 * w[i] * e * e + 2 * y[i] * c[i]), CHECK_CF_RTOL,
                CHECK_CF_ATOL);
    check_close("Hessian-vector product", hv[i],
                d.scale * (6 * w[i] * e + 2 * c[i]) * v[i], CHECK_CF_RTOL,
                CHECK_CF_ATOL);
    fd_component = i;
    check_close("Hessian-vector product against differences", hv[i],
                check_fd_partial(gradient_component, 0, y, N, i) * v[i],
                CHECK_FD_RTOL, CHECK_FD_ATOL);
  }
  return check_report();
}
