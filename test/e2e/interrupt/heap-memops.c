// Interruptible execution: memset, memcpy and overlapping memmove (both
// directions) on caller arrays and on a malloc'd scratch buffer, plus
// struct assignment (a memcpy of its own); the caller's arrays and the
// returned checksum must be identical after an interruption at any step
// (interrupt_check.h lists the checks).
// RUN: %clang -O0 -g %capsule_cflags %s -o %t0 %capsule_ldflags && %t0
// RUN: %clang -O1 -g %capsule_cflags %s -o %t1 %capsule_ldflags && %t1
// RUN: %clang -O2 -g %capsule_cflags %s -o %t2 %capsule_ldflags && %t2
#include "interrupt_check.h"

struct blob {
  int id;
  char name[20];
  double values[5];
};

long memops(unsigned char *bytes, int n, struct blob *blobs, int nb) {
  unsigned char *scratch = (unsigned char *)malloc((size_t)n);
  long check = 0;
  for (int round = 0; round < 4; ++round) {
    memcpy(scratch, bytes, (size_t)n);
    memmove(bytes + 3, bytes, (size_t)(n - 3));     /* overlap forward */
    memmove(scratch, scratch + 5, (size_t)(n - 5)); /* overlap backward */
    memset(scratch + n - 5, round * 17, 5);
    for (int i = 0; i < n; ++i)
      bytes[i] = (unsigned char)(bytes[i] ^ scratch[i]);
    memset(bytes, 0x40 + round, (size_t)(round + 1));
    for (int i = 0; i < n; ++i)
      check = check * 3 + bytes[i];
  }
  for (int i = 0; i + 1 < nb; ++i) {
    struct blob tmp = blobs[i];
    blobs[i] = blobs[i + 1];
    tmp.id += 100;
    tmp.values[i % 5] *= 2;
    blobs[i + 1] = tmp;
  }
  memset(blobs[0].name, 'z', 3);
  memcpy(blobs[nb - 1].name, "moved", 6);
  free(scratch);
  return check;
}

static unsigned char bytes[64];
static struct blob blobs[4];
static void reset(void) {
  for (int i = 0; i < 64; ++i)
    bytes[i] = (unsigned char)(i * 37 + 11);
  memset(blobs, 0, sizeof blobs);
  for (int i = 0; i < 4; ++i) {
    blobs[i].id = i;
    strcpy(blobs[i].name, "blob");
    blobs[i].name[4] = (char)('0' + i);
    for (int k = 0; k < 5; ++k)
      blobs[i].values[k] = i + k * 0.5;
  }
}
DEFINE_RUNNERS(long, memops, bytes, 64, blobs, 4)
static const struct region regions[] = {{bytes, sizeof bytes},
                                        {blobs, sizeof blobs}};

int main(void) {
  struct program p = {"heap-memops", sizeof(long),  reset,   plain_run,
                      primops_run,   interrupt_run, regions, 2,
                      8192};
  return check_interruptible(&p) != 0;
}
