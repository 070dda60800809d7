; An indirect call dispatches on the run-time callee: one branch per
; function of the module with the call's type whose address is taken (sq and
; cube, in @table; notaken is only called directly, f has another type),
; each calling that function's forward (then reverse) sweep, and a last
; branch to __capsule_unknown_call_target for anything else. Candidates are
; tried in module order. The reverse sweep dispatches on the taped function
; pointer.
; RUN: %opt -load-pass-plugin=%plugin -passes=capsule -S %s | FileCheck %s

@table = global [2 x ptr] [ptr @sq, ptr @cube]
@capsule_const = external global i32

define double @sq(double %x) {
entry:
  %r = fmul double %x, %x
  ret double %r
}

define double @cube(double %x) {
entry:
  %s = fmul double %x, %x
  %r = fmul double %s, %x
  ret double %r
}

define double @notaken(double %x) {
entry:
  ret double %x
}

define double @f(ptr %fn, double %x) {
entry:
  %r = call double %fn(double %x)
  ret double %r
}

declare double @__capsule_autodiff(ptr, ...)

define double @grad(i32 %i, double %x) {
entry:
  %slot = getelementptr [2 x ptr], ptr @table, i32 0, i32 %i
  %fn = load ptr, ptr %slot
  %c = load i32, ptr @capsule_const
  %d = call double (ptr, ...) @__capsule_autodiff(ptr @f, i32 %c, ptr %fn, double %x)
  %n = call double @notaken(double %x)
  %s = fadd double %d, %n
  ret double %s
}

; CHECK-LABEL: define internal double @f.capsule.fwd.cor(ptr %0, double %1)
; CHECK-NOT:     @notaken
; CHECK:         [[IS1:%.*]] = icmp eq ptr %0, @sq
; CHECK-NEXT:    br i1 [[IS1]], label %[[CALL1:.*]], label %[[NEXT1:.*]]
; CHECK:       {{^}}[[CALL1]]:
; CHECK:         [[R1:%.*]] = call double @sq.capsule.fwd.or(double %1)
; CHECK:       {{^}}[[NEXT1]]:
; CHECK-NEXT:    [[IS2:%.*]] = icmp eq ptr %0, @cube
; CHECK-NEXT:    br i1 [[IS2]], label %[[CALL2:.*]], label %[[NEXT2:.*]]
; CHECK:       {{^}}[[CALL2]]:
; CHECK:         [[R2:%.*]] = call double @cube.capsule.fwd.or(double %1)
; CHECK:       {{^}}[[NEXT2]]:
; CHECK-NEXT:    call void @__capsule_unknown_call_target(ptr %0, ptr @capsule.site{{.*}})
; CHECK-NEXT:    unreachable
; CHECK:         phi double [ [[R1]], %[[CALL1]] ], [ [[R2]], %[[CALL2]] ]
; CHECK-NOT:     @notaken
; CHECK:         [[REC:%tape.rec[0-9]*]] = phi ptr
; CHECK-DAG:     store ptr %0, ptr [[FA:%[0-9]+]]
; CHECK-DAG:     [[FA]] = getelementptr inbounds i8, ptr [[REC]], i64 [[FOFF:[0-9]+]]
; CHECK:         ret double

; CHECK-LABEL: define internal { double } @f.capsule.rev.cor(double %0)
; CHECK:         [[REC:%tape.rec[0-9]*]] = phi ptr
; CHECK-DAG:     [[FA:%[0-9]+]] = getelementptr inbounds i8, ptr [[REC]], i64 [[FOFF]]
; CHECK-DAG:     [[FN:%[0-9]+]] = load ptr, ptr [[FA]]
; CHECK:         [[D:%[0-9]+]] = fadd double -0.000000e+00, %0
; CHECK-NEXT:    [[IS1:%.*]] = icmp eq ptr [[FN]], @sq
; CHECK-NEXT:    br i1 [[IS1]], label %[[CALL1:.*]], label %[[NEXT1:.*]]
; CHECK:       {{^}}[[CALL1]]:
; CHECK:         [[R1:%.*]] = call { double } @sq.capsule.rev.or(double [[D]])
; CHECK:       {{^}}[[NEXT1]]:
; CHECK-NEXT:    [[IS2:%.*]] = icmp eq ptr [[FN]], @cube
; CHECK-NEXT:    br i1 [[IS2]], label %[[CALL2:.*]], label %[[NEXT2:.*]]
; CHECK:       {{^}}[[CALL2]]:
; CHECK:         [[R2:%.*]] = call { double } @cube.capsule.rev.or(double [[D]])
; CHECK:       {{^}}[[NEXT2]]:
; CHECK-NEXT:    call void @__capsule_unknown_call_target(ptr [[FN]], ptr @capsule.site{{.*}})
; CHECK-NEXT:    unreachable
; CHECK:         [[RS:%.*]] = phi { double } [ [[R1]], %[[CALL1]] ], [ [[R2]], %[[CALL2]] ]
; CHECK-NEXT:    [[DX:%.*]] = extractvalue { double } [[RS]], 0

; Both candidates are differentiated; notaken is not.
; CHECK-DAG:   define internal double @sq.capsule.fwd.or(
; CHECK-DAG:   define internal { double } @sq.capsule.rev.or(
; CHECK-DAG:   define internal double @cube.capsule.fwd.or(
; CHECK-DAG:   define internal { double } @cube.capsule.rev.or(
; CHECK-NOT:   @notaken.capsule
