// A heap object holding pointers to other heap objects, shadowed by dup as Enzyme's users do (issue 15 item 12): a malloc'ed model of malloc'ed layers, each layer a malloc'ed struct of malloc'ed weight and bias arrays; the shadow model mirrors it with shadow arrays. The function also allocates, fills and frees a heap scratch struct of its own. Gradients with respect to every weight and bias, against central differences; the model must come back unchanged.
// RUN: %clang -O0 -g %capsule_cflags %s -o %t0 %capsule_ldflags -lm && %t0
// RUN: %clang -O2 -g %capsule_cflags %s -o %t2 %capsule_ldflags -lm && %t2
// RUN: %check_checkpointed %clang %s %t.ck0 -O0 -g %capsule_cflags -- %capsule_ldflags -lm
// RUN: %check_checkpointed %clang %s %t.ck -O2 -g %capsule_cflags -- %capsule_ldflags -lm
#include "include/check.h"
#include <capsule/capsule.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

void __capsule_autodiff_v(void *, ...);

enum { Width = 3, Depth = 2 };

struct Layer {
  double *weights; /* Width x Width */
  double *bias;    /* Width */
};

struct Model {
  int depth;
  struct Layer **layers;
  double *input;
};

struct Scratch {
  double *a, *b;
};

static double loss(struct Model *m) {
  struct Scratch *s = malloc(sizeof *s);
  s->a = malloc(Width * sizeof(double));
  s->b = malloc(Width * sizeof(double));
  memcpy(s->a, m->input, Width * sizeof(double));
  for (int l = 0; l < m->depth; l++) {
    struct Layer *L = m->layers[l];
    for (int i = 0; i < Width; i++) {
      double z = L->bias[i];
      for (int j = 0; j < Width; j++)
        z += L->weights[i * Width + j] * s->a[j];
      s->b[i] = tanh(z);
    }
    double *t = s->a;
    s->a = s->b;
    s->b = t;
  }
  double r = 0;
  for (int i = 0; i < Width; i++)
    r += (i + 1) * s->a[i] * s->a[i];
  free(s->a);
  free(s->b);
  free(s);
  return r;
}

static struct Model *newModel(void) {
  struct Model *m = malloc(sizeof *m);
  m->depth = Depth;
  m->layers = malloc(Depth * sizeof *m->layers);
  for (int l = 0; l < Depth; l++) {
    m->layers[l] = malloc(sizeof(struct Layer));
    m->layers[l]->weights = calloc(Width * Width, sizeof(double));
    m->layers[l]->bias = calloc(Width, sizeof(double));
  }
  m->input = calloc(Width, sizeof(double));
  return m;
}

static void freeModel(struct Model *m) {
  for (int l = 0; l < Depth; l++) {
    free(m->layers[l]->weights);
    free(m->layers[l]->bias);
    free(m->layers[l]);
  }
  free(m->layers);
  free(m->input);
  free(m);
}

/* Parameters flattened for the reference: every weight, then every bias. */
enum { Params = Depth * (Width * Width + Width) };

static double *param(struct Model *m, int k) {
  int perLayer = Width * Width + Width;
  struct Layer *L = m->layers[k / perLayer];
  int i = k % perLayer;
  return i < Width * Width ? &L->weights[i] : &L->bias[i - Width * Width];
}

static struct Model *reference;

static double lossOf(double *p, void *unused) {
  for (int k = 0; k < Params; k++)
    *param(reference, k) = p[k];
  return loss(reference);
}

int main(void) {
  struct Model *m = newModel(), *dm = newModel();
  for (int k = 0; k < Params; k++)
    *param(m, k) = 0.3 * sin(1.7 * k + 0.4);
  for (int i = 0; i < Width; i++)
    m->input[i] = 0.5 - 0.4 * i;
  double before[Params], grad[Params];
  for (int k = 0; k < Params; k++)
    before[k] = *param(m, k);

  __capsule_autodiff_v((void *)loss, capsule_dup, m, dm);

  int same = 1;
  for (int k = 0; k < Params; k++) {
    grad[k] = *param(dm, k);
    same &= *param(m, k) == before[k];
  }
  check_close("model unchanged", same, 1, 0, 0);
  reference = m;
  check_grad_fd("heap struct of heap arrays", grad, lossOf, 0, before,
                Params);
  freeModel(m);
  freeModel(dm);
  return check_report();
}
