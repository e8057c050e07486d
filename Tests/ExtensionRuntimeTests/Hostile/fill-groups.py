# Writes {COUNT} files of {MEGABYTES} MB into its app groups' directory, as fast as it can, then completes
# the request; says how many it wrote before each.
from wire import *
host = connect()
groups = os.environ["OPENSHARING_APP_GROUP_CONTAINERS"]
chunk = os.urandom(1 << 20)
for n in range({COUNT}):
    with open(os.path.join(groups, "fill-%d.bin" % n), "wb") as f:
        for _ in range({MEGABYTES}):
            f.write(chunk)
    print("wrote %d" % (n + 1), flush=True)
body, fds = complete([])
send_on(host, message(COMPLETE, body), fds)
stay()
