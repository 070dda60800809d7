/* Rules for helpers.c, registered in a file of their own. */
double stopped(double x);
double like_log1p(double x);
double clipped(double x);
extern double gain;
void *__enzyme_inactivefn_stopped = (void *)stopped;
void *__enzyme_function_like_log1p[2] = {(void *)like_log1p, "log1p"};
void *__enzyme_inactive_global_gain[1] = {(void *)&gain};

/* d clipped / dx taken as 1 (a straight-through estimator). */
static double clipped_aug(double x) { return clipped(x); }
static double clipped_grad(double x, double d) {
  (void)x;
  return d;
}
void *__enzyme_register_gradient_clipped[3] = {
    (void *)clipped, (void *)clipped_aug, (void *)clipped_grad};
