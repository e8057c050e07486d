# Returns data whose memory file is 10 bytes, claiming LENGTH bytes.
from wire import *
import fcntl
host = connect()
fd = os.memfd_create("payload", os.MFD_ALLOW_SEALING)
os.write(fd, b"0123456789")
fcntl.fcntl(fd, fcntl.F_ADD_SEALS, fcntl.F_SEAL_SHRINK | fcntl.F_SEAL_GROW | fcntl.F_SEAL_WRITE | fcntl.F_SEAL_SEAL)
body, fds = complete([(None, None, [(None, [("public.data", DATA, memory_result({LENGTH}, fd))])])])
send_on(host, message(COMPLETE, body), fds)
stay()
