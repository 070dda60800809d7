/* The model (model.c) and its helpers (util.c, a static library). */
double util_activation(double x);
double util_weight(int i, int j);
double loss(const double *params, const double *inputs, const double *targets,
            int n);
