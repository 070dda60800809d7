/* The model of lto-rules.c. Each helper's rule lives in another file
 * (rules.c) except sq's, which is static and registered here; the rules
 * are deliberately not the helpers' derivatives, so that their effect
 * shows. */
double stopped(double x);
double like_log1p(double x);
double clipped(double x);
extern double gain;

/* Its rule says 4x, its body 2x. */
static double sq(double x) { return x * x; }
static double sq_aug(double x) { return sq(x); }
static double sq_grad(double x, double d) { return 4 * x * d; }
void *__enzyme_register_gradient_sq[3] = {(void *)sq, (void *)sq_aug,
                                          (void *)sq_grad};

double model(double x) {
  gain = 5 * x;
  return 3 * x + stopped(x) + like_log1p(x) + clipped(x) + gain + sq(x);
}
