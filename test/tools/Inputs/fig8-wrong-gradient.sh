#!/bin/sh
# Stands in for paper-fig8 in paper-fig8-sweep.test: plain and the other
# modes agree, binary-bisection's gradient is off in the ninth digit.
digest=1.5,2.5,3.5
[ "$1" = binary-bisection ] && digest=1.500000001,2.5,3.5
echo "mode=$1 l=$2 n=$3 inner=10 f=1 seconds=0.001 digest=$digest" \
  "peak_rss_kib=2048 tape_bytes=0 snapshot_bytes=0"
