# Tries to land more than its disk budget in its app groups (which the host keeps) past the disk gate, {HOW}: "fallocate" makes a file
# long with ftruncate, then allocates it with fallocate; "holes" makes it long, then writes into the holes;
# "append" writes with O_APPEND after seeking back to the start, so each write's offset is 0; "unshared" writes
# from a thread with a descriptor table of its own (unshare(CLONE_FILES)), which /proc/PID/fd does not show;
# "log" prints it to standard output. {MEGABYTES} MB, a megabyte at a time; says how far it got, then completes.
from wire import *
import ctypes, threading
host = connect()
os.chdir(os.environ["OPENSHARING_APP_GROUP_CONTAINERS"])
libc = ctypes.CDLL(None, use_errno=True)
chunk = os.urandom(1 << 20)
total = {MEGABYTES} << 20
done = [0, ""]
def write(fd, offset=None):
    for n in range({MEGABYTES}):
        if offset is None:
            os.write(fd, chunk)
        else:
            os.pwrite(fd, chunk, n << 20)
        done[0] += 1
try:
    how = "{HOW}"
    if how == "fallocate":
        fd = os.open("big.bin", os.O_RDWR | os.O_CREAT, 0o600)
        os.ftruncate(fd, total)
        os.posix_fallocate(fd, 0, total)
        done[0] = {MEGABYTES}
    elif how == "holes":
        fd = os.open("big.bin", os.O_RDWR | os.O_CREAT, 0o600)
        os.ftruncate(fd, total)
        write(fd, offset=0)
    elif how == "append":
        fd = os.open("big.bin", os.O_WRONLY | os.O_CREAT | os.O_APPEND, 0o600)
        for n in range({MEGABYTES}):
            os.lseek(fd, 0, os.SEEK_SET)
            os.write(fd, chunk)
            done[0] += 1
    elif how == "unshared":
        def alone():
            try:
                if libc.unshare(0x00000400) != 0:  # CLONE_FILES
                    done[1] = "unshare: errno %d" % ctypes.get_errno()
                    return
                fd = os.open("big.bin", os.O_WRONLY | os.O_CREAT, 0o600)
                write(fd)
            except OSError as e:
                done[1] = str(e)
        thread = threading.Thread(target=alone)
        thread.start()
        thread.join()
    elif how == "log":
        for n in range({MEGABYTES}):
            os.write(1, chunk)
            done[0] += 1
except OSError as e:
    done[1] = str(e)
print("wrote %d MB %s" % (done[0], done[1]), flush=True)
body, fds = complete([(None, "wrote %d MB %s" % (done[0], done[1]), [])])
send_on(host, message(COMPLETE, body), fds)
stay()
