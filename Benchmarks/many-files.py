#!/usr/bin/env python3
# A share extension that fills its container with {COUNT} empty files, notes the time it made the last one in
# its app group, and completes: Benchmarks/compare-container-removal.sh times the host's removal of them.
import os, sys, time
sys.path.insert(0, os.path.dirname(os.path.realpath(__file__)))
from wire import *
host = connect()
directory = os.path.join(os.environ["HOME"], "many")
os.mkdir(directory)
for n in range({COUNT}):
    os.close(os.open(os.path.join(directory, "f%d" % n), os.O_CREAT | os.O_WRONLY, 0o644))
with open(os.path.join(os.environ["OPENSHARING_APP_GROUP_CONTAINERS"], "made"), "w") as stamp:
    stamp.write("%.6f" % time.time())
body, descriptors = complete([])
send_on(host, message(COMPLETE, body), descriptors)
os._exit(0)
