/*===- EnzymeMarkers.c - Enzyme's marker globals, for its C++ header ------===*
 *
 * C programs written for Enzyme define the markers they use themselves
 * (`int enzyme_dup;`); Enzyme's C++ header only declares them, and a
 * program using it must link whether or not every reference to them went
 * with the marker calls the pass lowered. The definitions are weak, so a
 * program's own always wins, and live in their own object file, which the
 * linker pulls in only for a program that refers to one of them.
 *===----------------------------------------------------------------------===*/
#define CAPSULE_WEAK_MARKER(name) __attribute__((weak)) int name = 0

CAPSULE_WEAK_MARKER(enzyme_dup);
CAPSULE_WEAK_MARKER(enzyme_dupnoneed);
CAPSULE_WEAK_MARKER(enzyme_out);
CAPSULE_WEAK_MARKER(enzyme_const);
CAPSULE_WEAK_MARKER(enzyme_width);
CAPSULE_WEAK_MARKER(enzyme_dupv);
CAPSULE_WEAK_MARKER(enzyme_dupnoneedv);
CAPSULE_WEAK_MARKER(enzyme_primal_return);
CAPSULE_WEAK_MARKER(enzyme_noret);
CAPSULE_WEAK_MARKER(enzyme_const_return);
CAPSULE_WEAK_MARKER(enzyme_active_return);
CAPSULE_WEAK_MARKER(enzyme_dup_return);
CAPSULE_WEAK_MARKER(enzyme_tape);
CAPSULE_WEAK_MARKER(enzyme_allocated);
