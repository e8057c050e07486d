# Fills the kernel's buffers through socket pairs it never reads ({PAIRS} of them, each end's send buffer
# raised to {SNDBUF} bytes), keeping every end, and waits: memory the kernel holds for it, not in its pages.
from wire import *
import fcntl, socket as sockets
host = connect()
pairs = []
for _ in range({PAIRS}):
    a, b = sockets.socketpair(sockets.AF_UNIX, sockets.SOCK_STREAM)
    for end in (a, b):
        end.setsockopt(sockets.SOL_SOCKET, sockets.SO_SNDBUF, {SNDBUF})
        end.setblocking(False)
    for sender in (a, b):
        try:
            while True:
                sender.send(b"x" * 65536)
        except BlockingIOError:
            pass
    pairs.append((a, b))
print("filled %d pairs" % len(pairs), flush=True)
stay()
