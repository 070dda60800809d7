//===- StdValarray.cpp - Body of libstdc++'s gslice indexer ---------------===//
//
// std::gslice keeps the indices it selects in an indexer that its
// constructor builds in a function compiled into libstdc++.so: declared
// only, the gradient of code that slices a valarray with a gslice would
// stop at it. Its definition here (LibraryBodies.h) builds the same
// indices: for start o, lengths l and strides s, every o + sum_d i_d s_d
// with 0 <= i_d < l_d, the last dimension varying fastest (C++ [gslice]).
// Integers only, so its derivative is nothing, but its memory is the
// module's to see.
//===----------------------------------------------------------------------===//
#include <valarray>

namespace {

/// How many indices lengths \p L select: their product (none for no
/// dimension).
size_t selectedCount(const std::valarray<size_t> &L) {
  if (L.size() == 0)
    return 0;
  size_t Count = 1;
  for (size_t D = 0; D < L.size(); ++D)
    Count *= L[D];
  return Count;
}

} // namespace

namespace std {

gslice::_Indexer::_Indexer(size_t Start, const valarray<size_t> &Lengths,
                           const valarray<size_t> &Strides)
    : _M_count(1), _M_start(Start), _M_size(Lengths), _M_stride(Strides),
      _M_index(selectedCount(Lengths)) {
  size_t Rank = Lengths.size();
  valarray<size_t> Position(size_t(0), Rank);
  for (size_t K = 0; K < _M_index.size(); ++K) {
    size_t Index = Start;
    for (size_t D = 0; D < Rank; ++D)
      Index += Position[D] * Strides[D];
    _M_index[K] = Index;
    // The next position, as an odometer whose last digit turns fastest.
    for (size_t D = Rank; D-- > 0;) {
      if (++Position[D] < Lengths[D])
        break;
      Position[D] = 0;
    }
  }
}

} // namespace std
