// Interruptible execution: structs passed and returned by value between
// internal functions (a two-double complex number in registers, a
// three-double vector and a larger five-field struct passed in memory and
// returned through sret), driving a small Mandelbrot grid and vector
// algebra; the escape counts, the vectors written out and the returned sum
// must be identical after an interruption at any step (interrupt_check.h
// lists the checks).
// RUN: %clang -O0 -g %capsule_cflags %s -o %t0 %capsule_ldflags && %t0
// RUN: %clang -O1 -g %capsule_cflags %s -o %t1 %capsule_ldflags && %t1
// RUN: %clang -O2 -g %capsule_cflags %s -o %t2 %capsule_ldflags && %t2
#include "interrupt_check.h"

struct cplx {
  double re, im;
};
struct vec3 {
  double x, y, z;
};
struct stats {
  double min, max, sum;
  int count;
  long hash;
};

__attribute__((noinline)) static struct cplx cmul(struct cplx a,
                                                  struct cplx b) {
  struct cplx r = {a.re * b.re - a.im * b.im, a.re * b.im + a.im * b.re};
  return r;
}
static struct cplx cadd(struct cplx a, struct cplx b) {
  struct cplx r = {a.re + b.re, a.im + b.im};
  return r;
}
__attribute__((noinline)) static struct vec3 cross(struct vec3 a,
                                                   struct vec3 b) {
  struct vec3 r = {a.y * b.z - a.z * b.y, a.z * b.x - a.x * b.z,
                   a.x * b.y - a.y * b.x};
  return r;
}
static double dot(struct vec3 a, struct vec3 b) {
  return a.x * b.x + a.y * b.y + a.z * b.z;
}
__attribute__((noinline)) static struct stats add_sample(struct stats s,
                                                         double v) {
  s.min = v < s.min ? v : s.min;
  s.max = v > s.max ? v : s.max;
  s.sum += v;
  s.count += 1;
  s.hash = s.hash * 31 + (long)(v * 16);
  return s;
}

double byvalue(int *escape, struct vec3 *vs, int nv) {
  struct stats st = {1e300, -1e300, 0, 0, 7};
  for (int i = 0; i < 5; ++i)
    for (int j = 0; j < 5; ++j) {
      struct cplx c = {-2.0 + 0.6 * j, -1.2 + 0.6 * i}, z = {0, 0};
      int k = 0;
      while (k < 12 && z.re * z.re + z.im * z.im <= 4) {
        z = cadd(cmul(z, z), c);
        ++k;
      }
      escape[i * 5 + j] = k;
      st = add_sample(st, z.re);
    }
  for (int i = 0; i + 1 < nv; ++i) {
    struct vec3 c = cross(vs[i], vs[i + 1]);
    st = add_sample(st, dot(c, vs[0]));
    vs[i] = c;
  }
  return st.min + st.max * 10 + st.sum * 100 + st.count + (double)st.hash;
}

static int escape[25];
static struct vec3 vs[5];
static void reset(void) {
  memset(escape, 0, sizeof escape);
  for (int i = 0; i < 5; ++i) {
    vs[i].x = 1 + i * 0.5;
    vs[i].y = 2 - i * 0.25;
    vs[i].z = (i % 2) ? 0.75 : -0.5;
  }
}
DEFINE_RUNNERS(double, byvalue, escape, vs, 5)
static const struct region regions[] = {{escape, sizeof escape},
                                        {vs, sizeof vs}};

int main(void) {
  struct program p = {
      "data-struct-by-value", sizeof(double), reset, plain_run, primops_run,
      interrupt_run,          regions,        2,     4096};
  return check_interruptible(&p) != 0;
}
