// Interruptible execution: C++ new and delete inside the function (a binary
// search tree of new'd nodes with constructors, destroyed recursively with
// delete, a new[]'d array of objects with constructors and destructors
// released by delete[], and a new'd scalar array); the in-order walk
// written to the caller and the returned value must be identical after an
// interruption at any step (interrupt_check.h lists the checks).
// RUN: %clangxx -O0 -g %capsule_cflags %s -o %t0 %capsule_ldflags && %t0
// RUN: %clangxx -O1 -g %capsule_cflags %s -o %t1 %capsule_ldflags && %t1
// RUN: %clangxx -O2 -g %capsule_cflags %s -o %t2 %capsule_ldflags && %t2
#include "interrupt_check.h"

static int live_objects;

struct Node {
  long key;
  Node *left = nullptr, *right = nullptr;
  explicit Node(long k) : key(k) { ++live_objects; }
  ~Node() { --live_objects; }
};

static Node *insert(Node *t, long k) {
  if (!t)
    return new Node(k);
  if (k < t->key)
    t->left = insert(t->left, k);
  else if (k > t->key)
    t->right = insert(t->right, k);
  return t;
}

static int walk(const Node *t, long *out, int at) {
  if (!t)
    return at;
  at = walk(t->left, out, at);
  out[at++] = t->key;
  return walk(t->right, out, at);
}

static void destroy(Node *t) {
  if (!t)
    return;
  destroy(t->left);
  destroy(t->right);
  delete t;
}

struct Cell {
  double v;
  Cell() : v(1.0) { ++live_objects; }
  ~Cell() { --live_objects; }
};

long newdelete(const long *keys, int n, long *out) {
  Node *root = nullptr;
  for (int i = 0; i < n; ++i)
    root = insert(root, keys[i]);
  int count = walk(root, out, 0);
  int peak = live_objects;
  Cell *cells = new Cell[count];
  double *weights = new double[count];
  for (int i = 0; i < count; ++i) {
    cells[i].v += out[i] * 0.5;
    weights[i] = cells[i].v * (i + 1);
  }
  double s = 0;
  for (int i = 0; i < count; ++i)
    s += weights[i];
  peak = live_objects > peak ? live_objects : peak;
  delete[] weights;
  delete[] cells;
  destroy(root);
  return (long)s * 1000 + peak * 10 + live_objects;
}

static long keys[24], out[24];
static void reset(void) {
  for (int i = 0; i < 24; ++i) {
    keys[i] = (i * 17) % 29;
    out[i] = -1;
  }
  live_objects = 0;
}
DEFINE_RUNNERS(long, newdelete, keys, 24, out)
static const struct region regions[] = {
    {keys, sizeof keys}, {out, sizeof out}, {&live_objects, sizeof(int)}};

int main() {
  struct program p = {
      "cxx-new-delete", sizeof(long), reset, plain_run, primops_run,
      interrupt_run,    regions,      3,     8192};
  return check_interruptible(&p) != 0;
}
