# Reports its capabilities and whether it could make a file in its container immutable (chattr +i).
from wire import *
import fcntl
host = connect()
status = dict(line.split(":\t", 1) for line in open("/proc/self/status").read().splitlines() if ":\t" in line)
open("pinned", "w").close()
fd = os.open("pinned", os.O_RDONLY)
try:
    flags = bytearray(4)
    fcntl.ioctl(fd, 0x80086601, flags)                  # FS_IOC_GETFLAGS
    value = struct.unpack("<i", flags)[0] | 0x10        # FS_IMMUTABLE_FL
    fcntl.ioctl(fd, 0x40086602, struct.pack("<i", value))   # FS_IOC_SETFLAGS
    immutable = "made immutable"
except OSError as error:
    immutable = "refused (%s)" % error.strerror
cancel_saying(host, "CapEff %s CapPrm %s CapBnd %s; chattr +i %s" % (status["CapEff"].strip(), status["CapPrm"].strip(), status["CapBnd"].strip(), immutable))
stay()
