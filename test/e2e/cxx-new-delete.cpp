// C++ new/delete of objects (a linked list built and freed inside f) and new[]/delete[] scratch arrays.
// RUN: %clangxx -O0 -g %capsule_cflags %s -o %t0 %capsule_ldflags && %t0
// RUN: %clangxx -O1 -g %capsule_cflags %s -o %t1 %capsule_ldflags && %t1
// RUN: %clangxx -O2 -g %capsule_cflags %s -o %t2 %capsule_ldflags && %t2
// RUN: %check_checkpointed %clangxx %s %t.ck -O2 -g %capsule_cflags -- %capsule_ldflags
#include <capsule/capsule.h>
#include <cmath>
#include "include/check.h"

struct Node {
  double value;
  Node *next;
};

double f(const double *x, int n) {
  double *tmp = new double[n];
  for (int i = 0; i < n; i++)
    tmp[i] = x[i] * x[(i + 2) % n] + 0.5;
  Node *head = nullptr;
  for (int i = 0; i < n; i++) {
    Node *node = new Node;
    node->value = std::tanh(tmp[i]);
    node->next = head;
    head = node;
  }
  delete[] tmp;
  double s = 0.0, w = 1.0;
  while (head) {
    s += w * head->value;
    w *= 1.0 + 0.2 * head->value;
    Node *next = head->next;
    delete head;
    head = next;
  }
  return s;
}

static double f_fd(double *x, void *ctx) { return f(x, *(int *)ctx); }

int main() {
  int n = 6;
  double x[6] = {0.3, -0.9, 1.2, 0.55, -0.4, 0.8}, dx[6] = {0};
  __capsule_autodiff<void>((void *)f, capsule_dup, x, dx, capsule_const, n);
  check_grad_fd("dx", dx, f_fd, &n, x, 6);
  return check_report();
}
