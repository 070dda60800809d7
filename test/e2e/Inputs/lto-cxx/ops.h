// Operations of lto-cxx.cpp: a class hierarchy whose objects and virtual
// functions live in ops.cpp, and a template instantiated in both files.
struct Op {
  virtual double apply(double x) const = 0;
  virtual ~Op() {}
};
Op *make_op(int k);
double run(const Op *op, double x);
template <class T> T poly(T x) { return x * x + 3 * x; }
