//===- coro_task.h - Step-budgeted C++20 coroutines on a LIFO frame stack -===//
//
// The LLVM-coroutine counterpart of Capsule's step functions, built from the
// parts the issue names: CoroSplit's switch ABI (what clang uses for C++20
// coroutines) with a custom allocator.
//
//   - Every function that can yield is a coroutine returning Task<T>.
//     Tasks start lazily; a caller `co_await`s its callee, which transfers
//     control to it symmetrically (a tail call, no stack growth) and gets
//     control back the same way when the callee finishes.
//   - Yield points are where Capsule's are: function entries and loop
//     headers (CS_YIELD in kernels.inc, which also charges the block's cost
//     to the budget) and returns from a callee (FinalAwaiter). A yield
//     suspends the innermost coroutine and returns to the driver; every
//     caller is already suspended at its co_await, so the whole chain stops.
//     Resuming resumes that innermost coroutine directly.
//   - Frames come from promise_type::operator new/delete, which bump-allocate
//     from a LIFO frame stack: no malloc per activation. A callee's frame is
//     freed when the caller's co_await expression ends, so frees are LIFO.
//
// There is no journal: nothing here can roll memory back to a yield point.
//===----------------------------------------------------------------------===//
#ifndef CAPSULE_CORO_STUDY_CORO_TASK_H
#define CAPSULE_CORO_STUDY_CORO_TASK_H

#include <coroutine>
#include <cstddef>
#include <cstdio>
#include <cstdlib>
#include <exception>

namespace co {

/// Steps left before the next yield; a yield point suspends when it is <= 0
/// (Capsule's rule: stop at the first yield point at which at least the
/// limit is done). A plain global: the coroutines are single-threaded here.
inline long Budget = 0;
/// The coroutine that suspended last, the one the driver resumes.
inline std::coroutine_handle<> Suspended;

/// The LIFO frame stack. 16 MiB is far more than the deepest chain needs.
inline char *FrameBase = nullptr, *FrameTop = nullptr, *FrameEnd = nullptr;
constexpr std::size_t FrameAlign = __STDCPP_DEFAULT_NEW_ALIGNMENT__;

inline void initFrameStack(std::size_t Bytes) {
  FrameBase = FrameTop = static_cast<char *>(std::aligned_alloc(64, Bytes));
  if (!FrameBase) {
    std::fprintf(stderr, "coro-study: out of memory for the frame stack\n");
    std::exit(2);
  }
  FrameEnd = FrameBase + Bytes;
}

inline std::size_t roundFrame(std::size_t N) {
  return (N + FrameAlign - 1) & ~(FrameAlign - 1);
}

inline void *allocFrame(std::size_t N) {
  N = roundFrame(N);
  if (__builtin_expect(std::size_t(FrameEnd - FrameTop) < N, 0)) {
    std::fprintf(stderr, "coro-study: frame stack exhausted\n");
    std::abort();
  }
  char *P = FrameTop;
  FrameTop = P + N;
  return P;
}

inline void freeFrame(void *P, std::size_t N) {
  FrameTop -= roundFrame(N);
  // Frees are LIFO by construction; a violation is a bug in this file.
  if (__builtin_expect(FrameTop != P, 0))
    std::abort();
}

/// The yield point of CS_YIELD: suspends only when the budget is spent, so
/// the common path is one compare and a predictable branch.
struct YieldPoint {
  bool await_ready() const noexcept { return Budget > 0; }
  void await_suspend(std::coroutine_handle<> H) const noexcept {
    Suspended = H; // returning void hands control back to the driver
  }
  void await_resume() const noexcept {}
};

template <typename T> class Task;

/// What return_value/return_void differ in.
template <typename T> struct PromiseResult {
  T Value;
  void return_value(T V) noexcept { Value = V; }
  T result() const noexcept { return Value; }
};
template <> struct PromiseResult<void> {
  void return_void() noexcept {}
  void result() const noexcept {}
};

template <typename T> class Task {
public:
  struct promise_type : PromiseResult<T> {
    /// The awaiting caller; null for the root, which returns to the driver.
    std::coroutine_handle<> Continuation;

    static void *operator new(std::size_t N) { return allocFrame(N); }
    static void operator delete(void *P, std::size_t N) { freeFrame(P, N); }

    Task get_return_object() noexcept {
      return Task(std::coroutine_handle<promise_type>::from_promise(*this));
    }
    std::suspend_always initial_suspend() noexcept { return {}; }

    /// Returning from a callee is a yield point (as in Capsule): with the
    /// budget spent, control goes to the driver and the caller is resumed
    /// later; otherwise straight to the caller.
    struct FinalAwaiter {
      bool await_ready() const noexcept { return false; }
      std::coroutine_handle<>
      await_suspend(std::coroutine_handle<promise_type> H) const noexcept {
        std::coroutine_handle<> Caller = H.promise().Continuation;
        if (!Caller)
          return std::noop_coroutine();
        if (Budget <= 0) {
          Suspended = Caller;
          return std::noop_coroutine();
        }
        return Caller;
      }
      void await_resume() const noexcept {}
    };
    FinalAwaiter final_suspend() noexcept { return {}; }
    void unhandled_exception() noexcept { std::terminate(); }
  };

  Task(Task &&O) noexcept : H(O.H) { O.H = nullptr; }
  Task(const Task &) = delete;
  ~Task() {
    if (H)
      H.destroy();
  }

  // Awaiting a task starts it by symmetric transfer.
  bool await_ready() const noexcept { return false; }
  std::coroutine_handle<>
  await_suspend(std::coroutine_handle<> Caller) noexcept {
    H.promise().Continuation = Caller;
    return H;
  }
  T await_resume() const noexcept { return H.promise().result(); }

  std::coroutine_handle<promise_type> handle() const noexcept { return H; }

private:
  explicit Task(std::coroutine_handle<promise_type> H) : H(H) {}
  std::coroutine_handle<promise_type> H;
};

/// Runs Root to its end, with K steps of budget per resumption (K <= 0: one
/// resumption with an unlimited budget). Counts the yields and the steps
/// charged, and returns Root's result. The root's frame is freed on return.
template <typename T> T drive(Task<T> Root, long K, long *Yields, long *Steps) {
  constexpr long Unlimited = __LONG_MAX__ / 4;
  long Chunk = K > 0 ? K : Unlimited, Y = 0, Used = 0;
  Suspended = Root.handle();
  for (;;) {
    Budget = Chunk;
    Suspended.resume();
    Used += Chunk - Budget;
    if (Root.handle().done())
      break;
    ++Y;
  }
  if (Yields)
    *Yields = Y;
  if (Steps)
    *Steps = Used;
  return Root.handle().promise().result();
}

} // namespace co

#endif // CAPSULE_CORO_STUDY_CORO_TASK_H
