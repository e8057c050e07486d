# Writes {BLOCKS} blocks of 4 MB to a file in its container, each flushed to the disk before the next, then
# completes: work of its own on the disk, which a disk busy with others' work slows.
from wire import *
host = connect()
block = b"\x01" * (4 << 20)
path = os.path.join(os.environ["TMPDIR"], "written")
for _ in range({BLOCKS}):
    with open(path, "wb") as written:
        written.write(block)
        written.flush()
        os.fsync(written.fileno())
body, descriptors = complete([])
send_on(host, message(COMPLETE, body), descriptors)
os._exit(0)
