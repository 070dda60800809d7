//===- TangentRequests.h - Lowers forward-mode marker calls -----*- C++ -*-===//
#ifndef CAPSULE_TANGENTREQUESTS_H
#define CAPSULE_TANGENTREQUESTS_H

#include "Reverse/Differentiator.h"
#include "Support/MarkerCalls.h"

namespace capsule {

/// Replaces the forward-mode marker call of \p R by a call of the tangent
/// function of its signature, after the runtime's forward-mode hook, with the
/// shadow globals tied to the dup arguments as for a gradient. The tangent
/// function must have been requested (Differentiator::get) and generated.
void lowerTangentRequest(Differentiator &D, const GradientRequest &R);

} // namespace capsule

#endif
