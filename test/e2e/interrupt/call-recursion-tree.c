// Interruptible execution: recursion over a binary tree of nodes linked by
// pointers (subtree sums stored into each node, the height, a mirrored
// in-order walk writing into an array); the nodes, the walk and the
// returned value must be identical after an interruption at any step
// (interrupt_check.h lists the checks).
// RUN: %clang -O0 -g %capsule_cflags %s -o %t0 %capsule_ldflags && %t0
// RUN: %clang -O1 -g %capsule_cflags %s -o %t1 %capsule_ldflags && %t1
// RUN: %clang -O2 -g %capsule_cflags %s -o %t2 %capsule_ldflags && %t2
#include "interrupt_check.h"

struct node {
  int value;
  long sum;
  struct node *left, *right;
};

static long subtree(struct node *t) {
  if (!t)
    return 0;
  t->sum = t->value + subtree(t->left) + subtree(t->right);
  return t->sum;
}

static int height(const struct node *t) {
  if (!t)
    return 0;
  int l = height(t->left), r = height(t->right);
  return 1 + (l > r ? l : r);
}

static void mirror(struct node *t) {
  if (!t)
    return;
  struct node *tmp = t->left;
  t->left = t->right;
  t->right = tmp;
  mirror(t->left);
  mirror(t->right);
}

static int inorder(const struct node *t, int *out, int at) {
  if (!t)
    return at;
  at = inorder(t->left, out, at);
  out[at++] = t->value;
  return inorder(t->right, out, at);
}

long tree(struct node *root, int *walk) {
  long s = subtree(root);
  int h = height(root);
  mirror(root);
  int count = inorder(root, walk, 0);
  return s * 100 + h * 10 + count;
}

#define NODES 21
static struct node nodes[NODES];
static int walk[NODES];
static void reset(void) {
  /* A lopsided tree: node i's children are 2i+1 and 2i+2, with a few cut. */
  for (int i = 0; i < NODES; ++i) {
    nodes[i].value = (i * 13) % 17 - 4;
    nodes[i].sum = 0;
    int l = 2 * i + 1, r = 2 * i + 2;
    nodes[i].left = l < NODES && i != 2 ? &nodes[l] : NULL;
    nodes[i].right = r < NODES && i != 4 ? &nodes[r] : NULL;
    walk[i] = 0;
  }
}
DEFINE_RUNNERS(long, tree, nodes, walk)
static const struct region regions[] = {{nodes, sizeof nodes},
                                        {walk, sizeof walk}};

int main(void) {
  struct program p = {
      "call-recursion-tree", sizeof(long), reset, plain_run,  primops_run,
      interrupt_run,         regions,      2,     4096 + 1024};
  return check_interruptible(&p) != 0;
}
