/* A three-file program: main (the derivative calls), model.c (the model),
 * util.c (helpers, linked from a static library) and rules.c (a custom
 * gradient for an opaque helper). */
double util_weight(int i);
double util_act(double x);
double util_opaque(double x);
extern double util_bias;
double model(const double *x, int n);
void model_step(double *state, int n, double dt);
double model_history(const double *x, int n);
double model_weak(const double *x, int n);
extern double (*const util_ops[2])(double);
double model_table(const double *x, int n);
