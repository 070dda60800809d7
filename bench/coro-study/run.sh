#!/bin/sh
# run.sh - build and run the coroutine study (README.md).
#
#   bench/coro-study/run.sh [BUILD_DIR]
#
# BUILD_DIR is a Capsule build directory holding lib/CapsulePlugin.so and
# lib/libcapsule_rt.a (default: ../../build from this directory). Objects
# and the binary go to BUILD_DIR/coro-study. Prints the timing tables of
# the study binary, then code and frame sizes and compile times taken from
# the objects and the IR. BENCH_SECONDS (default 1) sets the time of each
# measurement.
set -eu

HERE=$(cd "$(dirname "$0")" && pwd)
BUILD=$(cd "${1:-$HERE/../../build}" && pwd)
PLUGIN=$BUILD/lib/CapsulePlugin.so
RT=$BUILD/lib/libcapsule_rt.a
OUT=$BUILD/coro-study
CC=clang-19
CXX=clang++-19
for f in "$PLUGIN" "$RT"; do
  [ -f "$f" ] || { echo "run.sh: $f not found (build Capsule first)" >&2; exit 2; }
done
mkdir -p "$OUT"

CFLAGS="-std=c11 -O2 -Wall -Wextra -I$HERE/../../include -I$HERE/.."
# C++ as C: no exceptions (C has none), so no landing pads in either.
CXXFLAGS="-std=c++20 -O2 -Wall -Wextra -fno-exceptions"

now() { date +%s.%N; }
# best_of3 VAR CMD...: runs CMD three times, VAR = the fastest wall time (s).
best_of3() {
  var=$1
  shift
  best=
  for _ in 1 2 3; do
    t0=$(now)
    "$@"
    t=$(awk "BEGIN { print $(now) - $t0 }")
    if [ -z "$best" ] || awk "BEGIN { exit !($t < $best) }"; then best=$t; fi
  done
  eval "$var=\$best"
}

echo "Building in $OUT"
best_of3 T_CAPSULE $CC $CFLAGS -fpass-plugin="$PLUGIN" -c "$HERE/study.c" \
  -o "$OUT/study.o"
best_of3 T_C $CC $CFLAGS -c "$HERE/study.c" -o "$OUT/study-noplugin.o"
best_of3 T_CORO $CXX $CXXFLAGS -c "$HERE/coro_kernels.cpp" -o "$OUT/coro.o"
best_of3 T_PLAINXX $CXX $CXXFLAGS -c "$HERE/plain_kernels.cpp" \
  -o "$OUT/plain.o"
$CC $CFLAGS -fpass-plugin="$PLUGIN" -S -emit-llvm "$HERE/study.c" \
  -o "$OUT/study.ll"
$CXX $CXXFLAGS -S -emit-llvm "$HERE/coro_kernels.cpp" -o "$OUT/coro.ll"
$CXX "$OUT/study.o" "$OUT/coro.o" "$OUT/plain.o" "$RT" -lm \
  -o "$OUT/coro-study"

echo "Machine: $(nproc) cores, $(sed -n 's/^model name[^:]*: //p' /proc/cpuinfo | head -1); $($CC --version | head -1)"
echo
"$OUT/coro-study"

# Bytes of machine code of the symbols whose names match a regular
# expression in an object (local symbols included).
code_bytes() {
  llvm-nm-19 -S --defined-only --radix=d "$1" |
    awk -v re="$2" 'NF == 4 && $3 ~ /^[tT]$/ && $4 ~ re {
      s += $2 + 0 } END { print s + 0 }'
}
# Capsule: a step function checks that its record fits below the frame
# stack's limit before it runs, comparing frame + record size with it.
capsule_frame() {
  awk -v f="@$1.capsule.step(" '
    index($0, "define") == 1 { in_f = index($0, f) > 0 }
    in_f && match($0, /ptr %0, i64 [0-9]+/) {
      last = substr($0, RSTART + 12, RLENGTH - 12) }
    in_f && index($0, "@__capsule_frame_limit") { print last; exit }' \
    "$OUT/study.ll"
}
# Coroutine: CoroSplit's frame size is the dereferenceable size of the
# .resume function's frame argument.
coro_frame() {
  sed -n "s/^define .*@_ZN3cor[L0-9]*$1E[^ ]*\.resume(ptr [^)]*dereferenceable(\([0-9]*\)).*/\1/p" \
    "$OUT/coro.ll" | head -1
}

echo
echo "Code bytes (.text of the kernel's functions) and frame bytes per activation"
echo
echo "| kernel | plain C | Capsule step functions | plain C++ | coroutine (ramp, resume, destroy, cleanup) | Capsule record | coroutine frame |"
echo "| --- | --- | --- | --- | --- | --- | --- |"
row() {
  label=$1 cre=$2 mre=$3 cfr=$4 kfr=$5
  pc=$(code_bytes "$OUT/study.o" "^($cre)\$")
  cap=$(code_bytes "$OUT/study.o" "^($cre)\\.capsule\\.")
  px=$(code_bytes "$OUT/plain.o" "^_ZN5plain[L0-9]*($mre)E")
  co=$(code_bytes "$OUT/coro.o" "^_ZN3cor[L0-9]*($mre)E")
  echo "| $label | $pc | $cap | $px | $co | $cfr | $kfr |"
}
row rotation cs_rotation cs_rotation "$(capsule_frame cs_rotation)" \
  "$(coro_frame cs_rotation)"
row rk4 cs_rk4 cs_rk4 "$(capsule_frame cs_rk4)" "$(coro_frame cs_rk4)"
row rk4_calls 'cs_rk4_calls|cs_rk4_rhs' 'cs_rk4_calls|cs_rk4_rhs' \
  "$(capsule_frame cs_rk4_calls) + rhs $(capsule_frame cs_rk4_rhs)" \
  "$(coro_frame cs_rk4_calls) + rhs $(coro_frame cs_rk4_rhs)"
row tree cs_tree cs_tree "$(capsule_frame cs_tree)" "$(coro_frame cs_tree)"
row gmm 'cs_gmm|cs_gmm_[a-z_]*' 'cs_gmm|cs_gmm_[a-z_]*' \
  "$(capsule_frame cs_gmm)" "$(coro_frame cs_gmm)"
row spin cs_spin cs_spin "$(capsule_frame cs_spin)" "$(coro_frame cs_spin)"

echo
printf 'Compile time, -O2, best of 3: study.c with the plugin %.2f s, without %.2f s; coro_kernels.cpp %.2f s, plain_kernels.cpp %.2f s\n' \
  "$T_CAPSULE" "$T_C" "$T_CORO" "$T_PLAINXX"
