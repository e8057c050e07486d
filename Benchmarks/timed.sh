#!/bin/sh
# Runs a command and appends "seconds KB" to FILE: the wall time to the millisecond (GNU time's %e is in
# hundredths, too coarse for a run of 0.1 s) and the peak resident set from GNU time. Its output goes nowhere,
# its error output to FILE.err; the exit status is the command's, and nothing is appended when it failed.
#   sh timed.sh FILE COMMAND [ARGUMENT...]
out=$1; shift
start=$(date +%s%N)
/usr/bin/time -f "%M" -o "$out.kb" "$@" > /dev/null 2> "$out.err" && status=0 || status=$?
if [ "$status" -ne 0 ]; then rm -f "$out.kb"; exit "$status"; fi
end=$(date +%s%N)
echo "$start $end $(tail -1 "$out.kb")" | awk '{ printf "%.3f %s\n", ($2 - $1) / 1e9, $3 }' >> "$out"
rm -f "$out.kb"
