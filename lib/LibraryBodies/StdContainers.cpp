//===- StdContainers.cpp - Bodies of libstdc++'s node-linking functions ---===//
//
// std::map, std::set and std::list keep their element types in templates the
// program's own code instantiates, but link and walk their nodes with a few
// functions compiled into libstdc++.so: declared only, they would leave the
// shadow tree or list of a container of active data with nothing to follow.
// Their definitions here, written for libstdc++'s node layout, are compiled
// to bitcode, embedded in the plugin and linked into a module that
// differentiates (Support/LibraryBodies.h), as internal functions: the
// shadow nodes are then linked and walked by the same code as the nodes,
// step by step, in every mode, checkpointed ones included.
//
// A red-black tree (std::_Rb_tree) has a header node: its parent is the
// root, its left and right the leftmost and rightmost nodes, its colour red;
// end() is the header. Colours: red = false, black = true. A list
// (std::__detail::_List_node_base) is circular through its header.
// These must behave exactly as libstdc++'s own, which the program's other
// files call on the same containers.
//===----------------------------------------------------------------------===//
#include <list>
#include <map>

// The helpers' names are not std's: calls from inside namespace std would
// find std::next and the like first.
namespace {

using Node = std::_Rb_tree_node_base;

bool isRed(const Node *X) { return X && X->_M_color == std::_S_red; }

Node *leftmostBelow(Node *X) {
  while (X->_M_left)
    X = X->_M_left;
  return X;
}

Node *rightmostBelow(Node *X) {
  while (X->_M_right)
    X = X->_M_right;
  return X;
}

/// Puts \p Child where \p Old hangs from \p Old's parent (or at the root).
void replaceChild(Node *Old, Node *Child, Node *&Root) {
  if (Old == Root)
    Root = Child;
  else if (Old == Old->_M_parent->_M_left)
    Old->_M_parent->_M_left = Child;
  else
    Old->_M_parent->_M_right = Child;
}

/// \p N's child on the right when \p Right, on the left otherwise: the
/// rebalancing cases come in mirrored pairs, written once with a side.
Node *&childOn(Node *N, bool Right) { return Right ? N->_M_right : N->_M_left; }

/// Rotates \p X down toward side \p Right: its child on the other side
/// takes its place.
void rotate(Node *X, bool Right, Node *&Root) {
  Node *Y = childOn(X, !Right);
  childOn(X, !Right) = childOn(Y, Right);
  if (childOn(Y, Right))
    childOn(Y, Right)->_M_parent = X;
  Y->_M_parent = X->_M_parent;
  replaceChild(X, Y, Root);
  childOn(Y, Right) = X;
  X->_M_parent = Y;
}

Node *successorOf(Node *X) {
  if (X->_M_right)
    return leftmostBelow(X->_M_right);
  Node *Y = X->_M_parent;
  while (X == Y->_M_right) {
    X = Y;
    Y = Y->_M_parent;
  }
  // From the last node the walk climbs to the header, end(). When the root
  // is the last node, the header's right link (the rightmost node) is the
  // root, so the climb goes one step further, from the header back to the
  // root: X is then the header and Y the root.
  return X->_M_right != Y ? Y : X;
}

Node *predecessorOf(Node *X) {
  // end(): the header, the only red node whose grandparent is itself.
  if (X->_M_color == std::_S_red && X->_M_parent->_M_parent == X)
    return X->_M_right;
  if (X->_M_left)
    return rightmostBelow(X->_M_left);
  Node *Y = X->_M_parent;
  while (X == Y->_M_left) {
    X = Y;
    Y = Y->_M_parent;
  }
  return Y;
}

/// Restores the red-black properties after the red leaf \p X was linked.
void rebalanceAfterInsert(Node *X, Node *&Root) {
  while (X != Root && X->_M_parent->_M_color == std::_S_red) {
    Node *Grandparent = X->_M_parent->_M_parent;
    // The side of the grandparent the parent is on, and the other.
    bool Right = X->_M_parent == Grandparent->_M_right;
    Node *Uncle = childOn(Grandparent, !Right);
    if (isRed(Uncle)) {
      X->_M_parent->_M_color = std::_S_black;
      Uncle->_M_color = std::_S_black;
      Grandparent->_M_color = std::_S_red;
      X = Grandparent;
      continue;
    }
    if (X == childOn(X->_M_parent, !Right)) {
      X = X->_M_parent;
      rotate(X, Right, Root);
    }
    X->_M_parent->_M_color = std::_S_black;
    Grandparent->_M_color = std::_S_red;
    rotate(Grandparent, !Right, Root);
  }
  Root->_M_color = std::_S_black;
}

/// Restores the red-black properties after a black node was unlinked above
/// \p X (possibly null), now a child of \p Parent.
void rebalanceAfterErase(Node *X, Node *Parent, Node *&Root) {
  while (X != Root && !isRed(X)) {
    // The side of the parent X is on; the sibling is on the other.
    bool Right = X == Parent->_M_right;
    Node *Sibling = childOn(Parent, !Right);
    if (isRed(Sibling)) {
      Sibling->_M_color = std::_S_black;
      Parent->_M_color = std::_S_red;
      rotate(Parent, Right, Root);
      Sibling = childOn(Parent, !Right);
    }
    if (!isRed(Sibling->_M_left) && !isRed(Sibling->_M_right)) {
      Sibling->_M_color = std::_S_red;
      X = Parent;
      Parent = Parent->_M_parent;
      continue;
    }
    if (!isRed(childOn(Sibling, !Right))) {
      childOn(Sibling, Right)->_M_color = std::_S_black;
      Sibling->_M_color = std::_S_red;
      rotate(Sibling, !Right, Root);
      Sibling = childOn(Parent, !Right);
    }
    Sibling->_M_color = Parent->_M_color;
    Parent->_M_color = std::_S_black;
    if (childOn(Sibling, !Right))
      childOn(Sibling, !Right)->_M_color = std::_S_black;
    rotate(Parent, Right, Root);
    break;
  }
  if (X)
    X->_M_color = std::_S_black;
}

} // namespace

namespace std {

_Rb_tree_node_base *_Rb_tree_increment(_Rb_tree_node_base *X) throw() {
  return successorOf(X);
}

const _Rb_tree_node_base *
_Rb_tree_increment(const _Rb_tree_node_base *X) throw() {
  return successorOf(const_cast<Node *>(X));
}

_Rb_tree_node_base *_Rb_tree_decrement(_Rb_tree_node_base *X) throw() {
  return predecessorOf(X);
}

const _Rb_tree_node_base *
_Rb_tree_decrement(const _Rb_tree_node_base *X) throw() {
  return predecessorOf(const_cast<Node *>(X));
}

void _Rb_tree_insert_and_rebalance(const bool InsertLeft, _Rb_tree_node_base *X,
                                   _Rb_tree_node_base *Parent,
                                   _Rb_tree_node_base &Header) throw() {
  Node *&Root = Header._M_parent;
  X->_M_parent = Parent;
  X->_M_left = nullptr;
  X->_M_right = nullptr;
  X->_M_color = _S_red;
  if (InsertLeft) {
    // Parent is the header only when the tree is empty.
    Parent->_M_left = X;
    if (Parent == &Header) {
      Header._M_parent = X;
      Header._M_right = X;
    } else if (Parent == Header._M_left) {
      Header._M_left = X;
    }
  } else {
    Parent->_M_right = X;
    if (Parent == Header._M_right)
      Header._M_right = X;
  }
  rebalanceAfterInsert(X, Root);
}

_Rb_tree_node_base *
_Rb_tree_rebalance_for_erase(_Rb_tree_node_base *const Z,
                             _Rb_tree_node_base &Header) throw() {
  Node *&Root = Header._M_parent;
  Node *&Leftmost = Header._M_left;
  Node *&Rightmost = Header._M_right;
  // Z leaves the tree: with two children, its successor Y takes its place
  // (and its colour), and the successor's right child X the successor's.
  Node *Y = Z;
  Node *X;
  if (!Z->_M_left)
    X = Z->_M_right;
  else if (!Z->_M_right)
    X = Z->_M_left;
  else {
    Y = leftmostBelow(Z->_M_right);
    X = Y->_M_right;
  }
  Node *XParent;
  bool RemovedBlack;
  if (Y != Z) {
    Z->_M_left->_M_parent = Y;
    Y->_M_left = Z->_M_left;
    if (Y != Z->_M_right) {
      XParent = Y->_M_parent;
      if (X)
        X->_M_parent = Y->_M_parent;
      Y->_M_parent->_M_left = X;
      Y->_M_right = Z->_M_right;
      Z->_M_right->_M_parent = Y;
    } else {
      XParent = Y;
    }
    replaceChild(Z, Y, Root);
    Y->_M_parent = Z->_M_parent;
    RemovedBlack = Y->_M_color != _S_red;
    Y->_M_color = Z->_M_color;
  } else {
    XParent = Z->_M_parent;
    if (X)
      X->_M_parent = Z->_M_parent;
    replaceChild(Z, X, Root);
    if (Leftmost == Z)
      Leftmost = Z->_M_right ? leftmostBelow(X) : Z->_M_parent;
    if (Rightmost == Z)
      Rightmost = Z->_M_left ? rightmostBelow(X) : Z->_M_parent;
    RemovedBlack = Z->_M_color != _S_red;
  }
  if (RemovedBlack)
    rebalanceAfterErase(X, XParent, Root);
  return Z;
}

namespace __detail {

void _List_node_base::swap(_List_node_base &A, _List_node_base &B) throw() {
  _List_node_base *ANext = A._M_next, *APrev = A._M_prev;
  _List_node_base *BNext = B._M_next, *BPrev = B._M_prev;
  bool AEmpty = ANext == &A, BEmpty = BNext == &B;
  A._M_next = BEmpty ? &A : BNext;
  A._M_prev = BEmpty ? &A : BPrev;
  B._M_next = AEmpty ? &B : ANext;
  B._M_prev = AEmpty ? &B : APrev;
  A._M_next->_M_prev = A._M_prev->_M_next = &A;
  B._M_next->_M_prev = B._M_prev->_M_next = &B;
}

void _List_node_base::_M_transfer(_List_node_base *const First,
                                  _List_node_base *const Last) throw() {
  // Moves [First, Last) before this node.
  if (this == Last)
    return;
  Last->_M_prev->_M_next = this;
  First->_M_prev->_M_next = Last;
  this->_M_prev->_M_next = First;
  _List_node_base *Before = this->_M_prev;
  this->_M_prev = Last->_M_prev;
  Last->_M_prev = First->_M_prev;
  First->_M_prev = Before;
}

void _List_node_base::_M_reverse() throw() {
  _List_node_base *N = this;
  do {
    _List_node_base *Next = N->_M_next;
    N->_M_next = N->_M_prev;
    N->_M_prev = Next;
    N = Next;
  } while (N != this);
}

void _List_node_base::_M_hook(_List_node_base *const Position) throw() {
  this->_M_next = Position;
  this->_M_prev = Position->_M_prev;
  Position->_M_prev->_M_next = this;
  Position->_M_prev = this;
}

void _List_node_base::_M_unhook() throw() {
  _List_node_base *Next = this->_M_next;
  _List_node_base *Prev = this->_M_prev;
  Prev->_M_next = Next;
  Next->_M_prev = Prev;
}

} // namespace __detail
} // namespace std
