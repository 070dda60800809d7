// Pointers moved as vectors: compiled with -flto, the compile's own
// optimization SLP-vectorizes a swap of two std::vectors (and of two
// structs of pointers) into a load and a store of <2 x ptr>, and Capsule
// differentiates that code at the link. The pointers' shadows stayed where
// they were and the gradient through the first layer came back 0 without a
// word; the moves are lane by lane now (Support/PointerVectorLanes.h).
// Reverse and forward mode against central differences, full LTO at -O2
// and -O3.
// RUN: rm -rf %t && mkdir -p %t
// RUN: for O in 2 3; do \
// RUN:   %clangxx -O$O -flto %capsule_cflags -c %s -o %t/main$O.o && \
// RUN:   %clangxx -O$O -flto %t/main$O.o $(%capsule_config --lto-ldflags --ldflags) -o %t/prog$O && %t/prog$O || exit 1; \
// RUN: done
#include <capsule/capsule.h>
#include <cstdlib>
#include <utility>
#include <vector>
#include "include/check.h"

struct Layer {
  virtual void forward(const double *p, const std::vector<double> &in,
                       std::vector<double> &out) const = 0;
};

struct Dense : Layer {
  void forward(const double *p, const std::vector<double> &in,
               std::vector<double> &out) const override {
    out.resize(2);
    out[0] = p[0] * in[0] + p[1] * in[1];
    out[1] = p[2] * in[0] + p[3] * in[1];
  }
};

// Two layers with ping-pong buffers swapped between them; the layer is a
// constant argument, so its calls stay virtual.
static double pingPong(double *p, const Layer *layer) {
  std::vector<double> a{1.0, 2.0}, b;
  layer->forward(p, a, b);
  std::swap(a, b);
  layer->forward(p, a, b);
  return a[0] * a[0] + a[1] + b[0] * b[1];
}
static double pingPongFd(double *p, void *layer) {
  return pingPong(p, static_cast<const Layer *>(layer));
}

struct Buffer {
  double *begin, *end, *capacity;
};

static void affine(const double *p, const Buffer *in,
                                             Buffer *out) {
  if (!out->begin) {
    out->begin = static_cast<double *>(std::malloc(2 * sizeof(double)));
    out->end = out->capacity = out->begin + 2;
  }
  out->begin[0] = p[0] * in->begin[0] + p[1] * in->begin[1];
  out->begin[1] = p[2] * in->begin[0] + p[3] * in->begin[1];
}

typedef void (*Affine)(const double *, const Buffer *, Buffer *);

// The same with a struct of pointers swapped member by member, the layer
// called through a pointer.
static double swappedStructs(double *p, Affine affine) {
  Buffer a{static_cast<double *>(std::malloc(2 * sizeof(double))), nullptr,
           nullptr};
  Buffer b{nullptr, nullptr, nullptr};
  a.end = a.capacity = a.begin + 2;
  a.begin[0] = 1;
  a.begin[1] = 2;
  affine(p, &a, &b);
  Buffer t = a;
  a = b;
  b = t;
  affine(p, &a, &b);
  double r = a.begin[0] * a.begin[0] + a.begin[1] + b.begin[1];
  std::free(a.begin);
  std::free(b.begin);
  return r;
}
static double swappedStructsFd(double *p, void *f) {
  return swappedStructs(p, reinterpret_cast<Affine>(f));
}

int main() {
  double p[4] = {0.1, 0.2, 0.3, 0.4}, v[4] = {0.3, -0.2, 0.5, 0.1};
  Dense dense;
  const Layer *layer = &dense;
  double g[4] = {0}, dv = 0;
  __capsule_autodiff((void *)pingPong, capsule_dup, p, g, capsule_const, layer);
  check_grad_fd("pingPong", g, pingPongFd, (void *)layer, p, 4);
  for (int i = 0; i < 4; ++i)
    dv += v[i] * check_fd_partial(pingPongFd, (void *)layer, p, 4, i);
  check_close("pingPong tangent",
              __capsule_fwddiff((void *)pingPong, capsule_dup, p, v,
                                capsule_const, layer),
              dv, CHECK_FD_RTOL, CHECK_FD_ATOL);
  double h[4] = {0};
  __capsule_autodiff((void *)swappedStructs, capsule_dup, p, h, capsule_const,
                     affine);
  check_grad_fd("swappedStructs", h, swappedStructsFd, (void *)affine, p, 4);
  return check_report();
}
